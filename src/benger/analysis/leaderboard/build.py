"""The one aggregation of the leaderboard (see :mod:`benger.analysis.leaderboard` for the definition).

:func:`build` turns :class:`BoardInputs` (per-generation judge items, status counts, answers and metric means,
from records or from SQL, :mod:`benger.store._aggregate`) and a :class:`LeaderboardContext` into rows, rankings
per judge group and provenance.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, Union

from benger import __version__
from benger.analysis.leaderboard.context import LeaderboardContext
from benger.analysis.leaderboard.counts import (
    OwnRubricCounts,
    judged_by_config,
    main_rubric_groups,
    own_rubric_moves,
    row_counts,
)
from benger.analysis.leaderboard.heap import heap_frozen
from benger.analysis.leaderboard.identity import identities
from benger.analysis.leaderboard.intervals import Interval, ci_method, cis, pass_note, proportion_cis
from benger.analysis.leaderboard.metrics import MetricMean
from benger.analysis.leaderboard.model import NOT_RANKED, POOLED, Leaderboard, LeaderboardRow
from benger.analysis.leaderboard.ranking import few_items, mark_comparable, rank
from benger.analysis.leaderboard.sums import (
    GroupKey,
    JudgeKey,
    RowKey,
    judge_key,
    merge,
    normal_interval,
    pooled_counts,
    sums_from_items,
    unit_scores,
)
from benger.analysis.leaderboard.validity import JudgeStatus, judge_status
from benger.judge._released import RELEASE_JUDGE_CONFIG_HASH
from benger.metrics._accuracy import accuracy
from benger.store._aggregate import Answer, ConfigProvenance, GenerationCount, MetricGroupMean
from benger.store._aggregate_items import ItemScore, RowSums
from benger.store._validations import JudgeValidation

ItemSource = Union[Sequence[ItemScore], Callable[[], Sequence[ItemScore]]]  # noqa: UP007  (a runtime alias)


@dataclass(frozen=True)
class BoardInputs:
    """What :func:`build` aggregates, from records (:mod:`~benger.analysis.leaderboard.records`) or SQL
    (:mod:`~benger.analysis.leaderboard.store`).

    ``items``: per-generation judge items (or a function that loads them: only the bootstrap, pooled judges and a
    near-constant row's normal interval need them); ``sums``: the rows' :class:`RowSums` as SQL computes them
    (default: from the items); ``superseded``: superseded generations per row key; ``provenance``: generation
    config hash -> its prompt set and system hash; ``tiers`` / ``displays``: per system name; ``signatures``: the
    metric signature shown per metric."""

    items: ItemSource
    counts: Sequence[GenerationCount]
    answers: Sequence[Answer]
    gold: Mapping[tuple[str, str], str]
    metric_rows: Sequence[MetricGroupMean]
    tiers: Mapping[str, str | None]
    provenance: Mapping[str, ConfigProvenance]
    signatures: Mapping[str, str]
    displays: Mapping[str, str] = field(default_factory=dict)
    sums: Sequence[RowSums] | None = None
    superseded: Mapping[RowKey, int] = field(default_factory=dict)
    #: stored judge validations (``Store.judge_validations()``): each row names its judge's status
    validations: Sequence[JudgeValidation] = ()
    #: the validation-only judge configurations (judge, config hash, rubric id) left out of the items: the board
    #: names them (``Leaderboard.left_out``), a row is never silently gone
    left_out: Collection[tuple[str, str, str]] = ()
    #: the failed and excluded generations of cases with their own Bewertungsbogen, per row and rubric id
    own_rubric: OwnRubricCounts = field(default_factory=dict)


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def _short(value: str | None) -> str | None:
    return value[:8] if value else None


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


def build(inputs: BoardInputs, context: LeaderboardContext) -> Leaderboard:
    """Assemble the leaderboard of ``inputs`` under ``context`` (CI settings, pooled judges, superseded rule,
    rubric filter). With ``include_superseded`` a row made only of superseded generations is counted in the row
    of the same system name's one other configuration on that corpus (see :mod:`benger.analysis.leaderboard`).
    Rows are keyed by the system configuration, not the generation config hash
    (:mod:`benger.analysis.leaderboard.identity`; ``provenance`` gives each one's system hash)."""
    ident = identities(
        ((c.system, c.config_hash, c.corpus) for c in inputs.counts),
        {h: p.system_config_hash for h, p in inputs.provenance.items()},
    )
    generation_hash = {(s, i, c): h for (s, h, c), i in ident.items()}  # row key -> its generation config hash
    rekeyed = any(h != i for (_, h, _), i in ident.items())
    if rekeyed:
        inputs = _rekey(ident, inputs)
    status, remap, superseded_in = _statuses(inputs, context.include_superseded)
    load = _loader(inputs, ident if rekeyed else {}, remap, context)
    groups = _groups(inputs, ident if rekeyed else {}, remap, load, context)
    intervals, by_group = _intervals(groups, load, context)
    labels = _group_labels(groups)
    answered = _answered(inputs)
    answer_tasks = {k: len(v) for k, v in _answer_tasks(inputs).items()}
    metric_by_row: dict[RowKey, dict[str, MetricMean]] = defaultdict(dict)
    for m in inputs.metric_rows:
        metric_by_row[(m.system, m.config_hash, m.corpus)][m.metric] = MetricMean(mean=m.mean, n=m.n)
    keys: list[tuple[RowKey, JudgeKey | None]] = [*groups]
    judged = judged_by_config(groups)
    mains = main_rubric_groups(groups)
    moves = own_rubric_moves(groups, inputs.own_rubric, mains)
    judged_rows = {rk for rk, _ in groups}
    keys += [key for key in moves if key not in groups]  # a case's own rubric row of a system with none scored
    keys += [(rk, None) for rk in status if rk not in judged_rows]
    raw: list[dict[str, Any]] = []
    for rk, jkey in keys:
        system, config_hash, corpus = rk
        s = groups.get((rk, jkey), _EMPTY) if jkey is not None else _EMPTY
        low, high, kind = intervals.get((rk, jkey), (None, None, None)) if jkey is not None else (None, None, None)
        source_hash = generation_hash.get(rk, config_hash)
        origin = inputs.provenance.get(source_hash)
        cell = status.get(rk, {})
        main = jkey is None or (rk, jkey) in mains
        moved = moves.get((rk, jkey)) if jkey is not None else None
        counts = row_counts(cell, s.n, judged[(rk, jkey[:2])] if jkey is not None else 0, main, moved)
        pairs = answered.get(rk, [])
        if jkey is None:
            group, judge, jhash, rubric = NOT_RANKED, None, None, None
        elif context.pool_judges:
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
                "tier": inputs.tiers.get(system),
                "judge": judge,
                "judge_config_id": _short(jhash),
                "judge_config_hash": jhash,
                "rubric": rubric,
                "prompt_hash": origin.prompt_hash if origin else None,
                "generation_config_hash": source_hash,
                "display": inputs.displays.get(system),
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
                "ci_kind": kind,
                "tasks": s.tasks,
                "mean_grade_points": s.gp / s.gp_n if s.gp_n else None,
                "pass_rate": s.passed / s.pass_n if s.pass_n else None,
                "_pass_n": s.pass_n,
                "pass_note": pass_note(s.n, s.pass_n, rubric),
                # undefined, not 0, when nothing was answered (every call failed): a number from no answer
                "accuracy": accuracy([p for p, _ in pairs], [g for _, g in pairs])  # type: ignore[misc]
                if any(p is not None for p, _ in pairs)
                else None,
                "answered": sum(1 for p, _ in pairs if p is not None),
                "answer_items": len(pairs),
                **counts,
                "truncated": cell.get("truncated", 0),
                "unscored": s.unscored,
                "superseded": superseded_in.get(rk, 0),
                "few_items": few_items(s.n),
                "metrics": dict(sorted(metric_by_row.get(rk, {}).items())),
            }
        )
    statuses: dict[tuple[str, str], JudgeStatus] = {}
    for r in raw:
        if r["judge"] is not None and r["judge_config_hash"] is not None:
            key = (r["judge"], r["judge_config_hash"])
            if key not in statuses:
                statuses[key] = judge_status(*key, inputs.validations)
            r["judge_status"], r["scores_meaningful"] = statuses[key].label, statuses[key].meaningful
    for r in raw:
        proportion_cis(r, context, answer_tasks.get((r["system"], r["config_hash"], r["corpus"]), 0))
    board = _board(raw, inputs, context)
    return board.model_copy(update={"pooled": pooled_counts(by_group.values())}) if context.pool_judges else board


