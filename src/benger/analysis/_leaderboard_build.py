"""The one aggregation of the leaderboard (see :mod:`benger.analysis._leaderboard` for the definition).

:func:`build` turns per-generation judge items, status counts, answers and metric means (from records or from
SQL, :mod:`benger.store._aggregate`) into rows, rankings per judge group and provenance.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from benger import __version__
from benger.analysis._leaderboard_identity import identities
from benger.analysis._leaderboard_metrics import MetricMean
from benger.analysis._leaderboard_model import (
    NOT_RANKED,
    POOLED,
    RAW_SCALE,
    CiKind,
    Leaderboard,
    LeaderboardRow,
    SystemRank,
)
from benger.metrics._answers import accuracy
from benger.stats import bootstrap_mean_cis, normal_mean_ci
from benger.store._aggregate import Answer, ConfigProvenance, GenerationCount, ItemScore, MetricGroupMean


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _short(value: str | None) -> str | None:
    return value[:8] if value else None


# -- the one aggregation ---------------------------------------------------------------------------------
JudgeKey = tuple[str, str, str]  # judge name, judge config hash, rubric id
RowKey = tuple[str, str, str]  # system, config hash (the row's identity), corpus


def _group_labels(items: Sequence[ItemScore]) -> dict[JudgeKey, str]:
    # the distinct (judge, corpus, configuration) first: a few per store, whatever the number of items
    scored = {(it.judge, it.corpus, it.judge_config_hash, it.rubric) for it in items if it.n_scored}
    per_corpus: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    for judge, corpus, jhash, rubric in scored:
        per_corpus[(judge, corpus)].add((jhash, rubric))
    split = {judge for (judge, _), configs in per_corpus.items() if len(configs) > 1}
    return {
        (judge, jhash, rubric): f"{judge} [{jhash[:8]}, {rubric}]" if judge in split else judge
        for judge, jhash, rubric in {(it.judge, it.judge_config_hash, it.rubric) for it in items}
    }


def _cis(
    rows: Sequence[list[float]], ci: CiKind, confidence: float, n_resamples: int, seed: int
) -> list[tuple[Any, Any]]:
    """The CI ends per row (``None`` for n < 2). The bootstrap rows share one seed, so rows of one size share
    their resample indices (``bootstrap_mean_cis``: the same numbers as one ``bootstrap_mean_ci`` per row)."""
    out: list[tuple[Any, Any]] = [(None, None)] * len(rows)
    wanted = [k for k, scores in enumerate(rows) if len(scores) >= 2]
    values = [np.asarray(rows[k], dtype=float) for k in wanted]  # arrays skip the per-value missing check
    if ci == "bootstrap":
        intervals = bootstrap_mean_cis(values, confidence=confidence, n_resamples=n_resamples, seed=seed)
    else:
        intervals = [normal_mean_ci(v, confidence=confidence, bounds=RAW_SCALE) for v in values]
    for k, interval in zip(wanted, intervals, strict=True):
        out[k] = (interval.low, interval.high)
    return out


def build(
    items: Sequence[ItemScore],
    counts: Sequence[GenerationCount],
    answers: Sequence[Answer],
    gold: Mapping[str, str],
    metric_rows: Sequence[MetricGroupMean],
    *,
    tiers: Mapping[str, str | None],
    provenance: Mapping[str, ConfigProvenance],
    displays: Mapping[str, str] | None = None,
    signatures: Mapping[str, str],
    ci: CiKind = "bootstrap",
    seed: int = 0,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    pool_judges: bool = False,
    superseded: Mapping[RowKey, int] | None = None,
    include_superseded: bool = True,
) -> Leaderboard:
    """Assemble the leaderboard from per-generation judge items, status counts, answers and metric means.

    ``superseded``: superseded generations per row key; with ``include_superseded`` a row made only of them is
    counted in the row of the same system name's one other configuration on that corpus (see the module
    :mod:`benger.analysis._leaderboard`). Rows are keyed by the system configuration, not the generation config
    hash (:mod:`benger.analysis._leaderboard_identity`; ``provenance`` gives each one's system hash)."""
    ident = identities(
        ((c.system, c.config_hash, c.corpus) for c in counts),
        {h: p.system_config_hash for h, p in provenance.items()},
    )
    generation_hash = {(s, i, c): h for (s, h, c), i in ident.items()}  # row key -> its generation config hash
    if any(h != i for (_, h, _), i in ident.items()):
        items, counts, answers, metric_rows, superseded = _rekey(
            ident, items, counts, answers, metric_rows, superseded or {}
        )
    status: dict[RowKey, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for c in counts:
        cell = status[(c.system, c.config_hash, c.corpus)]
        cell[c.status] += c.n
        cell["truncated"] += c.truncated
    remap = _superseded_remap(status, superseded or {}) if include_superseded else {}
    superseded_in: dict[RowKey, int] = defaultdict(int)
    for old, new in remap.items():
        cell = status.pop(old)
        n_old = (superseded or {})[old]
        status[new]["ok"] += n_old
        status[new]["truncated"] += cell.get("truncated", 0)
        superseded_in[new] += n_old
    kept = []
    for it in items:
        old_key = (it.system, it.config_hash, it.corpus)
        if old_key in remap:
            kept.append(it._replace(config_hash=remap[old_key][1], status="ok"))
        elif it.status == "ok":
            kept.append(it)
    items = kept
    answered: dict[RowKey, list[tuple[str | None, str]]] = defaultdict(list)
    for a in answers:
        if a.task_id in gold:
            answered[(a.system, a.config_hash, a.corpus)].append(
                (a.answer if a.status == "ok" else None, gold[a.task_id])
            )
    metric_by_row: dict[RowKey, dict[str, MetricMean]] = defaultdict(dict)
    for m in metric_rows:
        metric_by_row[(m.system, m.config_hash, m.corpus)][m.metric] = MetricMean(mean=m.mean, n=m.n)

    labels = _group_labels(items)
    grouped: dict[tuple[RowKey, JudgeKey | None], list[ItemScore]] = defaultdict(list)
    for it in items:
        key: JudgeKey = (POOLED, "", "") if pool_judges else (it.judge, it.judge_config_hash, it.rubric)
        grouped[((it.system, it.config_hash, it.corpus), key)].append(it)
    judged_rows = {rk for rk, _ in grouped}
    for rk in status:
        if rk not in judged_rows:
            grouped.setdefault((rk, None), [])

    per_row = {key: _per_generation([it for it in its if it.n_scored]) for key, its in grouped.items()}
    intervals = _cis([v[0] for v in per_row.values()], ci, confidence, n_resamples, seed)
    raw: list[dict[str, Any]] = []
    for ((rk, jkey), its), (low, high) in zip(grouped.items(), intervals, strict=True):
        scored = [it for it in its if it.n_scored]
        system, config_hash, corpus = rk
        source_hash = generation_hash.get(rk, config_hash)
        origin = provenance.get(source_hash)
        scores, points, passes = per_row[(rk, jkey)]
        cell = status.get(rk, {})
        pairs = answered.get(rk, [])
        if jkey is None:
            group, judge, jhash, rubric = NOT_RANKED, None, None, None
        elif pool_judges:
            group, judge, jhash = POOLED, ", ".join(sorted({i.judge for i in scored})), None
            rubric = ", ".join(sorted({i.rubric for i in scored}))
        else:
            group, judge, jhash, rubric = labels[jkey], jkey[0], jkey[1], jkey[2]
        raw.append(
            {
                "group": group,
                "system": system,
                "config_id": config_hash[:8],
                "config_hash": config_hash,
                "tier": tiers.get(system),
                "judge": judge,
                "judge_config_id": _short(jhash),
                "judge_config_hash": jhash,
                "rubric": rubric,
                "prompt_hash": origin.prompt_hash if origin else None,
                "generation_config_hash": source_hash,
                "display": (displays or {}).get(system),
                "reference": origin is not None and origin.source == "release",
                "corpus": corpus,
                "n": len(scores),
                "repeats": _mean([float(i.n_scored) for i in scored]),
                "mean": _mean(scores),
                "ci_low": low,
                "ci_high": high,
                "mean_grade_points": _mean(points),
                "pass_rate": _mean(passes),
                "accuracy": accuracy([p for p, _ in pairs], [g for _, g in pairs]) if pairs else None,  # type: ignore[misc]
                "answered": sum(1 for p, _ in pairs if p is not None),
                "answer_items": len(pairs),
                "generations": sum(v for k, v in cell.items() if k != "truncated"),
                "excluded": cell.get("excluded", 0),
                "failed": cell.get("failed", 0),
                "truncated": cell.get("truncated", 0),
                "unscored": sum(i.n_unscored for i in its),
                "unjudged": cell.get("ok", 0) - len(scores),
                "superseded": superseded_in.get(rk, 0),
                "metrics": dict(sorted(metric_by_row.get(rk, {}).items())),
            }
        )
    _mark_comparable(raw, pool_judges)
    ranking = _rank(raw)
    place = {(r.group, r.system, r.config_hash): r.rank for r in ranking}
    group_order = sorted({r["group"] for r in raw}, key=lambda g: (g == NOT_RANKED, g))
    rows = [LeaderboardRow(rank=place.get((r["group"], r["system"], r["config_hash"])), **r) for r in raw]
    rows.sort(key=lambda r: (group_order.index(r.group), r.rank or 10**9, r.system, r.config_hash, r.corpus))
    return Leaderboard(
        rows=rows,
        ranking=ranking,
        ci=ci,
        ci_method=_ci_method(ci, confidence, n_resamples, seed),
        seed=seed,
        n_resamples=n_resamples,
        confidence=confidence,
        pooled_judges=pool_judges,
        superseded="included" if include_superseded else "excluded",
        metric_signatures=dict(sorted(signatures.items())),
        benger_version=__version__,
    )


def _mark_comparable(raw: list[dict[str, Any]], pooled: bool) -> None:
    """Issue 13: rows from the release are the paper's reference rows; every other row says whether it was
    judged by the same judge configuration and rubric as they were (only then is it ranked among them)."""
    ref_groups = {r["group"] for r in raw if r["reference"] and r["group"] != NOT_RANKED}
    if not ref_groups:
        return
    ref_judges = sorted(
        {f"{r['judge']} [{r['judge_config_id']}, {r['rubric']}]" for r in raw if r["reference"] and r["judge"]}
    )
    for r in raw:
        if r["reference"]:
            r["comparable"] = "paper reference"
        elif r["group"] == NOT_RANKED:
            r["comparable"] = "not judged"
        elif pooled:
            r["comparable"] = "not comparable: judges pooled"
        elif r["group"] in ref_groups:
            prompts = f"benger prompt set {r['prompt_hash'][:8]}" if r["prompt_hash"] else "prompt set unknown"
            r["comparable"] = f"comparable: the paper's judge configuration and rubric; {prompts}"
        else:
            judge = f"{r['judge']} [{r['judge_config_id']}, {r['rubric']}]"
            r["comparable"] = f"not comparable: judged by {judge}; the paper's rows by {', '.join(ref_judges)}"


def _rekey(
    ident: Mapping[RowKey, str],
    items: Sequence[ItemScore],
    counts: Sequence[GenerationCount],
    answers: Sequence[Answer],
    metric_rows: Sequence[MetricGroupMean],
    superseded: Mapping[RowKey, int],
) -> tuple[list[ItemScore], list[GenerationCount], list[Answer], list[MetricGroupMean], dict[RowKey, int]]:
    """The inputs with each generation config hash replaced by its row's identity hash (``ident``)."""

    def key(system: str, config_hash: str, corpus: str) -> str:
        return ident.get((system, config_hash, corpus), config_hash)

    return (
        [it._replace(config_hash=key(it.system, it.config_hash, it.corpus)) for it in items],
        [c._replace(config_hash=key(c.system, c.config_hash, c.corpus)) for c in counts],
        [a._replace(config_hash=key(a.system, a.config_hash, a.corpus)) for a in answers],
        [m._replace(config_hash=key(m.system, m.config_hash, m.corpus)) for m in metric_rows],
        {(s, key(s, h, c), c): n for (s, h, c), n in superseded.items()},
    )


def _superseded_remap(
    status: Mapping[RowKey, Mapping[str, int]], superseded: Mapping[RowKey, int]
) -> dict[RowKey, RowKey]:
    """Rows made only of superseded generations -> the one other configuration of that name on that corpus."""
    remap: dict[RowKey, RowKey] = {}
    for rk, n in superseded.items():
        cell = status.get(rk)
        if not cell or n != sum(v for k, v in cell.items() if k != "truncated"):
            continue
        others = [
            k
            for k, c in status.items()
            if k[0] == rk[0] and k[2] == rk[2] and k != rk and c.get("ok") and k not in superseded
        ]
        if len(others) == 1:
            remap[rk] = others[0]
    return remap


def _ci_method(ci: CiKind, confidence: float, n_resamples: int, seed: int) -> str:
    level = f"{100 * confidence:g}%"
    if ci == "bootstrap":
        return f"{level} percentile bootstrap (B = {n_resamples}, seed {seed}); undefined (–) for n < 2"
    return f"{level} normal interval mean ± z·sd/√n, ends clipped to 0–100; undefined (–) for n < 2"


def _rank(rows: Sequence[dict[str, Any]]) -> list[SystemRank]:
    per: dict[tuple[str, str, str], dict[str, float | None]] = defaultdict(dict)
    tiers: dict[tuple[str, str, str], str | None] = {}
    for row in rows:
        if row["group"] == NOT_RANKED:
            continue
        key = (row["group"], row["system"], row["config_hash"])
        per[key][row["corpus"]] = row["mean"]
        tiers[key] = row["tier"]
    overall = {k: _mean([m for m in c.values() if m is not None]) for k, c in per.items()}
    out: list[SystemRank] = []
    for group in sorted({k[0] for k in per}):
        keys = sorted((k for k in per if k[0] == group), key=lambda k: (overall[k] is None, -(overall[k] or 0.0), k))
        ranks = _competition_ranks([overall[k] for k in keys])
        out += [
            SystemRank(
                rank=ranks[i],
                group=group,
                system=k[1],
                config_id=k[2][:8],
                config_hash=k[2],
                tier=tiers[k],
                overall=overall[k],
                corpora=dict(sorted(per[k].items())),
            )
            for i, k in enumerate(keys)
        ]
    return out


def _competition_ranks(ordered: Sequence[float | None]) -> list[int]:
    """Standard competition ranks ("1, 1, 3") of values already sorted best first: equal values (to 1e-9, so
    that two means of the same numbers summed in another order tie) and the undefined ones share a rank."""
    ranks: list[int] = []
    for i, value in enumerate(ordered):
        prev = ordered[i - 1] if i else None
        same = i > 0 and (
            (value is None and prev is None)
            or (value is not None and prev is not None and math.isclose(value, prev, rel_tol=0.0, abs_tol=1e-9))
        )
        ranks.append(ranks[-1] if same else i + 1)
    return ranks


def _per_generation(scored: Sequence[ItemScore]) -> tuple[list[float], list[float], list[float]]:
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
    points = [
        v
        for its in per_gen.values()
        if (v := _mean([i.grade_points for i in its if i.grade_points is not None])) is not None
    ]
    passes = [
        v for its in per_gen.values() if (v := _mean([i.passed for i in its if i.passed is not None])) is not None
    ]
    return scores, points, passes
