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

from benger.store._tables import GENERATIONS, HUMAN_SOLUTIONS, JUDGEMENTS, utcnow
from benger.store._text import storable


class StoredRubric(BaseModel):
    """A rubric as the store keeps it: its id (``name@version+sha8``), content hash (sha256 hex) and content."""

    model_config = ConfigDict(frozen=True)

    rubric_id: str
    content_hash: str
    payload: dict[str, Any]


class RubricsMixin:
    """``Store`` methods for the ``rubrics`` table (``stored_rubrics`` reads it:
    :class:`benger.store._reads.StoreReads`)."""

    def save_rubrics(self, rubrics: Iterable[StoredRubric]) -> None:
        """Keep each rubric's content (one transaction); a content hash already stored is left as it is."""
        rows = {r.content_hash: {**r.model_dump(), "created_at": utcnow()} for r in rubrics}
        if not rows:
            return
        from benger.store._models import RubricRow  # the Store's module has loaded it already

        stmt = self._insert(RubricRow).on_conflict_do_nothing(index_elements=["content_hash"])  # type: ignore[attr-defined]
        with self._write() as session, session.begin():  # type: ignore[attr-defined]
            session.execute(stmt, [storable(RubricRow, row) for row in rows.values()])

    def judged_rubric_ids(self, corpus: str) -> dict[str, int]:
        """Rubric id -> number of judgements of the generations and human solutions of ``corpus`` (one query)."""
        j, g, h = JUDGEMENTS.c, GENERATIONS.c, HUMAN_SOLUTIONS.c
        of_generations = (
            select(j.rubric_id)
            .join(GENERATIONS, g.generation_id == j.target_id)
            .where(j.target_kind == "generation", g.corpus == corpus)
        )
        of_humans = (
            select(j.rubric_id)
            .join(HUMAN_SOLUTIONS, h.solution_id == j.target_id)
            .where(j.target_kind == "human_solution", h.corpus == corpus)
        )
        both = union_all(of_generations, of_humans).subquery()
        stmt = select(both.c.rubric_id, func.count()).group_by(both.c.rubric_id).order_by(both.c.rubric_id)
        with self.engine.connect() as connection:  # type: ignore[attr-defined]
            return {str(rid): int(n) for rid, n in connection.execute(stmt)}