_EMPTY = RowSums("", "", "", "", "", "", "ok", 0, 0.0, 0.0, 0, 0, 0, 0, 0.0, 0, 0.0)


def _board(raw: list[dict[str, Any]], inputs: BoardInputs, context: LeaderboardContext) -> Leaderboard:
    """The rows ranked within their groups, sorted for display, with the board's provenance."""
    mark_comparable(raw, context.pool_judges)
    ranking = rank(raw)
    place = {(r.group, r.system, r.config_hash): r.rank for r in ranking}
    group_order = sorted({r["group"] for r in raw}, key=lambda g: (g == NOT_RANKED, g))
    rows = [
        LeaderboardRow(rank=place.get((r["group"], r["system"], r["config_hash"])) if r["n"] else None, **r)
        for r in raw
    ]
    rows.sort(key=lambda r: (group_order.index(r.group), r.rank or 10**9, r.system, r.config_hash, r.corpus))
    ci = context.ci
    return Leaderboard(
        rows=rows,
        ranking=ranking,
        ci=ci.method,
        ci_method=ci_method(ci),
        seed=ci.seed,
        n_resamples=ci.n_resamples,
        confidence=ci.confidence,
        pooled_judges=context.pool_judges,
        superseded="included" if context.include_superseded else "excluded",
        metric_signatures=dict(sorted(inputs.signatures.items())),
        benger_version=__version__,
        left_out=sorted(k for k in inputs.left_out if context.keeps_rubric(k[2])),
    )


