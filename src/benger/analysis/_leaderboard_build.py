"""The one aggregation of the leaderboard (see :mod:`benger.analysis._leaderboard` for the definition).

:func:`build` turns per-generation judge items, status counts, answers and metric means (from records or from
SQL, :mod:`benger.store._aggregate`) into rows, rankings per judge group and provenance.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar, Union

import numpy as np

from benger import __version__
from benger.analysis._leaderboard_heap import heap_frozen
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
from benger.analysis._leaderboard_sums import (
    GroupKey,
    JudgeKey,
    RowKey,
    judge_key,
    merge,
    normal_interval,
    per_generation,
    sums_from_items,
)
from benger.corpora._release import RELEASE_JUDGE_CONFIG_HASH
from benger.metrics._answers import accuracy
from benger.stats import bootstrap_mean_cis, normal_mean_ci
from benger.store._aggregate import Answer, ConfigProvenance, GenerationCount, MetricGroupMean
from benger.store._aggregate_items import ItemScore, RowSums


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _short(value: str | None) -> str | None:
    return value[:8] if value else None


# -- the one aggregation ---------------------------------------------------------------------------------
ItemSource = Union[Sequence[ItemScore], Callable[[], Sequence[ItemScore]]]  # noqa: UP007  (a runtime alias)


def _group_labels(groups: Mapping[GroupKey, RowSums]) -> dict[JudgeKey, str]:
    # the distinct (judge, corpus, configuration) first: a few per store, whatever the number of items
    per_corpus: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
    for (rk, (judge, jhash, rubric)), s in groups.items():
        if s.n:
            per_corpus[(judge, rk[2])].add((jhash, rubric))
    split = {judge for (judge, _), configs in per_corpus.items() if len(configs) > 1}
    return {
        (judge, jhash, rubric): f"{judge} [{jhash[:8]}, {rubric}]" if judge in split else judge
        for judge, jhash, rubric in {jkey for _, jkey in groups}
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


def _moved(items: Sequence[ItemScore], remap: Mapping[RowKey, RowKey]) -> list[ItemScore]:
    """The ok items, and the superseded ones that ``remap`` moves into another row (as ok items of it)."""
    kept = []
    for it in items:
        old_key = (it.system, it.config_hash, it.corpus)
        if old_key in remap:
            kept.append(it._replace(config_hash=remap[old_key][1], status="ok"))
        elif it.status == "ok":
            kept.append(it)
    return kept


def build(
    items: ItemSource,
    counts: Sequence[GenerationCount],
    answers: Sequence[Answer],
    gold: Mapping[tuple[str, str], str],
    metric_rows: Sequence[MetricGroupMean],
    *,
    sums: Sequence[RowSums] | None = None,
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
    """Assemble the leaderboard from per-generation judge items (or a function that loads them), status counts,
    answers and metric means; ``sums``: the rows' :class:`RowSums` as SQL computes them (default: from the items).

    The items are loaded only for what sums cannot give: the bootstrap, pooled judges and the normal interval
    of a near-constant row (``benger.analysis._leaderboard_sums``). ``superseded``: superseded generations per row
    key; with ``include_superseded`` a row made only of them is counted in the row of the same system name's one
    other configuration on that corpus (see the module :mod:`benger.analysis._leaderboard`). Rows are keyed by
    the system configuration, not the generation config hash (:mod:`benger.analysis._leaderboard_identity`;
    ``provenance`` gives each one's system hash)."""
    ident = identities(
        ((c.system, c.config_hash, c.corpus) for c in counts),
        {h: p.system_config_hash for h, p in provenance.items()},
    )
    generation_hash = {(s, i, c): h for (s, h, c), i in ident.items()}  # row key -> its generation config hash
    rekeyed = any(h != i for (_, h, _), i in ident.items())
    if rekeyed:
        counts, answers, metric_rows, superseded = _rekey(ident, counts, answers, metric_rows, superseded or {})
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
    loaded: list[list[ItemScore]] = []

    def load() -> list[ItemScore]:
        if not loaded:
            with heap_frozen():
                found = items() if callable(items) else items
                loaded.append(_moved(_rekey_all(ident, found) if rekeyed else list(found), remap))
        return loaded[0]

    if sums is None or pool_judges:
        sums = sums_from_items(load(), pool_judges)
        groups = merge(sums, {}, pool_judges)
    else:
        groups = merge(_rekey_all(ident, sums) if rekeyed else sums, remap, pool_judges)
    answered: dict[RowKey, list[tuple[str | None, str]]] = defaultdict(list)
    for a in answers:
        if (a.corpus, a.task_id) in gold:
            answered[(a.system, a.config_hash, a.corpus)].append(
                (a.answer if a.status == "ok" else None, gold[(a.corpus, a.task_id)])
            )
    metric_by_row: dict[RowKey, dict[str, MetricMean]] = defaultdict(dict)
    for m in metric_rows:
        metric_by_row[(m.system, m.config_hash, m.corpus)][m.metric] = MetricMean(mean=m.mean, n=m.n)

    labels = _group_labels(groups)
    intervals: dict[GroupKey, tuple[Any, Any]] = {}
    if ci == "normal":
        for key, s in groups.items():
            if (interval := normal_interval(s, confidence)) is not None:
                intervals[key] = interval
    pending = [key for key in groups if key not in intervals]
    by_group: dict[GroupKey, list[ItemScore]] = defaultdict(list)
    if pending or pool_judges:
        for it in load():
            by_group[((it.system, it.config_hash, it.corpus), judge_key(it, pool_judges))].append(it)
        scores = [per_generation([it for it in by_group[key] if it.n_scored])[0] for key in pending]
        intervals.update(zip(pending, _cis(scores, ci, confidence, n_resamples, seed), strict=True))
    keys: list[tuple[RowKey, JudgeKey | None]] = [*groups]
    judged_rows = {rk for rk, _ in groups}
    keys += [(rk, None) for rk in status if rk not in judged_rows]
    empty = RowSums("", "", "", "", "", "", "ok", 0, 0.0, 0.0, 0, 0, 0, 0, 0.0, 0, 0.0)
    raw: list[dict[str, Any]] = []
    for rk, jkey in keys:
        system, config_hash, corpus = rk
        s = groups[(rk, jkey)] if jkey is not None else empty
        low, high = intervals.get((rk, jkey), (None, None)) if jkey is not None else (None, None)
        source_hash = generation_hash.get(rk, config_hash)
        origin = provenance.get(source_hash)
        cell = status.get(rk, {})
        pairs = answered.get(rk, [])
        if jkey is None:
            group, judge, jhash, rubric = NOT_RANKED, None, None, None
        elif pool_judges:
            scored = [i for i in by_group[(rk, jkey)] if i.n_scored]
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
                # the paper's numbers: a released system judged by the released judgements (the user's own
                # judge scoring a released generation, e.g. a validation pick, makes no reference row)
                "reference": origin is not None
                and origin.source == "release"
                and jhash in (None, RELEASE_JUDGE_CONFIG_HASH),
                "corpus": corpus,
                "n": s.n,
                "repeats": s.repeats / s.items if s.items else None,
                "mean": s.total / s.n if s.n else None,
                "ci_low": low,
                "ci_high": high,
                "mean_grade_points": s.gp / s.gp_n if s.gp_n else None,
                "pass_rate": s.passed / s.pass_n if s.pass_n else None,
                # undefined, not 0, when nothing was answered (every call failed): a number from no answer
                "accuracy": accuracy([p for p, _ in pairs], [g for _, g in pairs])  # type: ignore[misc]
                if any(p is not None for p, _ in pairs)
                else None,
                "answered": sum(1 for p, _ in pairs if p is not None),
                "answer_items": len(pairs),
                "generations": sum(v for k, v in cell.items() if k != "truncated"),
                "excluded": cell.get("excluded", 0),
                "failed": cell.get("failed", 0),
                "truncated": cell.get("truncated", 0),
                "unscored": s.unscored,
                "unjudged": cell.get("ok", 0) - s.n,
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


_Keyed = TypeVar("_Keyed", ItemScore, RowSums, GenerationCount, Answer, MetricGroupMean)


def _rekey_all(ident: Mapping[RowKey, str], rows: Iterable[_Keyed]) -> list[_Keyed]:
    """``rows`` with each generation config hash replaced by its row's identity hash (``ident``)."""
    return [r._replace(config_hash=ident.get((r.system, r.config_hash, r.corpus), r.config_hash)) for r in rows]


def _rekey(
    ident: Mapping[RowKey, str],
    counts: Sequence[GenerationCount],
    answers: Sequence[Answer],
    metric_rows: Sequence[MetricGroupMean],
    superseded: Mapping[RowKey, int],
) -> tuple[list[GenerationCount], list[Answer], list[MetricGroupMean], dict[RowKey, int]]:
    """The inputs keyed by their rows' identity hashes (``ident``)."""
    moved = {(s, ident.get((s, h, c), h), c): n for (s, h, c), n in superseded.items()}
    return _rekey_all(ident, counts), _rekey_all(ident, answers), _rekey_all(ident, metric_rows), moved


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
