"""Score the generations and human solutions in a store, resumably: one stored value per (target, metric, signature).

Metrics that fit weights on a corpus (MoverScore's IDF, BERTScore with ``idf``) fit them on **all references of
the target's corpus** (``corpus_references``), the same whether one target is scored (``score_target``, the
worker task) or thousands (``score_store``), so a value never depends on its batch; the corpus fingerprint is
part of the signature.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from benger.errors import InputError
from benger.metrics._api import EmbeddingOptions, compute, parse_metrics, signatures
from benger.metrics._registry import get_metric
from benger.metrics._workers import Batch, BatchRunner, estimate_seconds, pair_words
from benger.schema import FalloesungTask


@dataclass
class Target:
    """One text to score against its task's reference."""

    kind: str  # "generation" | "human_solution"
    target_id: str
    task_id: str
    text: str
    corpus: str | None = None  # a task is (corpus, task id)


@dataclass
class StoreRunSummary:
    """What ``score_store`` did: values written per metric and targets skipped as already stored."""

    written: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    no_reference: int = 0


def collect_targets(
    store: Any,
    corpus: str | None = None,
    systems: Sequence[str] | None = None,
    include_humans: bool = True,
    limit: int | None = None,
) -> list[Target]:
    """``ok`` generations (optionally of some systems / one corpus) and, unless ``systems`` is set, human solutions."""
    targets: list[Target] = []
    system_filter: list[str | None] = list(systems) if systems else [None]
    for system in system_filter:
        for gen in store.generations(corpus=corpus, system=system, status="ok"):
            targets.append(Target("generation", gen.generation_id, gen.task_id, gen.text, gen.corpus))
    if include_humans and not systems:
        for sol in store.human_solutions(corpus=corpus):
            targets.append(Target("human_solution", sol.solution_id, sol.task_id, sol.text, sol.corpus))
    return targets[:limit] if limit is not None else targets


def task_reference(store: Any, task_id: str, corpus: str | None = None) -> str | None:
    """The text a target is scored against: a Falllösung's reference, a principle item's gold reasoning."""
    task = store.get_task(task_id, corpus)
    if task is None:
        return None
    text = task.reference if isinstance(task, FalloesungTask) else task.gold_reasoning
    return text or None


def corpus_references(store: Any, corpus: str) -> tuple[str, ...]:
    """The references of every task of ``corpus`` (tasks without one are left out), in task order."""
    refs = []
    for task in store.load_corpus(corpus).tasks:
        text = task.reference if isinstance(task, FalloesungTask) else task.gold_reasoning
        if text:
            refs.append(text)
    return tuple(refs)


def _with_corpus(store: Any, embedding: EmbeddingOptions | None, corpus: str) -> EmbeddingOptions:
    """The options with ``idf_corpus`` set to the corpus references (an explicit corpus is kept)."""
    options = embedding or EmbeddingOptions()
    if options.idf_corpus is not None:
        return options
    return replace(options, idf_corpus=corpus_references(store, corpus))


def find_target(store: Any, target_kind: str, target_id: str) -> Target:
    """One ``ok`` generation or human solution by id; anything else is an InputError naming the id."""
    if target_kind == "generation":
        gen = store.get_generation_by_id(target_id)
        if gen is None or gen.status != "ok":
            raise InputError(f"no generation with status ok and id {target_id!r} in the store", field="target_id")
        return Target("generation", gen.generation_id, gen.task_id, gen.text, gen.corpus)
    if target_kind == "human_solution":
        sol = store.get_human_solution(target_id)
        if sol is None:
            raise InputError(f"no human solution with id {target_id!r} in the store", field="target_id")
        return Target("human_solution", sol.solution_id, sol.task_id, sol.text, sol.corpus)
    raise InputError(
        f"unknown target kind {target_kind!r} for {target_id!r} (generation or human_solution)", field="target_kind"
    )


