"""Metric values, and bulk writes: many generations, judgements or metric values in ONE transaction (issue 26).

``save_generation`` / ``save_judgement`` / ``save_metric_value`` commit one record each, which on PostgreSQL
costs a network round trip and a commit per record (5.5x SQLite's time through the store API). The ``save_*s``
methods write a whole batch with one executemany statement per table inside one transaction, with the same
rules per record: a finished generation (ok/excluded) or a scored judgement is kept unchanged, a failed or
unscored one replaced, a metric value updated. All or nothing: a record that cannot be stored (its task is not
in the store) is named in an InputError before anything is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from sqlalchemy import select, tuple_

from benger.errors import InputError
from benger.schema import Generation, Judgement
from benger.store._convert import MetricValue, metric_value
from benger.store._corpora import corpora_of_tasks
from benger.store._models import GenerationRow, JudgementRow, MetricValueRow, TaskRow
from benger.store._session import StoreBase, row_values

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

_GEN_KEY = ["corpus", "task_id", "config_hash", "run_index"]
_JUDGE_KEY = ["target_kind", "target_id", "judge_config_hash", "rubric_id", "repeat_index"]
_METRIC_KEY = ["target_kind", "target_id", "metric", "signature"]
#: Rows per executemany statement (bounds the parameter lists a driver builds at once).
CHUNK = 2000


class BulkWritesMixin(StoreBase):
    """``save_generations``, ``save_judgements``, ``save_metric_values``: one transaction per batch; and the
    one-record ``save_metric_value`` with its reader ``metric_values``."""

    # -- metric values -----------------------------------------------------------------------------
    def save_metric_value(
        self,
        target_kind: str,
        target_id: str,
        metric: str,
        signature: str,
        value: float,
        details: dict[str, Any] | None = None,
    ) -> MetricValue:
        """Insert or update one metric value (key: target_kind, target_id, metric, signature)."""
        record = MetricValue(
            target_kind=target_kind,
            target_id=target_id,
            metric=metric,
            signature=signature,
            value=value,
            details=details,
        )
        with self._write() as session, session.begin():
            self._upsert(
                session,
                MetricValueRow,
                [self._stamped(record.model_dump(mode="json"))],
                _METRIC_KEY,
                keep=["created_at"],
            )
        return record

    def metric_values(self, metric: str | None = None, target_kind: str | None = None) -> list[MetricValue]:
        """Stored metric values, ordered by metric, target and signature."""
        stmt = select(MetricValueRow)
        if metric is not None:
            stmt = stmt.where(MetricValueRow.metric == metric)
        if target_kind is not None:
            stmt = stmt.where(MetricValueRow.target_kind == target_kind)
        stmt = stmt.order_by(
            MetricValueRow.metric, MetricValueRow.target_kind, MetricValueRow.target_id, MetricValueRow.signature
        )
        return [metric_value(r) for r in self._scalars(stmt)]

    def save_generations(self, gens: Sequence[Generation]) -> None:
        """``save_generation`` for every record of ``gens`` in one transaction (in order: a later record with the
        key of an earlier failed one replaces it). InputError, nothing written, when a task is not stored."""
        with self._write() as session, session.begin():
            corpora = corpora_of_tasks(session, [g.task_id for g in gens if g.corpus is None], "the generation")
            resolved = [
                g if g.corpus is not None else g.model_copy(update={"corpus": corpora[g.task_id]}) for g in gens
            ]
            _check_tasks(session, resolved)
            rows = [self._stamped(row_values(GenerationRow, g)) for g in resolved]
            for chunk in _chunks(rows):
                self._upsert(
                    session, GenerationRow, chunk, _GEN_KEY, keep=["created_at"], where=GenerationRow.status == "failed"
                )

    def save_judgements(self, judgements: Sequence[Judgement]) -> None:
        """``save_judgement`` for every record in one transaction (a scored judgement is kept unchanged)."""
        with self._write() as session, session.begin():
            rows = [self._stamped(row_values(JudgementRow, j)) for j in judgements]
            for chunk in _chunks(rows):
                self._upsert(
                    session,
                    JudgementRow,
                    chunk,
                    _JUDGE_KEY,
                    keep=["created_at"],
                    where=JudgementRow.status == "unscored",
                )

    def save_metric_values(self, values: Iterable[MetricValue]) -> None:
        """``save_metric_value`` for every value in one transaction (insert, or update the value and details)."""
        rows = [self._stamped(MetricValue.model_validate(v).model_dump(mode="json")) for v in values]
        with self._write() as session, session.begin():
            for chunk in _chunks(rows):
                self._upsert(session, MetricValueRow, chunk, _METRIC_KEY, keep=["created_at"])


def _chunks(rows: list[dict[str, Any]]) -> Iterable[list[dict[str, Any]]]:
    for start in range(0, len(rows), CHUNK):
        yield rows[start : start + CHUNK]


def _check_tasks(session: Session, gens: Sequence[Generation]) -> None:
    """InputError naming the first generation whose (corpus, task) is not stored (nothing is written then)."""
    wanted = sorted({(g.corpus, g.task_id) for g in gens if g.corpus is not None})
    known: set[tuple[str, str]] = set()
    for start in range(0, len(wanted), CHUNK // 2):
        part = wanted[start : start + CHUNK // 2]
        stmt = select(TaskRow.corpus, TaskRow.task_id).where(tuple_(TaskRow.corpus, TaskRow.task_id).in_(part))
        known.update((c, t) for c, t in session.execute(stmt))
    for g in gens:
        if (g.corpus, g.task_id) not in known:
            where = f" of corpus {g.corpus!r}" if g.corpus is not None else ""
            raise InputError(
                f"cannot store generation {g.generation_id!r}: task {g.task_id!r}{where} is not in the store "
                "(add its corpus first; nothing of this batch was written)",
                field="task_id",
            )
