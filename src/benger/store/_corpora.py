"""Corpus import rules: a corpus name is never silently replaced and a task never changes corpus.

A task is identified by (corpus, task id). Task ids are also unique across the store, so an import whose
record reuses another corpus's task id is refused, naming both corpora, and changes nothing. Importing a
corpus whose name is already stored:

* with the same tasks (ids, order and content) is a no-op (a repeated import, a rerun of a config);
* with any difference is refused (``InputError``) and the message says what ``replace`` would remove,
  unless ``replace=True``: then the tasks that are gone or changed are deleted together with everything
  that was made from them (generations, human solutions, their judgements, reviews and metric values),
  and the new tasks are written.

Every function here runs inside the caller's transaction (one import = one transaction).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from benger.errors import InputError
from benger.schema import Corpus
from benger.store._models import (
    CorpusRow,
    GenerationRow,
    HumanReviewRow,
    HumanSolutionRow,
    JudgementRow,
    MetricValueRow,
    TaskRow,
)
from benger.store._text import restored_json

#: Bound parameters per IN list (SQLite and PostgreSQL cap their number).
CHUNK = 2000


def _chunks(ids: Sequence[str]) -> Iterator[list[str]]:
    for start in range(0, len(ids), CHUNK):
        yield list(ids[start : start + CHUNK])


@dataclass
class CorpusChange:
    """What an import did (or, refused, would do) to one corpus; counts are rows."""

    corpus: str
    action: str  # "added" | "unchanged" | "replaced"
    tasks: int = 0
    tasks_removed: int = 0
    generations_removed: int = 0
    judgements_removed: int = 0
    human_solutions_removed: int = 0
    human_reviews_removed: int = 0
    metric_values_removed: int = 0

    def removed(self) -> str:
        """The removals as one line ("12 tasks, 13 generations, 13 judgements, ...")."""
        parts = [
            (self.tasks_removed, "tasks"),
            (self.generations_removed, "generations"),
            (self.judgements_removed, "judgements"),
            (self.human_solutions_removed, "human solutions"),
            (self.human_reviews_removed, "human reviews"),
            (self.metric_values_removed, "metric values"),
        ]
        return ", ".join(f"{n} {what}" for n, what in parts)


def task_rows(corpus: Corpus) -> list[dict[str, Any]]:
    """The tasks of ``corpus`` as table rows; InputError when an id repeats or a task names another corpus."""
    seen: set[str] = set()
    rows = []
    for index, task in enumerate(corpus.tasks):
        if task.task_id in seen:
            raise InputError(
                f"task id {task.task_id!r} appears twice", file=f"corpus {corpus.name}", line=index + 1, field="task_id"
            )
        seen.add(task.task_id)
        payload = task.model_dump(mode="json")
        payload["corpus"] = corpus.name  # a task belongs to the corpus it is imported into
        rows.append(
            {"task_id": task.task_id, "corpus": corpus.name, "position": index, "kind": task.kind, "area": task.area}
            | {"payload": payload}
        )
    return rows


def _refuse_foreign_ids(session: Session, name: str, ids: list[str]) -> None:
    clashes: list[tuple[str, str]] = []
    for chunk in _chunks(ids):
        stmt = select(TaskRow.task_id, TaskRow.corpus).where(TaskRow.task_id.in_(chunk), TaskRow.corpus != name)
        clashes += [(str(t), str(c)) for t, c in session.execute(stmt)]
    if clashes:
        clashes.sort()
        shown = ", ".join(f"{t!r} (corpus {c!r})" for t, c in clashes[:5])
        more = f" and {len(clashes) - 5} more" if len(clashes) > 5 else ""
        others = sorted({c for _, c in clashes})
        raise InputError(
            f"{len(clashes)} task id(s) of corpus {name!r} already belong to corpus "
            f"{', '.join(repr(c) for c in others)}: {shown}{more}. A task belongs to one corpus; give the tasks "
            f"of {name!r} their own ids. Nothing was imported.",
            file=f"corpus {name}",
            field="task_id",
        )


def _dependents(session: Session, task_ids: list[str]) -> tuple[list[str], list[str]]:
    gens: list[str] = []
    sols: list[str] = []
    for chunk in _chunks(task_ids):
        gens += session.scalars(select(GenerationRow.generation_id).where(GenerationRow.task_id.in_(chunk)))
        sols += session.scalars(select(HumanSolutionRow.solution_id).where(HumanSolutionRow.task_id.in_(chunk)))
    return gens, sols


def _count(session: Session, column: Any, ids: list[str]) -> int:
    return sum(
        session.scalar(select(func.count()).select_from(column.table).where(column.in_(chunk))) or 0
        for chunk in _chunks(ids)
    )


def _removal(session: Session, change: CorpusChange, task_ids: list[str], *, execute: bool) -> None:
    """Count (and with ``execute`` delete) the tasks ``task_ids`` and every row made from them."""
    gens, sols = _dependents(session, task_ids)
    targets = gens + sols
    change.tasks_removed = len(task_ids)
    change.generations_removed = len(gens)
    change.human_solutions_removed = len(sols)
    change.judgements_removed = _count(session, JudgementRow.target_id, targets)
    change.metric_values_removed = _count(session, MetricValueRow.target_id, targets)
    reviews: set[int] = set()
    for chunk in _chunks(targets):
        reviews.update(session.scalars(select(HumanReviewRow.seq).where(HumanReviewRow.target_id.in_(chunk))))
    for chunk in _chunks(task_ids):
        reviews.update(session.scalars(select(HumanReviewRow.seq).where(HumanReviewRow.task_id.in_(chunk))))
    change.human_reviews_removed = len(reviews)
    if not execute:
        return
    opts = {"synchronize_session": False}
    for chunk in _chunks(targets):
        session.execute(delete(JudgementRow).where(JudgementRow.target_id.in_(chunk)), execution_options=opts)
        session.execute(delete(MetricValueRow).where(MetricValueRow.target_id.in_(chunk)), execution_options=opts)
    for seq_chunk in _chunks([str(s) for s in sorted(reviews)]):
        seqs = [int(s) for s in seq_chunk]
        session.execute(delete(HumanReviewRow).where(HumanReviewRow.seq.in_(seqs)), execution_options=opts)
    for chunk in _chunks(gens):
        session.execute(delete(GenerationRow).where(GenerationRow.generation_id.in_(chunk)), execution_options=opts)
    for chunk in _chunks(sols):
        session.execute(delete(HumanSolutionRow).where(HumanSolutionRow.solution_id.in_(chunk)), execution_options=opts)
    for chunk in _chunks(task_ids):
        session.execute(delete(TaskRow).where(TaskRow.task_id.in_(chunk)), execution_options=opts)


def apply_corpus(store: Any, session: Session, corpus: Corpus, *, replace: bool = False) -> CorpusChange:
    """Write ``corpus`` in ``session`` by the rules of this module; returns what changed."""
    rows = task_rows(corpus)
    ids = [r["task_id"] for r in rows]
    _refuse_foreign_ids(session, corpus.name, ids)
    exists = session.get(CorpusRow, corpus.name) is not None
    stored = {
        task_id: (position, restored_json(payload))
        for task_id, position, payload in session.execute(
            select(TaskRow.task_id, TaskRow.position, TaskRow.payload).where(TaskRow.corpus == corpus.name)
        )
    }
    change = CorpusChange(corpus=corpus.name, action="added" if not exists else "unchanged", tasks=len(rows))
    new = {r["task_id"]: (r["position"], r["payload"]) for r in rows}
    gone = sorted(t for t, (_, payload) in stored.items() if t not in new or new[t][1] != payload)
    same = exists and stored == new
    if exists and not same:
        _removal(session, change, gone, execute=replace)
        if not replace:
            raise InputError(
                f"corpus {corpus.name!r} is already in the store ({len(stored)} tasks) and this import would change "
                f"it ({len(rows)} tasks). Nothing was imported. Import it under another name with --as NAME, or "
                f"replace the stored corpus with --replace, which removes {change.removed()}.",
                file=f"corpus {corpus.name}",
            )
        change.action = "replaced"
    store._upsert(session, CorpusRow, [{"name": corpus.name, "description": corpus.description}], ["name"])
    if not same:
        store._upsert(session, TaskRow, rows, ["task_id"])
    return change


def renamed(corpus: Corpus, name: str) -> Corpus:
    """``corpus`` under the name ``name`` (``benger import --as NAME``); its tasks move with it."""
    tasks = [t.model_copy(update={"corpus": name}) for t in corpus.tasks]
    return corpus.model_copy(update={"name": name, "tasks": tasks})
