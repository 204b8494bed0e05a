"""The leaderboard from records (generations, judgements, tasks in memory): the reference path of
:func:`benger.analysis.leaderboard.leaderboard`; :mod:`benger.analysis.leaderboard.store` computes the same
numbers in SQL. The definition is in :mod:`benger.analysis.leaderboard`."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from benger.analysis.leaderboard.build import BoardInputs, build
from benger.analysis.leaderboard.context import LeaderboardContext
from benger.analysis.leaderboard.counts import own_rubric_counts
from benger.analysis.leaderboard.identity import display_names
from benger.analysis.leaderboard.metrics import MetricRecord, choose_signatures, resolve_signatures
from benger.analysis.leaderboard.model import Leaderboard
from benger.analysis.leaderboard.scales import with_scales
from benger.schema import FalloesungTask, Generation, Judgement, PrincipleItem, SystemConfig
from benger.store._aggregate import Answer, ConfigProvenance, GenerationCount, MetricGroupMean
from benger.store._aggregate_items import ItemScore, validation_only_of
from benger.store._validations import JudgeValidation


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _short(value: str | None) -> str | None:
    return value[:8] if value else None


# -- inputs from records (the reference path) ----------------------------------------------------------
def _is_superseded(g: Generation) -> bool:
    """The rule of ``benger.store._aggregate.SUPERSEDED_REASON``: excluded with a reason "superseded..."."""
    return g.status == "excluded" and (g.reason or "").startswith("superseded")


def _items_from_records(
    generations: Sequence[Generation],
    judgements: Iterable[Judgement],
    corpus_of: Mapping[str, str],
    judges: Sequence[str] | None,
    include_superseded: bool,
    leave_out: Collection[tuple[str, str, str]] = (),
) -> list[ItemScore]:
    ok = {
        g.generation_id: g
        for g in generations
        if (g.status == "ok" or (include_superseded and _is_superseded(g))) and g.task_id in corpus_of
    }
    by_key: dict[tuple[str, str, str, str], list[Judgement]] = defaultdict(list)
    for j in judgements:
        if j.target_kind != "generation" or (j.judge, j.judge_config_hash, j.rubric_id) in leave_out:
            continue
        if j.target_id in ok and (judges is None or j.judge in judges):
            by_key[(j.target_id, j.judge, j.judge_config_hash, j.rubric_id)].append(j)
    items = []
    for (gid, judge, jhash, rubric), js in by_key.items():
        g = ok[gid]
        scored = [j for j in js if j.status == "scored" and j.total is not None]
        gp = [float(j.grade_points) for j in scored if j.grade_points is not None]
        ps = [1.0 if j.passed else 0.0 for j in scored if j.passed is not None]
        items.append(
            ItemScore(
                g.system,
                g.config_hash,
                corpus_of[g.task_id],
                gid,
                judge,
                jhash,
                rubric,
                len(scored),
                sum(1 for j in js if j.status == "unscored"),
                _mean([float(j.total) for j in scored if j.total is not None]),
                _mean(gp),
                _mean(ps),
                g.status,
                g.task_id,
            )
        )
    return items


def validation_only(
    judgements: Iterable[Judgement], reviewed: Collection[str], corpus_of: Mapping[str, str] | None = None
) -> set[tuple[str, str, str]]:
    """The validation-only judge configurations (judge, judge config hash, rubric id) among ``judgements``:
    ``reviewed`` the ids of the reviewed generations, ``corpus_of`` generation id -> its corpus (None: one
    corpus). The rule is :func:`benger.store._aggregate_items.validation_only_of`, as on the store path."""
    judged: dict[tuple[tuple[str, str, str], str], bool] = {}  # (configuration, corpus) -> judged an unreviewed one
    for j in judgements:
        if j.target_kind == "generation":
            key = ((j.judge, j.judge_config_hash, j.rubric_id), (corpus_of or {}).get(j.target_id, ""))
            judged[key] = judged.get(key, False) or j.target_id not in reviewed
    return validation_only_of(judged)


def _counts_from_records(generations: Sequence[Generation], corpus_of: Mapping[str, str]) -> list[GenerationCount]:
    counts: dict[tuple[str, str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    for g in generations:
        if g.task_id in corpus_of:
            cell = counts[(g.system, g.config_hash, corpus_of[g.task_id], g.status)]
            cell[0] += 1
            cell[1] += int(g.truncated)
    return [GenerationCount(*k, n, t) for k, (n, t) in sorted(counts.items())]


def leaderboard(
    generations: Sequence[Generation],
    judgements: Sequence[Judgement],
    tasks: Mapping[str, FalloesungTask | PrincipleItem],
    context: LeaderboardContext | None = None,
    *,
    systems: Mapping[str, SystemConfig] | None = None,
    metric_values: Sequence[MetricRecord] | None = None,
    validations: Sequence[JudgeValidation] = (),
    reviewed: Collection[str] = (),
    **options: Any,
) -> Leaderboard:
    """The leaderboard from records (``tasks``: task id -> task; ``systems``: name -> config, for the tier).

    ``context`` (or the flat ``options`` of :meth:`LeaderboardContext.of`: ``ci``, ``seed``, ``n_resamples``,
    ``confidence``, ``unit``, ``judges``, ``rubrics``, ``metric_signatures``, ``pool_judges``,
    ``include_superseded``) sets the scope and the CI; ``metric_values`` add per-row metric means under one
    signature per metric (default: each metric's most frequent signature); ``validations``: judge validations, for
    each row's judge status; ``reviewed``: the ids of the generations with a human review (a judge configuration
    that judged only these makes no rows: :func:`validation_only`). The store path :func:`leaderboard_from_store`
    computes the same numbers in SQL.
    """
    ctx = LeaderboardContext.of(context, **options)
    judges = ctx.judges
    corpus_of = {tid: t.corpus for tid, t in tasks.items()}
    gold = {(t.corpus, tid): t.gold_answer for tid, t in tasks.items() if isinstance(t, PrincipleItem)}
    answers = [
        Answer(g.system, g.config_hash, corpus_of[g.task_id], g.task_id, g.status, g.answer)
        for g in sorted(generations, key=lambda g: g.generation_id)
        if (corpus_of.get(g.task_id), g.task_id) in gold
    ]
    values = [v for v in metric_values or [] if v.target_kind == "generation"]
    stored: dict[str, set[str]] = defaultdict(set)
    for v in values:
        stored[v.metric].add(v.signature)
    signatures = resolve_signatures(choose_signatures(values), ctx.metric_signatures, stored)
    ok = {g.generation_id: g for g in generations if g.status == "ok" and g.task_id in corpus_of}
    sums: dict[tuple[str, str, str, str], list[float]] = defaultdict(list)
    for v in values:
        g = ok.get(v.target_id)
        if g is not None and signatures.get(v.metric) == v.signature:
            sums[(g.system, g.config_hash, corpus_of[g.task_id], v.metric)].append(v.value)
    means = [MetricGroupMean(*k, math.fsum(xs) / len(xs), len(xs)) for k, xs in sorted(sums.items())]
    prompts: dict[str, ConfigProvenance] = {}
    for g in sorted(generations, key=lambda g: g.generation_id):
        prompts.setdefault(g.config_hash, ConfigProvenance.of(g.meta))
    superseded: dict[tuple[str, str, str], int] = defaultdict(int)
    for g in generations:
        if g.task_id in corpus_of and _is_superseded(g):
            superseded[(g.system, g.config_hash, corpus_of[g.task_id])] += 1
    corpus_of_generation = {g.generation_id: corpus_of.get(g.task_id, "") for g in generations}
    left_out = ctx.left_out(validation_only(judgements, set(reviewed), corpus_of_generation))
    inputs = BoardInputs(
        items=_items_from_records(
            generations,
            judgements,
            corpus_of,
            judges,
            ctx.include_superseded,
            left_out,
        ),
        counts=_counts_from_records(generations, corpus_of),
        answers=answers,
        gold=gold,
        metric_rows=means,
        tiers={name: s.tier for name, s in (systems or {}).items()},
        provenance=prompts,
        displays=display_names(systems.values() if systems else []),
        signatures=signatures,
        superseded=superseded,
        validations=validations,
        left_out=left_out,
        own_rubric=own_rubric_counts(
            (g.system, g.config_hash, corpus_of[g.task_id], g.status, 1, tasks[g.task_id].rubric)
            for g in generations
            if g.task_id in corpus_of
            and tasks[g.task_id].rubric is not None
            and (g.status == "failed" or (g.status == "excluded" and not _is_superseded(g)))
        ),
    )
    return with_scales(build(inputs, ctx), tasks=tasks.values())
