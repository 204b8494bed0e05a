"""The leaderboard's per-row sums (:class:`benger.store._aggregate_items.RowSums`) and the statistics from them.

A row's mean, grade points, pass rate, repeats and normal interval need only sums over its generations, which SQL
computes (``row_sums``) and :func:`sums_from_items` computes the same way from per-generation items (the
records path, the bootstrap and pooled judges). Only the bootstrap needs the per-generation scores themselves
(:func:`per_generation`), and the normal interval of a row whose spread is too small for the sums
(:func:`normal_interval` returns None for it: the caller takes the scores).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from benger.analysis.leaderboard.model import POOLED, RAW_SCALE
from benger.stats import MIN_INTERVAL_N, normal_ci_from_summary
from benger.store._aggregate_items import SQUARES_SHIFT, ItemScore, RowSums

JudgeKey = tuple[str, str, str]  # judge name, judge config hash, rubric id (POOLED, "", "" when pooled)
RowKey = tuple[str, str, str]  # system, config hash (the row's identity), corpus
GroupKey = tuple[RowKey, JudgeKey]

#: A row's sum of squared deviations below this share of its shifted sum of squares has lost too many digits
#: to cancellation (a near-constant row): its interval is computed from its scores instead.
CANCELLATION_LIMIT = 1e-6


def judge_key(it: ItemScore | RowSums, pool_judges: bool) -> JudgeKey:
    return (POOLED, "", "") if pool_judges else (it.judge, it.judge_config_hash, it.rubric)


def per_generation(scored: Sequence[ItemScore]) -> tuple[list[float], list[float], list[float]]:
    """Scores, grade points and passes per generation (generation-id order): a generation's value is the mean
    over its items, one per judge configuration (several only when judges are pooled); generations without a
    grade-point or pass value are left out of those two lists."""
    ordered = sorted(scored, key=lambda i: i.generation_id)
    if len({i.generation_id for i in ordered}) == len(ordered):
        return (
            [float(i.total or 0.0) for i in ordered],
            [i.grade_points for i in ordered if i.grade_points is not None],
            [i.passed for i in ordered if i.passed is not None],
        )
    per_gen: dict[str, list[ItemScore]] = defaultdict(list)
    for it in ordered:
        per_gen[it.generation_id].append(it)
    scores = [math.fsum(float(i.total or 0.0) for i in its) / len(its) for its in per_gen.values()]
    points = [v for its in per_gen.values() if (v := _mean([i.grade_points for i in its if i.grade_points is not None]))
              is not None]  # fmt: skip
    passes = [v for its in per_gen.values() if (v := _mean([i.passed for i in its if i.passed is not None]))
              is not None]  # fmt: skip
    return scores, points, passes


def unit_scores(scored: Sequence[ItemScore], unit: str) -> list[float]:
    """The values a row's interval is computed from: per generation (``unit="generation"``, the paper's rule, or
    a row without repetitions), else per task the mean over its generations' scores (a task's repetitions and
    judge repeats are nested in it: 4 identical repetitions give the interval of 1), in the order of each task's
    first generation id."""
    scores = per_generation(scored)[0]
    ordered = sorted(scored, key=lambda i: i.generation_id)
    generations = list(dict.fromkeys(i.generation_id for i in ordered))
    task_of = {i.generation_id: i.task_id for i in ordered}
    if unit == "generation" or len(set(task_of.values())) == len(generations):
        return scores
    per_task: dict[str, list[float]] = defaultdict(list)
    for gid, score in zip(generations, scores, strict=True):
        per_task[task_of[gid]].append(score)
    return [math.fsum(v) / len(v) for v in per_task.values()]


def pooled_counts(groups: Iterable[Sequence[ItemScore]]) -> dict[str, int]:
    """Per judge configuration of pooled ``groups`` (the items of each pooled row): the generations it scored,
    most first; labelled by the judge's name, ``name [config id]`` where a name has two configurations
    (``Leaderboard.pooled``)."""
    scored: dict[tuple[str, str], set[tuple[str, str, str, str]]] = defaultdict(set)
    for items in groups:
        for it in items:
            if it.n_scored:
                scored[(it.judge, it.judge_config_hash)].add((it.system, it.config_hash, it.corpus, it.generation_id))
    configs: dict[str, int] = defaultdict(int)
    for judge, _ in scored:
        configs[judge] += 1
    label = {(j, h): f"{j} [{h[:8]}]" if configs[j] > 1 else j for j, h in scored}
    return {label[k]: len(v) for k, v in sorted(scored.items(), key=lambda kv: (-len(kv[1]), label[kv[0]]))}


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def sums_from_items(items: Iterable[ItemScore], pool_judges: bool) -> list[RowSums]:
    """:class:`RowSums` per row key, judge key (``judge_key``) and generation status, from per-generation items."""
    grouped: dict[tuple[str, str, str, str, str, str, str], list[ItemScore]] = defaultdict(list)
    for it in items:
        grouped[(it.system, it.config_hash, it.corpus, *judge_key(it, pool_judges), it.status)].append(it)
    out = []
    for key, its in grouped.items():
        scored = [it for it in its if it.n_scored]
        scores, points, passes = per_generation(scored)
        out.append(
            RowSums(
                *key,
                len(scores),
                math.fsum(scores),
                math.fsum((s - SQUARES_SHIFT) ** 2 for s in scores),
                len(scored),
                sum(it.n_scored for it in scored),
                sum(it.n_unscored for it in its),
                len(points),
                math.fsum(points),
                len(passes),
                math.fsum(passes),
                len({it.task_id for it in scored}),
            )
        )
    return out


def merge(sums: Iterable[RowSums], remap: Mapping[RowKey, RowKey], pool_judges: bool) -> dict[GroupKey, RowSums]:
    """The sums per row and judge key: ok generations, plus the superseded rows that ``remap`` moves into
    another row (their sums added to it); other non-ok groups are dropped."""
    out: dict[GroupKey, RowSums] = {}
    for s in sums:
        rk = (s.system, s.config_hash, s.corpus)
        if rk in remap:
            rk = remap[rk]
        elif s.status != "ok":
            continue
        key = (rk, judge_key(s, pool_judges))
        found = out.get(key)
        if found is None:
            out[key] = s._replace(system=rk[0], config_hash=rk[1], corpus=rk[2], status="ok")
        else:
            added = [a + b for a, b in zip(found[7:-1], s[7:-1], strict=True)]
            # two groups may share tasks (superseded generations of the same cases): distinct tasks unknown (0)
            out[key] = RowSums(*found[:7], *added, 0)  # type: ignore[arg-type, call-arg]
    return out


def normal_interval(s: RowSums, confidence: float) -> tuple[float | None, float | None] | None:
    """The normal interval of a row from its sums (``normal_ci_from_summary``: mean ± z·sd/√n, clipped to 0-100;
    ends None for n < 3); None when cancellation leaves the sums too few digits (take the scores instead)."""
    if s.n < MIN_INTERVAL_N:
        return None, None
    if s.tasks != s.n:  # repetitions (or unknown tasks): the interval is over task means, from the items
        return None
    mean = s.total / s.n
    deviation = mean - SQUARES_SHIFT
    spread = s.squares - s.n * deviation * deviation  # sum of squared deviations from the mean
    if spread <= CANCELLATION_LIMIT * s.squares:
        return None
    interval = normal_ci_from_summary(mean, math.sqrt(spread / (s.n - 1)), s.n, confidence=confidence, bounds=RAW_SCALE)
    return interval.low, interval.high
