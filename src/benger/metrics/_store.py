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


#: Rough throughput of the embedding metrics with the default encoder on one core of the 2-core development machine
#: (candidate + reference words per second; docs/metrics.md "Performance": semantic similarity 1,200 words/s,
#: BERTScore 160 and MoverScore 200 with MiniLM-L6, which has half the layers of the default multilingual-e5-small).
#: Only for the estimate printed before a run; the progress bar's remaining time takes over once it runs.
WORDS_PER_SECOND = {"semantic_similarity": 1200.0, "bertscore": 80.0, "moverscore": 100.0}


def estimate_seconds(words: dict[str, int]) -> dict[str, float]:
    """Seconds per embedding metric for ``words`` (metric -> candidate + reference words still to score)."""
    return {m: n / WORDS_PER_SECOND[m] for m, n in words.items() if m in WORDS_PER_SECOND and n}


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
) -> StoreRunSummary:
    """Compute the missing values and save each batch as it finishes (a rerun skips what is stored).

    ``on_plan(words)``, before any value is computed: metric -> candidate + reference words still to score
    (what :func:`estimate_seconds` turns into a time)."""
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
    if on_plan:
        words: dict[str, int] = dict.fromkeys(names, 0)
        for m, _options, _sig, todo in plan:
            words[m] += sum(len(t.text.split()) + len((references[(t.corpus, t.task_id)] or "").split()) for t in todo)
        on_plan(words)
    if on_total:
        on_total(sum(len(todo) for *_, todo in plan))
    from benger.store._convert import MetricValue as StoredValue

    for m, options, sig, todo in plan:
        for start in range(0, len(todo), batch_size):
            batch = todo[start : start + batch_size]
            refs = [references[(t.corpus, t.task_id)] or "" for t in batch]
            rows = compute([t.text for t in batch], refs, [m], embedding=options)
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
    return summary