def _statuses(
    inputs: BoardInputs, include_superseded: bool
) -> tuple[dict[RowKey, dict[str, int]], dict[RowKey, RowKey], dict[RowKey, int]]:
    """Generation counts per row and status (plus ``truncated``), the superseded rows moved into their system's
    current row (``remap``), and how many superseded generations each row took in."""
    status: dict[RowKey, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for c in inputs.counts:
        cell = status[(c.system, c.config_hash, c.corpus)]
        cell[c.status] += c.n
        cell["truncated"] += c.truncated
    if not include_superseded:  # a configuration made only of superseded generations is left out, not "unranked"
        for rk, n in inputs.superseded.items():
            if rk in status and n == sum(v for k, v in status[rk].items() if k != "truncated"):
                del status[rk]
    remap = _superseded_remap(status, inputs.superseded) if include_superseded else {}
    superseded_in: dict[RowKey, int] = defaultdict(int)
    for old, new in remap.items():
        cell = status.pop(old)
        n_old = inputs.superseded[old]
        status[new]["ok"] += n_old
        status[new]["truncated"] += cell.get("truncated", 0)
        superseded_in[new] += n_old
    return status, remap, superseded_in


def _loader(
    inputs: BoardInputs, ident: Mapping[RowKey, str], remap: Mapping[RowKey, RowKey], context: LeaderboardContext
) -> Callable[[], list[ItemScore]]:
    """A function that loads the items once (rekeyed, superseded ones moved, rubric filter applied)."""
    loaded: list[list[ItemScore]] = []

    def load() -> list[ItemScore]:
        if not loaded:
            with heap_frozen():
                found = inputs.items() if callable(inputs.items) else inputs.items
                kept = [it for it in found if context.keeps_rubric(it.rubric)] if context.rubrics else found
                loaded.append(_moved(_rekey_all(ident, kept) if ident else list(kept), remap))
        return loaded[0]

    return load


def _groups(
    inputs: BoardInputs,
    ident: Mapping[RowKey, str],
    remap: Mapping[RowKey, RowKey],
    load: Callable[[], list[ItemScore]],
    context: LeaderboardContext,
) -> dict[GroupKey, RowSums]:
    """The sums per row and judge key: from SQL's sums where given, else from the items."""
    if inputs.sums is None or context.pool_judges:
        return merge(sums_from_items(load(), context.pool_judges), {}, context.pool_judges)
    sums = [s for s in inputs.sums if context.keeps_rubric(s.rubric)] if context.rubrics else inputs.sums
    return merge(_rekey_all(ident, sums) if ident else sums, remap, context.pool_judges)


def _intervals(
    groups: Mapping[GroupKey, RowSums], load: Callable[[], list[ItemScore]], context: LeaderboardContext
) -> tuple[dict[GroupKey, Interval], dict[GroupKey, list[ItemScore]]]:
    """Each group's interval (from its sums where the normal interval allows it, else from its scores) and, when
    the scores were needed, the items per group."""
    ci = context.ci
    intervals: dict[GroupKey, Interval] = {}
    if ci.method == "normal":
        for key, s in groups.items():
            if (interval := normal_interval(s, ci.confidence)) is not None:
                intervals[key] = (*interval, "normal" if interval[0] is not None else None)
    pending = [key for key in groups if key not in intervals]
    by_group: dict[GroupKey, list[ItemScore]] = defaultdict(list)
    if pending or context.pool_judges:
        for it in load():
            by_group[((it.system, it.config_hash, it.corpus), judge_key(it, context.pool_judges))].append(it)
        scores = [unit_scores([it for it in by_group[key] if it.n_scored], ci.unit) for key in pending]
        intervals.update(zip(pending, cis(scores, ci), strict=True))
    return intervals, by_group


def _answer_tasks(inputs: BoardInputs) -> dict[RowKey, set[str]]:
    """Per row: the distinct tasks of its Ja/Nein answers (the units of the accuracy's interval)."""
    out: dict[RowKey, set[str]] = defaultdict(set)
    for a in inputs.answers:
        if (a.corpus, a.task_id) in inputs.gold:
            out[(a.system, a.config_hash, a.corpus)].add(a.task_id)
    return out


def _answered(inputs: BoardInputs) -> dict[RowKey, list[tuple[str | None, str]]]:
    """Per row: (answer or None when the generation failed, gold answer) of its Ja/Nein items."""
    answered: dict[RowKey, list[tuple[str | None, str]]] = defaultdict(list)
    for a in inputs.answers:
        if (a.corpus, a.task_id) in inputs.gold:
            answered[(a.system, a.config_hash, a.corpus)].append(
                (a.answer if a.status == "ok" else None, inputs.gold[(a.corpus, a.task_id)])
            )
    return answered


_Keyed = TypeVar("_Keyed", ItemScore, RowSums, GenerationCount, Answer, MetricGroupMean)


def _rekey_all(ident: Mapping[RowKey, str], rows: Iterable[_Keyed]) -> list[_Keyed]:
    """``rows`` with each generation config hash replaced by its row's identity hash (``ident``)."""
    return [r._replace(config_hash=ident.get((r.system, r.config_hash, r.corpus), r.config_hash)) for r in rows]


def _rekey(ident: Mapping[RowKey, str], inputs: BoardInputs) -> BoardInputs:
    """The counts, answers, metric means and superseded counts keyed by their rows' identity hashes (``ident``);
    the items and sums are rekeyed where they are read."""
    moved = {(s, ident.get((s, h, c), h), c): n for (s, h, c), n in inputs.superseded.items()}
    own = {((s, ident.get((s, h, c), h), c), rid): n for ((s, h, c), rid), n in inputs.own_rubric.items()}
    return replace(
        inputs,
        own_rubric=own,
        counts=_rekey_all(ident, inputs.counts),
        answers=_rekey_all(ident, inputs.answers),
        metric_rows=_rekey_all(ident, inputs.metric_rows),
        superseded=moved,
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
