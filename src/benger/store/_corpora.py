"""Corpus import rules: a corpus name is never silently replaced and an import never touches another corpus.

A task is identified by (corpus, task id) (the store's key since migration 0007): two corpora may each hold a
task ``t1``, and importing one never reads, changes or removes the other's task or anything made from it.
Importing a corpus whose name is already stored:

* with the same tasks (ids, order and content) is a no-op (a repeated import, a rerun of a config);
* with any difference is refused (``InputError``) and the message says what ``replace`` would remove,
  unless ``replace=True``: then the tasks that are gone or changed are deleted together with everything
  that was made from them (generations, human solutions, their judgements, reviews and metric values),
  and the new tasks are written.

Every function here runs inside the caller's transaction (one import = one transaction).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
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


def _dependents(session: Session, corpus: str, task_ids: list[str]) -> tuple[list[str], list[str]]:
    gens: list[str] = []
    sols: list[str] = []
    g, s = GenerationRow, HumanSolutionRow
    for chunk in _chunks(task_ids):
        gens += session.scalars(select(g.generation_id).where(g.corpus == corpus, g.task_id.in_(chunk)))
        sols += session.scalars(select(s.solution_id).where(s.corpus == corpus, s.task_id.in_(chunk)))
    return gens, sols


def _foreign_targets(session: Session, corpus: str, target_ids: set[str]) -> set[str]:
    """The ids among ``target_ids`` of generations and human solutions of corpora other than ``corpus``."""
    foreign: set[str] = set()
    ids = sorted(target_ids)
    g, s = GenerationRow, HumanSolutionRow
    for chunk in _chunks(ids):
        foreign.update(session.scalars(select(g.generation_id).where(g.generation_id.in_(chunk), g.corpus != corpus)))
        foreign.update(session.scalars(select(s.solution_id).where(s.solution_id.in_(chunk), s.corpus != corpus)))
    return foreign


def _count(session: Session, column: Any, ids: list[str]) -> int:
    return sum(
        session.scalar(select(func.count()).select_from(column.table).where(column.in_(chunk))) or 0
        for chunk in _chunks(ids)
    )


def _removal(session: Session, change: CorpusChange, task_ids: list[str], *, execute: bool) -> None:
    """Count (and with ``execute`` delete) the tasks ``task_ids`` of ``change.corpus`` and every row made from them
    (a review names its task by id only: one whose target belongs to another corpus is kept)."""
    corpus = change.corpus
    gens, sols = _dependents(session, corpus, task_ids)
    targets = gens + sols
    change.tasks_removed = len(task_ids)
    change.generations_removed = len(gens)
    change.human_solutions_removed = len(sols)
    change.judgements_removed = _count(session, JudgementRow.target_id, targets)
    change.metric_values_removed = _count(session, MetricValueRow.target_id, targets)
    reviews: set[int] = set()
    for chunk in _chunks(targets):
        reviews.update(session.scalars(select(HumanReviewRow.seq).where(HumanReviewRow.target_id.in_(chunk))))
    by_task: dict[int, str] = {}
    for chunk in _chunks(task_ids):
        stmt = select(HumanReviewRow.seq, HumanReviewRow.target_id).where(HumanReviewRow.task_id.in_(chunk))
        by_task.update((int(seq), str(target)) for seq, target in session.execute(stmt))
    foreign = _foreign_targets(session, corpus, set(by_task.values()))
    reviews.update(seq for seq, target in by_task.items() if target not in foreign)
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
        session.execute(
            delete(TaskRow).where(TaskRow.corpus == corpus, TaskRow.task_id.in_(chunk)), execution_options=opts
        )


def apply_corpus(store: Any, session: Session, corpus: Corpus, *, replace: bool = False) -> CorpusChange:
    """Write ``corpus`` in ``session`` by the rules of this module; returns what changed."""
    rows = task_rows(corpus)
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
        store._upsert(session, TaskRow, rows, ["corpus", "task_id"])
    return change


def corpus_of_task(session: Session, task_id: str, corpus: str | None, what: str) -> str | None:
    """``corpus`` when given; else the one corpus holding ``task_id`` (None when none does). InputError naming the
    corpora when several hold it: a task id alone is ambiguous there, ``what`` must name its corpus."""
    if corpus is not None:
        return corpus
    return corpora_of_tasks(session, [task_id], what)[task_id]


#: Task ids per look-up statement of :func:`corpora_of_tasks`.
_IDS_PER_QUERY = 1000


def corpora_of_tasks(session: Session, task_ids: Iterable[str], what: str) -> dict[str, str | None]:
    """:func:`corpus_of_task` for many task ids in one SELECT per 1,000 distinct ids (not one per record):
    task id -> the one corpus holding it (None when none does). InputError as there for the first id, in the
    given order, that several corpora hold."""
    wanted = list(dict.fromkeys(task_ids))
    found: dict[str, list[str]] = {task_id: [] for task_id in wanted}
    for start in range(0, len(wanted), _IDS_PER_QUERY):
        part = wanted[start : start + _IDS_PER_QUERY]
        stmt = select(TaskRow.task_id, TaskRow.corpus).where(TaskRow.task_id.in_(part))
        for task_id, corpus in session.execute(stmt):
            found[task_id].append(corpus)
    for task_id, corpora in found.items():
        if len(corpora) > 1:
            names = sorted(corpora)
            raise InputError(
                f"task id {task_id!r} is in {len(names)} corpora ({', '.join(repr(c) for c in names)}): "
                f"{what} must name its corpus",
                field="corpus",
            )
    return {task_id: corpora[0] if corpora else None for task_id, corpora in found.items()}


def renamed(corpus: Corpus, name: str) -> Corpus:
    """``corpus`` under the name ``name`` (``benger import --as NAME``); its tasks move with it."""
    tasks = [t.model_copy(update={"corpus": name}) for t in corpus.tasks]
    return corpus.model_copy(update={"name": name, "tasks": tasks})
