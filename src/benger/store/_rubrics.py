"""Stored rubrics (issue 31): the content of every rubric a judgement was made with, so a store judged under an
own rubric is analysed, reported and shown without the rubric file (``benger.judge.stored_rubric`` reads it).

The store keeps the canonical mapping and its content hash; it does not interpret them (the judge layer checks
that the content still hashes to its key when it reads a rubric back). A store migrated from before
``0015_rubric_store`` has none for its older judgements: their rubric comes from the registry or a rubric file.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict
from sqlalchemy import func, select, union_all

from benger.store._base import utcnow
from benger.store._models import GenerationRow, HumanSolutionRow, JudgementRow, RubricRow
from benger.store._text import restored_json, storable


class StoredRubric(BaseModel):
    """A rubric as the store keeps it: its id (``name@version+sha8``), content hash (sha256 hex) and content."""

    model_config = ConfigDict(frozen=True)

    rubric_id: str
    content_hash: str
    payload: dict[str, Any]


class RubricsMixin:
    """``Store`` methods for the ``rubrics`` table."""

    def save_rubrics(self, rubrics: Iterable[StoredRubric]) -> None:
        """Keep each rubric's content (one transaction); a content hash already stored is left as it is."""
        rows = {r.content_hash: {**r.model_dump(), "created_at": utcnow()} for r in rubrics}
        if not rows:
            return
        stmt = self._insert(RubricRow).on_conflict_do_nothing(index_elements=["content_hash"])  # type: ignore[attr-defined]
        with self._write() as session, session.begin():  # type: ignore[attr-defined]
            session.execute(stmt, [storable(RubricRow, row) for row in rows.values()])

    def stored_rubrics(self, rubric_ids: Iterable[str] | None = None) -> list[StoredRubric]:
        """The stored rubrics (with one of ``rubric_ids``), by id then content hash."""
        stmt = select(RubricRow).order_by(RubricRow.rubric_id, RubricRow.content_hash)
        if rubric_ids is not None:
            stmt = stmt.where(RubricRow.rubric_id.in_(sorted(set(rubric_ids))))
        return [
            StoredRubric(rubric_id=r.rubric_id, content_hash=r.content_hash, payload=restored_json(r.payload))
            for r in self._scalars(stmt)  # type: ignore[attr-defined]
        ]

    def judged_rubric_ids(self, corpus: str) -> dict[str, int]:
        """Rubric id -> number of judgements of the generations and human solutions of ``corpus`` (one query)."""
        j = JudgementRow
        of_generations = (
            select(j.rubric_id)
            .join(GenerationRow, GenerationRow.generation_id == j.target_id)
            .where(j.target_kind == "generation", GenerationRow.corpus == corpus)
        )
        of_humans = (
            select(j.rubric_id)
            .join(HumanSolutionRow, HumanSolutionRow.solution_id == j.target_id)
            .where(j.target_kind == "human_solution", HumanSolutionRow.corpus == corpus)
        )
        both = union_all(of_generations, of_humans).subquery()
        stmt = select(both.c.rubric_id, func.count()).group_by(both.c.rubric_id).order_by(both.c.rubric_id)
        with self._read() as session:  # type: ignore[attr-defined]
            return {str(rid): int(n) for rid, n in session.execute(stmt)}
