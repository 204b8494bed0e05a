"""The Store: every read and write of benger's records, one short transaction per call.

Writes commit immediately, so every result is persisted as it arrives. The finished-work rules
are enforced inside the database with ``INSERT ... ON CONFLICT DO UPDATE ... WHERE``, so two
workers (threads or processes) racing on the same unit-of-work key can never create duplicates.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.exc import IntegrityError

from benger.errors import InputError
from benger.schema import (
    Corpus,
    FalloesungTask,
    Generation,
    HumanReview,
    HumanSolution,
    Judgement,
    PrincipleItem,
    SystemConfig,
)
from benger.store import _convert as conv
from benger.store._bulk import BulkWritesMixin
from benger.store._claims import ClaimsMixin
from benger.store._corpora import CorpusChange, apply_corpus, corpus_of_task
from benger.store._import import RecordBundle, write_records
from benger.store._import import import_release as _import_release
from benger.store._ledger import LedgerMixin
from benger.store._models import (
    ClaimRow,
    CorpusRow,
    GenerationRow,
    HumanReviewRow,
    HumanSolutionRow,
    JudgementRow,
    MetricValueRow,
    SystemRow,
    TaskRow,
)
from benger.store._reads import StoreReads
from benger.store._rubrics import RubricsMixin
from benger.store._session import StoreBase, row_values
from benger.store._validations import ValidationsMixin

_GEN_KEY = ["corpus", "task_id", "config_hash", "run_index"]
_JUDGE_KEY = ["target_kind", "target_id", "judge_config_hash", "rubric_id", "repeat_index"]
_METRIC_KEY = ["target_kind", "target_id", "metric", "signature"]

#: Longer id lists are filtered in Python: SQLite and PostgreSQL cap the number of bound parameters.
MAX_IN_IDS = 2000


def _id_filter(stmt: Select[Any], column: Any, ids: Iterable[str] | None) -> tuple[Select[Any], set[str] | None]:
    """Restrict ``stmt`` to ``ids`` in SQL when the list is short; else return the set to filter rows by."""
    if ids is None:
        return stmt, None
    wanted = list(ids)
    if len(wanted) <= MAX_IN_IDS:
        return stmt.where(column.in_(wanted)), None
    return stmt, set(wanted)


class Store(BulkWritesMixin, ValidationsMixin, RubricsMixin, ClaimsMixin, LedgerMixin, StoreReads, StoreBase):
    """Typed access to the benger database (SQLite file or PostgreSQL); safe across threads and processes.

    The reads of corpora, systems, validations and kept rubrics are :class:`benger.store._reads.StoreReads`'s
    (SQLAlchemy Core, shared with the leaderboard's :class:`~benger.store._reads.StoreReader`)."""

    # -- corpora and tasks -------------------------------------------------------------------------
    def add_corpus(self, corpus: Corpus, *, replace: bool = False) -> CorpusChange:
        """Insert ``corpus`` and its tasks (order kept) in one transaction; returns what changed.

        Re-adding the same tasks is a no-op; another corpus's tasks are never touched (a task is (corpus, task
        id), so two corpora may share an id). InputError (nothing written) when the name is stored with other
        tasks and ``replace`` is False; with ``replace`` the gone or changed tasks and everything made from them
        are removed (see ``benger.store._corpora``).
        """
        return self.add_corpora([corpus], replace=replace)[0]

    def add_corpora(self, corpora: Sequence[Corpus], *, replace: bool = False) -> list[CorpusChange]:
        """``add_corpus`` for several corpora in ONE transaction: all are written, or none."""
        with self._write() as session, session.begin():
            return [apply_corpus(self, session, c, replace=replace) for c in corpora]

    def get_task(self, task_id: str, corpus: str | None = None) -> FalloesungTask | PrincipleItem | None:
        """The task (``corpus``, ``task_id``), or None. Without ``corpus``: the task of that id when one corpus
        holds it; InputError naming the corpora when several do."""
        with self._read() as session:
            corpus = corpus_of_task(session, task_id, corpus, "the look-up")
            row = session.get(TaskRow, (corpus, task_id)) if corpus is not None else None
            return conv.task(row.payload, row.corpus) if row is not None else None

    def _corpus_of(self, task_id: str, corpus: str | None, what: str) -> str | None:
        if corpus is not None:
            return corpus
        with self._read() as session:
            return corpus_of_task(session, task_id, None, what)

    # -- systems -----------------------------------------------------------------------------------
    def upsert_system(self, system: SystemConfig) -> None:
        """Insert or update the system configuration (key: name and ``config_hash()``).

        Two configurations under one name are both kept: the hash is the identity, the name a label.
        """
        with self._write() as session, session.begin():
            self._upsert(session, SystemRow, [conv.system_row(system)], ["name", "config_hash"])

    # -- generations -------------------------------------------------------------------------------
    def get_generation(
        self, task_id: str, config_hash: str, run_index: int, corpus: str | None = None
    ) -> Generation | None:
        """The generation with this unit-of-work key (``corpus`` resolved as in ``get_task`` when None), or None."""
        corpus = self._corpus_of(task_id, corpus, "the generation look-up")
        key = {"corpus": corpus, "task_id": task_id, "config_hash": config_hash, "run_index": run_index}
        rows = self._scalars(select(GenerationRow).filter_by(**key)) if corpus is not None else []
        return conv.generation(rows[0]) if rows else None

    def finished_generation_keys(self, config_hashes: Iterable[str]) -> set[tuple[str, str, str, int]]:
        """Keys (corpus, task_id, config_hash, run_index) of the finished (ok/excluded) generations under these
        config hashes: ONE query, for resume planning."""
        g = GenerationRow
        stmt = select(g.corpus, g.task_id, g.config_hash, g.run_index).where(
            g.config_hash.in_(sorted(set(config_hashes))), g.status.in_(("ok", "excluded"))
        )
        with self._read() as session:
            return {(c, t, h, r) for c, t, h, r in session.execute(stmt)}

    def get_generation_by_id(self, generation_id: str) -> Generation | None:
        """The generation with this id, whatever its status, or None."""
        with self._read() as session:
            row = session.get(GenerationRow, generation_id)
            return conv.generation(row) if row is not None else None

    def save_generation(self, gen: Generation) -> Generation:
        """Store ``gen`` unless its key holds a finished (ok/excluded) row; returns the stored row.

        A ``failed`` row with the same key is replaced, a finished one is kept unchanged. ``gen.corpus`` None:
        the corpus of its task id when one corpus holds it (InputError naming them when several do).
        """
        if gen.corpus is None:
            gen = gen.model_copy(update={"corpus": self._corpus_of(gen.task_id, None, "the generation")})
        try:
            written = self._save_unless_final(
                GenerationRow, self._stamped(row_values(GenerationRow, gen)), _GEN_KEY, "failed"
            )
        except IntegrityError as exc:
            raise self._integrity("generation", gen.generation_id, gen.task_id, exc, gen.corpus) from exc
        if written:
            return gen
        kept = self.get_generation(gen.task_id, gen.config_hash, gen.run_index, gen.corpus)
        if kept is None:  # pragma: no cover - the conflicting row cannot vanish between two statements
            raise InputError(f"generation {gen.generation_id!r} was not stored", file=self.url)
        return kept

    def generations(
        self,
        corpus: str | None = None,
        system: str | None = None,
        config_hash: str | None = None,
        status: str | None = None,
        task_ids: Iterable[str] | None = None,
    ) -> list[Generation]:
        """Stored generations matching every given filter, ordered by system, task, config and run."""
        stmt = select(GenerationRow)
        if corpus is not None:
            stmt = stmt.where(GenerationRow.corpus == corpus)
        if system is not None:
            stmt = stmt.where(GenerationRow.system == system)
        if config_hash is not None:
            stmt = stmt.where(GenerationRow.config_hash == config_hash)
        if status is not None:
            stmt = stmt.where(GenerationRow.status == status)
        stmt, keep = _id_filter(stmt, GenerationRow.task_id, task_ids)
        stmt = stmt.order_by(  # stable keys to the last tie: never the heap's order (issue 24)
            GenerationRow.system,
            GenerationRow.task_id,
            GenerationRow.config_hash,
            GenerationRow.run_index,
            GenerationRow.corpus,
            GenerationRow.generation_id,
        )
        return [conv.generation(r) for r in self._scalars(stmt) if keep is None or r.task_id in keep]

    # -- human solutions ---------------------------------------------------------------------------
    def add_human_solution(self, sol: HumanSolution) -> None:
        """Insert or replace the human solution ``sol.solution_id`` (``sol.corpus`` None: as in ``save_generation``)."""
        if sol.corpus is None:
            sol = sol.model_copy(update={"corpus": self._corpus_of(sol.task_id, None, "the human solution")})
        with self._write() as session, session.begin():
            try:
                self._upsert(
                    session,
                    HumanSolutionRow,
                    [self._stamped(row_values(HumanSolutionRow, sol))],
                    ["solution_id"],
                    keep=["created_at"],
                )
            except IntegrityError as exc:
                raise self._integrity("human solution", sol.solution_id, sol.task_id, exc, sol.corpus) from exc

    def get_human_solution(self, solution_id: str) -> HumanSolution | None:
        """The human solution with this id, or None."""
        with self._read() as session:
            row = session.get(HumanSolutionRow, solution_id)
            return conv.human_solution(row) if row is not None else None

    def human_solutions(
        self, task_id: str | None = None, condition: str | None = None, corpus: str | None = None
    ) -> list[HumanSolution]:
        """Stored human solutions, ordered by task and solution id (``task_id`` alone matches it in every corpus)."""
        stmt = select(HumanSolutionRow)
        if corpus is not None:
            stmt = stmt.where(HumanSolutionRow.corpus == corpus)
        if task_id is not None:
            stmt = stmt.where(HumanSolutionRow.task_id == task_id)
        if condition is not None:
            stmt = stmt.where(HumanSolutionRow.condition == condition)
        stmt = stmt.order_by(HumanSolutionRow.task_id, HumanSolutionRow.solution_id)
        return [conv.human_solution(r) for r in self._scalars(stmt)]

    # -- judgements --------------------------------------------------------------------------------
    def get_judgement(
        self, target_kind: str, target_id: str, judge_config_hash: str, rubric_id: str, repeat_index: int
    ) -> Judgement | None:
        """The judgement with this unit-of-work key, or None."""
        rows = self._scalars(
            select(JudgementRow).filter_by(
                target_kind=target_kind,
                target_id=target_id,
                judge_config_hash=judge_config_hash,
                rubric_id=rubric_id,
                repeat_index=repeat_index,
            )
        )
        return conv.judgement(rows[0]) if rows else None

    def scored_judgement_keys(self, judge_config_hashes: Iterable[str]) -> set[tuple[str, str, str, str, int]]:
        """Keys (target_kind, target_id, judge_config_hash, rubric_id, repeat_index) of the scored
        judgements under these judge config hashes: ONE query, for resume planning."""
        j = JudgementRow
        stmt = select(j.target_kind, j.target_id, j.judge_config_hash, j.rubric_id, j.repeat_index).where(
            j.judge_config_hash.in_(sorted(set(judge_config_hashes))), j.status == "scored"
        )
        with self._read() as session:
            return {(k, t, h, r, i) for k, t, h, r, i in session.execute(stmt)}

    def save_judgement(self, j: Judgement) -> Judgement:
        """Store ``j`` unless its key holds a ``scored`` row (kept unchanged); an ``unscored`` row is replaced."""
        try:
            written = self._save_unless_final(
                JudgementRow, self._stamped(row_values(JudgementRow, j)), _JUDGE_KEY, "unscored"
            )
        except IntegrityError as exc:
            raise self._integrity("judgement", j.judgement_id, None, exc) from exc
        if written:
            return j
        kept = self.get_judgement(j.target_kind, j.target_id, j.judge_config_hash, j.rubric_id, j.repeat_index)
        if kept is None:  # pragma: no cover - the conflicting row cannot vanish between two statements
            raise InputError(f"judgement {j.judgement_id!r} was not stored", file=self.url)
        return kept

    def judgements(
        self,
        judge: str | None = None,
        target_kind: str | None = None,
        target_ids: Iterable[str] | None = None,
        status: str | None = None,
        rubric_id: str | None = None,
    ) -> list[Judgement]:
        """Stored judgements matching every given filter, ordered by target, judge and repeat."""
        stmt = select(JudgementRow)
        if judge is not None:
            stmt = stmt.where(JudgementRow.judge == judge)
        if target_kind is not None:
            stmt = stmt.where(JudgementRow.target_kind == target_kind)
        stmt, keep = _id_filter(stmt, JudgementRow.target_id, target_ids)
        if status is not None:
            stmt = stmt.where(JudgementRow.status == status)
        if rubric_id is not None:
            stmt = stmt.where(JudgementRow.rubric_id == rubric_id)
        stmt = stmt.order_by(
            JudgementRow.target_kind,
            JudgementRow.target_id,
            JudgementRow.judge,
            JudgementRow.judge_config_hash,
            JudgementRow.rubric_id,
            JudgementRow.repeat_index,
        )
        return [conv.judgement(r) for r in self._scalars(stmt) if keep is None or r.target_id in keep]

    # -- human reviews -----------------------------------------------------------------------------
    def add_human_review(self, r: HumanReview) -> None:
        """Insert or replace the review ``r.review_id``."""
        with self._write() as session, session.begin():
            self._upsert(
                session,
                HumanReviewRow,
                [self._stamped(row_values(HumanReviewRow, r))],
                ["review_id"],
                keep=["created_at"],
            )

    def add_human_reviews(self, reviews: Sequence[HumanReview]) -> None:
        """Insert or replace the reviews in one transaction (all or none)."""
        if not reviews:
            return
        with self._write() as session, session.begin():
            rows = [self._stamped(row_values(HumanReviewRow, r)) for r in reviews]
            self._upsert(session, HumanReviewRow, rows, ["review_id"], keep=["created_at"])

    def human_reviews(self, target_id: str | None = None, role: str | None = None) -> list[HumanReview]:
        """Stored reviews ordered by ``position`` (reviews without one last, in insertion order)."""
        stmt = select(HumanReviewRow)
        if target_id is not None:
            stmt = stmt.where(HumanReviewRow.target_id == target_id)
        if role is not None:
            stmt = stmt.where(HumanReviewRow.role == role)
        stmt = stmt.order_by(HumanReviewRow.position.is_(None), HumanReviewRow.position, HumanReviewRow.seq)
        return [conv.human_review(r) for r in self._scalars(stmt)]

    # -- summaries ---------------------------------------------------------------------------------
    def sync_search_index(self) -> int:
        """Index the texts written since the last sync for the viewer's full-text search (one transaction; a run
        calls it after its generation stage, a writer when it opens the store); how many rows
        (:mod:`benger.store._fulltext`)."""
        from benger.store._open import sync_search_index

        return sync_search_index(self.engine)

    def stats(self) -> dict[str, dict[str, int]]:
        """Row counts: generations and judgements per status, the other tables as ``{"total": n}``."""
        result: dict[str, dict[str, int]] = {
            "generations": {"ok": 0, "excluded": 0, "failed": 0},
            "judgements": {"scored": 0, "unscored": 0},
        }
        with self._read() as session:
            for name, model in (("generations", GenerationRow), ("judgements", JudgementRow)):
                for status, count in session.execute(select(model.status, func.count()).group_by(model.status)):
                    result[name][status] = count
            for name, counted in (
                ("corpora", CorpusRow),
                ("tasks", TaskRow),
                ("systems", SystemRow),
                ("claims", ClaimRow),
                ("human_solutions", HumanSolutionRow),
                ("human_reviews", HumanReviewRow),
                ("metric_values", MetricValueRow),
            ):
                result[name] = {"total": session.scalar(select(func.count()).select_from(counted)) or 0}
        return result

    def import_release(self, release: Any, *, replace: bool = False) -> dict[str, int]:
        """Load the released BenGER data (a ``benger.corpora.Release`` or its folder) in ONE transaction.

        Everything is validated before the first write; on any error (InputError) the store is unchanged.
        ``replace`` as in ``add_corpus`` for the two corpora.
        """
        return _import_release(self, release, replace=replace)

    def import_records(self, bundle: RecordBundle, *, replace: bool = False) -> dict[str, int]:
        """Write ``bundle`` in ONE transaction as ``import_release`` does (InputError, nothing written, on error)."""
        return write_records(self, bundle, replace=replace, what="the records")