def score_target(
    store: Any,
    target_kind: str,
    target_id: str,
    metrics: str | Sequence[str] | None = None,
    embedding: EmbeddingOptions | None = None,
) -> dict[str, float]:
    """Compute and save the missing values of one target (idempotent); returns ``{metric: value}`` written.

    A target without a reference or with an empty text has nothing to score and returns ``{}``.
    """
    names = parse_metrics(metrics)
    target = find_target(store, target_kind, target_id)
    task = store.get_task(target.task_id, target.corpus)
    reference = task_reference(store, target.task_id, target.corpus)
    if task is None or not reference or not target.text.strip():
        return {}
    embedding = _with_corpus(store, embedding, task.corpus)
    sigs = signatures(names, embedding)
    todo = [
        m
        for m in names
        if not any(
            v.target_id == target_id and v.signature == sigs[m]
            for v in store.metric_values(metric=m, target_kind=target_kind)
        )
    ]
    written: dict[str, float] = {}
    if not todo:
        return written
    for row in compute([target.text], [reference], todo, embedding=embedding):
        if row.signature != sigs[row.metric]:
            raise InputError(f"signature changed: {row.signature} != {sigs[row.metric]}", field=row.metric)
        store.save_metric_value(target_kind, target_id, row.metric, row.signature, row.value, row.details)
        written[row.metric] = row.value
    return written


#: Pairs of each embedding metric scored (and stored) first, timed, for the estimate printed before the rest run
SAMPLE_PAIRS = 2


@dataclass(frozen=True)
class Estimate:
    """The measured time of the embedding metrics still to score: seconds per metric (``workers`` sharing them),
    from ``sampled`` pairs per metric scored after loading the encoder."""

    seconds: dict[str, float]
    words: dict[str, int]
    sampled: dict[str, int]
    workers: int


