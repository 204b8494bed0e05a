"""Tables for RQ1-RQ4 (layout of the paper's Tables 1, 10-12 and the RQ2 table), each built from its validated
results.json block (:mod:`benger.analysis.results`); an empty block becomes a :class:`Missing` with the reason."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.analysis._percent import RAW
from benger.analysis.leaderboard.validity import NOT_MEANINGFUL
from benger.analysis.results import Block
from benger.analysis.results._models import (
    CoCreation,
    CorpusCell,
    Effect,
    EffectInterval,
    GroupAggregates,
    GroupCell,
    Leaderboard,
    LeaderboardRow,
    MetricCorrelations,
    MetricValidity,
)
from benger.report._fmt import ci, dash, f, integer, pct, pm, provenance, signed
from benger.report._model import Cell, Missing, Table

CORPORA = (("benchathon", "Benchathon"), ("zjs", "ZJS"), ("grundprinzipien", "Grundprinzipien"))
_LABEL = {"benchathon": "Bench.", "zjs": "ZJS", "grundprinzipien": "GP"}


def leaderboard_table(lb: Leaderboard) -> Table | Missing:
    """Table 1 from ``rq1.leaderboard``: per system n / raw ± half-width / pass per corpus (+ accuracy on
    Grundprinzipien), then the human rows (their judge-less cells explained in the notes)."""
    if not lb.rows:
        return Missing("leaderboard", "Leaderboard (Table 1)", "results.json has no rq1.leaderboard rows")
    columns = [
        "System / group",
        "Bench. n",
        "Bench. raw",
        "Bench. pass",
        "ZJS n",
        "ZJS raw",
        "ZJS pass",
        "GP n",
        "GP raw",
        "GP pass",
        "GP acc.",
    ]
    with_status = any(r.judge_status is not None or r.scores_meaningful is not None for r in lb.rows)
    if with_status:
        columns.append("Judge status")
    rows: list[list[Cell]] = []
    notes: list[str] = []
    for r in lb.rows:
        label = r.display or r.system
        row: list[Cell] = [label]
        for key in ("bench", "zjs", "gp"):
            c: CorpusCell = getattr(r, key) or CorpusCell()
            row += [integer(c.n), pm(c.raw, c.halfwidth), "unknown" if c.pass_note and c.pass_rate is None
                    else pct(c.pass_rate)]  # fmt: skip
            if key == "gp":
                row.append(pct(c.acc))
            if c.pass_note:
                notes.append(f"{label}, {key} pass: {c.pass_note}.")
        if with_status:
            row.append(_judge_status(r))
            if r.scores_meaningful is False:
                notes.append(f"{label}: judge {r.judge or '?'} failed its validation — {NOT_MEANINGFUL}.")
        rows.append(row)
        bench = r.bench or CorpusCell()
        if r.kind == "human":
            parts = []
            if bench.source == "unavailable":
                parts.append(f"no judge scores ({bench.reason or 'not in the inputs'})")
            if bench.human_raw is not None:
                n_rev = f" over {dash(integer(bench.human_n_reviews))} reviews" if bench.human_n_reviews else ""
                parts.append(
                    f"human graders' own mean {dash(f(bench.human_raw))} raw, "
                    f"pass {dash(pct(bench.human_pass_rate))}{n_rev}"
                )
            if parts:
                notes.append(f"{label}: " + "; ".join(parts) + ".")
    notes += [f"Left out: {item.reason}." for item in lb.left_out or []]
    inputs, method = provenance(lb)
    return Table(
        "leaderboard",
        "Leaderboard across the three corpora (Table 1)",
        columns,
        rows,
        caption=_leaderboard_caption(lb),
        inputs=inputs,
        method=method,
        notes=notes,
    )


def _leaderboard_caption(lb: Leaderboard) -> str:
    """Table 1's caption: the paper's scale and pass rule, or under a user's own rubric that rubric's scale (the
    block's ``unit``) and its own pass rule."""
    if lb.unit in (None, RAW):
        scale, rule = "raw score (0-100)", "pass rate (≥ 4 grade points)"
    else:
        scale, rule = lb.unit, "pass rate by the rubric's own pass rule (unknown where it has none)"
    return (
        f"Mean LLM-judge {scale} ± half-width of the 95% CI, {rule} and, for Grundprinzipien, Ja/Nein accuracy. "
        "Ranked by the mean of the available per-corpus means."
    )


def _judge_status(r: LeaderboardRow) -> str | None:
    """The row's judge status; a failed judge's row always says its scores are not meaningful."""
    status = r.judge_status
    if r.scores_meaningful is False and NOT_MEANINGFUL not in (status or ""):
        return f"{status} — {NOT_MEANINGFUL}" if status else NOT_MEANINGFUL
    return status


def _corpus_groups(rq2: GroupAggregates, corpus: str) -> dict[str, dict[str, GroupCell]]:
    """``{dimension: {group: cell}}`` of one corpus (``benchathon``, ``zjs`` or ``grundprinzipien``)."""
    return {"benchathon": rq2.benchathon, "zjs": rq2.zjs, "grundprinzipien": rq2.grundprinzipien}[corpus]


def _group_names(rq2: GroupAggregates) -> list[tuple[str, str]]:
    seen: list[tuple[str, str]] = []
    for corpus, _ in CORPORA:
        for dim in ("by_tier", "by_provider", "by_weights"):
            for g in _corpus_groups(rq2, corpus).get(dim) or {}:
                if (dim, g) not in seen:
                    seen.append((dim, g))
    return seen


def rq2_table(rq2: GroupAggregates) -> Table | Missing:
    """RQ2 from the ``rq2`` block: mean per tier, provider and weights group on each corpus, gaps in the notes."""
    if not _group_names(rq2):
        return Missing("rq2_groups", "Tier / provider / weights (RQ2)", "results.json has no rq2 group aggregates")
    columns = [
        "Group",
        "Bench. systems",
        "Bench. mean [95% CI]",
        "ZJS systems",
        "ZJS mean (min-max)",
        "GP systems",
        "GP mean (min-max)",
    ]
    rows: list[list[Cell]] = []
    groups: dict[int, str] = {}
    last_dim = ""
    for dim, g in _group_names(rq2):
        if dim != last_dim:
            groups[len(rows)] = dim.replace("by_", "by ")
            last_dim = dim
        row: list[Cell] = [g]
        for corpus, _ in CORPORA:
            b = (_corpus_groups(rq2, corpus).get(dim) or {}).get(g)
            if b is None:
                row += [None, None]
                continue
            row.append(integer(b.n_systems))
            if b.low is not None:
                row.append(f"{dash(f(b.mean))} {ci(b.low, b.high)}")
            elif b.min is not None:
                row.append(f"{dash(f(b.mean))} ({dash(f(b.min))}-{dash(f(b.max))})")
            else:
                row.append(f(b.mean))
        rows.append(row)
    notes = []
    for corpus, name in CORPORA:
        gap = rq2.gaps.get(corpus)
        if isinstance(gap, Mapping):
            parts = [f"{k.replace('_', ' ')} {dash(signed(v))}" for k, v in gap.items() if signed(v) is not None]
            if parts:
                notes.append(f"Gaps on {name}: " + "; ".join(parts) + " raw points.")
    inputs, method = provenance(rq2)
    return Table(
        "rq2_groups",
        "Scores by tier, provider and weights (RQ2)",
        columns,
        rows,
        caption="Benchathon: mean over generations with a bootstrap 95% CI; ZJS and Grundprinzipien: "
        "unweighted mean of the system means (range over systems).",
        inputs=inputs,
        method=method,
        notes=notes,
        group_rows=groups,
    )


def rq3_sources(rq3: MetricValidity) -> list[tuple[str, MetricCorrelations]]:
    """``(column name, block)`` of every correlation block with metrics: Benchathon per generation and per system,
    then the ZJS / Grundprinzipien per-system blocks (released summaries) where present."""
    levels: list[tuple[str, MetricCorrelations | None, MetricCorrelations | None]] = [
        ("benchathon", rq3.per_generation, rq3.per_system)
    ]
    for corpus, sub in (("zjs", rq3.zjs), ("grundprinzipien", rq3.grundprinzipien)):
        if sub is not None:
            levels.append((corpus, None, sub.per_system))
    out: list[tuple[str, MetricCorrelations]] = []
    for corpus, per_gen, per_sys in levels:
        for b, lname in ((per_gen, "per gen."), (per_sys, "per system")):
            if b is not None and b.metrics:
                out.append((f"{_LABEL[corpus]} {lname}", b))
    return out


def rq3_table(rq3: MetricValidity) -> Table | Missing:
    """RQ3 (Table 12 layout): Pearson / Spearman of each automatic metric against the judge, per source."""
    sources = rq3_sources(rq3)
    if not sources:
        return Missing("rq3_metrics", "Automatic metrics vs judge (RQ3)", "results.json has no rq3 correlations")
    metrics: list[str] = []
    for _, b in sources:
        metrics += [m for m in b.metrics if m not in metrics]
    columns = ["Metric"] + [f"{name} r / ρ (n)" for name, _ in sources]
    rows: list[list[Cell]] = []
    for m in metrics:
        row: list[Cell] = [m]
        for _, b in sources:
            v = b.metrics.get(m)
            if v is None:
                row.append(None)
                continue
            n = v.n if "n" in v.model_fields_set else v.n_systems
            r, rho = signed(v.pearson, 2), signed(v.spearman, 2)
            row.append(None if r is None and rho is None else f"{r or '—'} / {rho or '—'} ({integer(n) or '—'})")
        rows.append(row)
    ins, meths = zip(*(provenance(b) for _, b in sources), strict=True)
    return Table(
        "rq3_metrics",
        "Automatic metrics vs LLM judge (RQ3, Table 12 layout)",
        columns,
        rows,
        caption="Pearson r and Spearman ρ between each metric and the judge's raw score; per generation "
        "(pairs of generations) and per system (pairs of system means). '—': not available.",
        inputs="; ".join(dict.fromkeys(i for i in ins if i)),
        method="; ".join(dict.fromkeys(m for m in meths if m)),
    )


_RQ4_ROWS = (
    ("iid", "i.i.d. annotation"),
    ("participant_cluster", "Participant cluster"),
    ("task_cluster", "Task cluster"),
    ("paired", "Within-participant paired"),
)
_RQ4_BLOCKS = (
    ("judge", "LLM judge (all human annotations)"),
    ("judge_picks", "LLM judge (validation picks only)"),
    ("blind_human", "Blind human reviewers (validation picks)"),
)


def _units(iv: EffectInterval, key: str, n: Mapping[str, Any]) -> str | None:
    units = iv.n_units or iv.n_clusters or iv.n_participants
    if units is None and key == "iid" and n:
        units = sum(int(v) for v in n.values() if isinstance(v, int))
    if isinstance(units, Mapping):  # per arm: "traditional + co-creation"
        return " + ".join(integer(v) or "—" for v in units.values())
    return integer(units)


def _effect(rq4: CoCreation, key: str) -> Effect | None:
    return {"judge": rq4.judge, "judge_picks": rq4.judge_picks, "blind_human": rq4.blind_human}[key]


def _interval(b: Effect, key: str) -> EffectInterval | None:
    return {
        "iid": b.iid,
        "participant_cluster": b.participant_cluster,
        "task_cluster": b.task_cluster,
        "paired": b.paired,
    }[key]


def _rq4_label(b: Effect, key: str, label: str) -> str:
    """A row's label with its role: the effect's headline interval, or a robustness check beside it."""
    if b.headline is None:  # results from before the headline was named
        return label
    return f"{label} (headline)" if key == b.headline else f"{label} (robustness)"


def _rq4_rows(b: Effect) -> list[list[Cell]]:
    rows: list[list[Cell]] = []
    for key, label in _RQ4_ROWS:
        iv = _interval(b, key)
        if iv is not None:
            est = iv.estimate if "estimate" in iv.model_fields_set else b.delta
            rows.append([_rq4_label(b, key, label), _units(iv, key, b.n), signed(est), ci(iv.low, iv.high, sign=True)])
    return rows


def rq4_table(rq4: CoCreation) -> Table | Missing:
    """Table 10: the co-creation Δ under each resampling unit, for the judge and the blind human reviewers."""
    rows: list[list[Cell]] = []
    groups: dict[int, str] = {}
    notes = []
    methods = [provenance(rq4)[1]]
    for key, label in _RQ4_BLOCKS:
        b = _effect(rq4, key)
        if b is None:
            if key == "judge":
                notes.append(f"{label}: not available ({rq4.reason or 'absent from the inputs'}).")
            continue
        body = _rq4_rows(b)
        if b.headline is not None and _interval(b, b.headline) is None:
            name = dict(_RQ4_ROWS)[b.headline].lower()
            notes.append(f"{label}: no {name} interval (fewer than 2 clusters in an arm), so no headline interval.")
        if body:
            groups[len(rows)] = label
            rows += body
            methods.append(provenance(b if isinstance(b, Block) else None)[1])
        tost = b.tost_vs_flagship
        if tost is not None:
            verdict = "equivalent" if tost.equivalent else "not shown equivalent"
            notes.append(
                f"{label}, TOST vs closed-flagship tier: Δ {dash(signed(tost.delta))}, 90% CI "
                f"{ci(tost.low90, tost.high90, sign=True)}, margin ±{dash(f(tost.margin))}: {verdict}."
            )
    if not rows:
        return Missing("rq4_delta", "Co-creation effect (RQ4)", "; ".join(notes) or "no RQ4 estimates")
    source = rq4.source if "source" in rq4.model_fields_set else "unknown"
    notes.insert(0, f"Source of the judge-based inputs: {source}.")
    return Table(
        "rq4_delta",
        "Co-creation minus traditional under four resampling units (RQ4, Table 10 layout)",
        ["Resampling unit", "n units", "Δ raw", "95% CI"],
        rows,
        caption="Mean difference Δ = co-creation − traditional on the raw 0-100 scale; cluster units are "
        "given per arm (traditional + co-creation). The headline row is the interval to quote (the participant "
        "cluster in a reproduction, as the paper; the task cluster in a new study, which has no i.i.d. row); the "
        "robustness rows show the same Δ under other resampling units.",
        inputs=provenance(rq4)[0],
        method="; ".join(dict.fromkeys(m for m in methods if m)),
        notes=notes,
        group_rows=groups,
    )


def rq4_area_table(rq4: CoCreation) -> Table | Missing:
    """Table 11: Δ per legal area (descriptive), for every RQ4 block that has per-area estimates."""
    rows: list[list[Cell]] = []
    groups: dict[int, str] = {}
    for key, label in _RQ4_BLOCKS:
        effect = _effect(rq4, key)
        by_area = effect.by_area if effect is not None else {}
        if not by_area:
            continue
        groups[len(rows)] = label
        for area, b in by_area.items():
            n, mean = b.n, b.mean  # per arm: traditional, co_creation
            rows.append(
                [
                    area,
                    f(mean.get("traditional")),
                    f(mean.get("co_creation")),
                    signed(b.delta),
                    ci(b.low, b.high, sign=True),
                    f"{integer(n.get('traditional')) or '—'} / {integer(n.get('co_creation')) or '—'}",
                ]
            )
    if not rows:
        reason = rq4.reason or "no per-area estimates in results.json"
        return Missing("rq4_area", "Co-creation effect per legal area (RQ4)", reason)
    inputs, method = provenance(rq4)
    return Table(
        "rq4_area",
        "Co-creation effect per legal area (RQ4, Table 11 layout)",
        ["Area", "Mean trad.", "Mean co-cr.", "Δ", "95% CI", "n trad. / co-cr."],
        rows,
        caption="Descriptive only: i.i.d. bootstrap CI per area, no inferential test between areas.",
        inputs=inputs,
        method=method,
        group_rows=groups,
    )