def score_store(
    store: Any,
    metrics: str | Sequence[str] | None = None,
    corpus: str | None = None,
    systems: Sequence[str] | None = None,
    limit: int | None = None,
    include_humans: bool = True,
    embedding: EmbeddingOptions | None = None,
    batch_size: int = 64,
    on_total: Callable[[int], None] | None = None,
    on_advance: Callable[[int], None] | None = None,
    on_plan: Callable[[dict[str, int]], None] | None = None,
    workers: int = 1,
    on_estimate: Callable[[Estimate], None] | None = None,
) -> StoreRunSummary:
    """Compute the missing values and save each batch as it finishes, one transaction per batch (a rerun skips
    what is stored).

    ``on_plan(words)``, before any value is computed: metric -> candidate + reference words still to score.
    The embedding metrics run in ``workers`` processes (``_workers``; values equal to one worker's up to float32
    rounding); before their bulk, ``SAMPLE_PAIRS`` pairs of each are scored and timed, and ``on_estimate`` gets
    the time of the rest."""
    names = parse_metrics(metrics)
    signatures(names, embedding)  # dependencies and encoder checked before any work, even with nothing to do
    targets = collect_targets(store, corpus, systems, include_humans, limit)
    summary = StoreRunSummary(written=dict.fromkeys(names, 0), skipped=dict.fromkeys(names, 0))
    references: dict[tuple[str | None, str], str | None] = {}  # by task: (corpus, task id)
    corpus_of: dict[tuple[str | None, str], str] = {}
    for t in targets:
        if (t.corpus, t.task_id) not in references:
            references[(t.corpus, t.task_id)] = task_reference(store, t.task_id, t.corpus)
            task = store.get_task(t.task_id, t.corpus)
            corpus_of[(t.corpus, t.task_id)] = task.corpus if task is not None else ""
    scorable = [t for t in targets if references[(t.corpus, t.task_id)] and t.text.strip()]
    summary.no_reference = len(targets) - len(scorable)
    # one group per corpus: its references are the IDF corpus, so its signatures may differ from another's
    groups: dict[str, list[Target]] = {}
    for t in scorable:
        groups.setdefault(corpus_of[(t.corpus, t.task_id)], []).append(t)
    plan: list[tuple[str, EmbeddingOptions, str, list[Target]]] = []
    for name, group in groups.items():
        options = _with_corpus(store, embedding, name)
        sigs = signatures(names, options)
        for m in names:
            done = {(v.target_kind, v.target_id) for v in store.metric_values(metric=m) if v.signature == sigs[m]}
            todo = [t for t in group if (t.kind, t.target_id) not in done]
            summary.skipped[m] += len(group) - len(todo)
            plan.append((m, options, sigs[m], todo))

    def reference(t: Target) -> str:
        return references[(t.corpus, t.task_id)] or ""

    words: dict[str, int] = dict.fromkeys(names, 0)
    for m, _options, _sig, todo in plan:
        words[m] += pair_words([t.text for t in todo], [reference(t) for t in todo])
    if on_plan:
        on_plan(words)
    if on_total:
        on_total(sum(len(todo) for *_, todo in plan))

    def save(m: str, sig: str, batch: Sequence[Target], rows: Sequence[Any]) -> None:
        from benger.store._convert import MetricValue as StoredValue

        values: list[StoredValue] = []
        for row in rows:
            if row.signature != sig:
                raise InputError(f"signature changed during the run: {row.signature} != {sig}", field=m)
            t = batch[row.index]
            values.append(
                StoredValue(
                    target_kind=t.kind,
                    target_id=t.target_id,
                    metric=m,
                    signature=row.signature,
                    value=row.value,
                    details=row.details,
                )
            )
        store.save_metric_values(values)  # one transaction per batch (issue 26)
        summary.written[m] += len(batch)
        if on_advance:
            on_advance(len(batch))

    embedded = {k for k in names if get_metric(k).family == "embedding"}
    for m, options, sig, todo in plan:  # lexical metrics: in this process, as they always ran
        if m in embedded:
            continue
        for start in range(0, len(todo), batch_size):
            batch = todo[start : start + batch_size]
            save(m, sig, batch, compute([t.text for t in batch], [reference(t) for t in batch], [m], embedding=options))

    # embedding metrics: a timed sample of each, the estimate, then the rest, in ``workers`` processes
    jobs: list[tuple[str, str, list[Target], Batch]] = []
    sample_jobs: list[tuple[str, str, list[Target], Batch]] = []
    for m, options, sig, todo in plan:
        if m not in embedded or not todo:
            continue
        rest = todo
        if on_estimate and not any(job[0] == m for job in sample_jobs):
            head, rest = todo[:SAMPLE_PAIRS], todo[SAMPLE_PAIRS:]
            sample_jobs.append((m, sig, head, _batch(m, options, head, reference, timed=True)))
        # several workers: at least 4 batches each, so the pairs spread over all of them
        size = batch_size if workers <= 1 else max(min(batch_size, len(rest) // (4 * workers)), 1)
        for start in range(0, len(rest), size):
            part = rest[start : start + size]
            jobs.append((m, sig, part, _batch(m, options, part, reference)))
    if not jobs and not sample_jobs:
        return summary
    with BatchRunner(workers) as runner:
        if sample_jobs:
            sample: dict[str, tuple[float, int]] = {}
            for i, result in runner.run(job[3] for job in sample_jobs):
                m, sig, part, timed = sample_jobs[i]
                save(m, sig, part, result.values)
                sample[m] = (result.seconds, pair_words(timed.candidates, timed.references))
            left = {m: words[m] - sample[m][1] for m in sample}
            sampled = {job[0]: len(job[2]) for job in sample_jobs}
            if on_estimate:
                share = min(runner.workers, max(len(jobs), 1))
                on_estimate(Estimate(estimate_seconds(sample, left, share), left, sampled, share))
        for i, result in runner.run(job[3] for job in jobs):
            m, sig, part, _ = jobs[i]
            save(m, sig, part, result.values)
    return summary


def _batch(
    m: str,
    options: EmbeddingOptions,
    targets: Sequence[Target],
    reference: Callable[[Target], str],
    timed: bool = False,
) -> Batch:
    return Batch(m, options, tuple(t.text for t in targets), tuple(reference(t) for t in targets), timed)
