"""The built-in statistics of results.json: one registration per block, in the order results.json lists them.

Each compute function only wires :class:`~benger.analysis.results.Context` to the analysis function that does the
work (``benger.analysis._rq12``, ``_rq34``, ``_rq5``, ...); the numbers come from ``benger.stats``.
"""

from __future__ import annotations

from typing import Any

from benger.analysis import _rq5
from benger.analysis._appendix_a import appendix_a
from benger.analysis._appendix_a_summaries import summary_tables
from benger.analysis._creator import creator_calibration
from benger.analysis._data import POOLS
from benger.analysis._departures import departures
from benger.analysis._percent import PERCENT_SCALE, RAW, as_percent, on_own_rubric, own_scale
from benger.analysis._release_tables import judge_swap_block, operational_block
from benger.analysis._rq12 import group_aggregates, leaderboard, task_system
from benger.analysis._rq34 import cocreation, metric_validity
from benger.analysis.results import _models as m
from benger.analysis.results import _models_rq5 as m5
from benger.analysis.results._base import Context, statistic
from benger.stats import krippendorff_alpha_interval, paired_system_comparisons


@statistic("rq1.leaderboard", m.Leaderboard, paper_ref="Table 1", unit=RAW, order=100)
def _leaderboard(ctx: Context) -> Any:
    """Per system and corpus: n, mean raw with a 95% interval, pass rate; then the human rows. Under a user's own
    rubric the unit names that rubric's scale (``raw score 0-30``), never the paper's 0-100."""
    block = leaderboard(ctx.data, seed=ctx.seed, n_boot=ctx.n_boot)
    if on_own_rubric(ctx.data):
        block["unit"] = own_scale(ctx.data, {r.get("rubric") for r in block["rows"] if r.get("rubric")})
    return block


@statistic("rq1.task_system", m.TaskSystem, paper_ref="Figure (task x system heatmap)", unit=RAW, order=110)
def _task_system(ctx: Context) -> Any:
    """Mean primary-judge raw per system and task."""
    return task_system(ctx.data)


@statistic("rq1.operational", m.Operational, paper_ref="Table 8", order=120)
def _operational(ctx: Context) -> Any:
    """Per-system settings, truncations, latency, tokens and cost from the released metadata."""
    op = getattr(ctx.data, "operational", None)
    if not op:
        return {
            "method": "per system: released settings, truncation count, latency, tokens and cost",
            "inputs": {"systems": 0, "generations": 0},
            "source": "unavailable",
            "reason": "per-system settings and the per-call log come with the release",
        }
    return operational_block(op["systems"], op["generation_counts"], op["words"], op["per_call"], op["observed"])


@statistic("rq1.appendix_a.final", m.AppendixA, paper_ref="Appendix A, Tables 2 and 5", order=130)
def _appendix_a_final(ctx: Context) -> Any:
    """Per-system judge and human-grade columns (Table 2) and automatic metrics (Table 5), final generations."""
    human = getattr(ctx.data, "human_metrics", None) or None
    memo = ctx.memo.setdefault("appendix_a.cells", {})
    block = appendix_a(ctx.data, seed=ctx.seed, n_boot=ctx.n_boot, human_metrics=human, memo=memo)
    # compute_all counted the superseded generations as final already when asked: say so (issue 24)
    block["inputs"]["include_superseded"] = bool(ctx.include_superseded)
    return block


@statistic("rq1.appendix_a.with_superseded", m.AppendixA, paper_ref="Appendix A, Tables 2 and 5", order=131)
def _appendix_a_superseded(ctx: Context) -> Any:
    """The same with the superseded generations counted (what the paper prints)."""
    human = getattr(ctx.data, "human_metrics", None) or None
    every = getattr(ctx.data, "metrics_all", None) or None
    memo = ctx.memo.setdefault("appendix_a.cells", {})
    return appendix_a(
        ctx.data,
        seed=ctx.seed,
        n_boot=ctx.n_boot,
        include_superseded=True,
        metrics_all=every,
        human_metrics=human,
        memo=memo,
    )


@statistic("rq1.appendix_a_summaries", m.AppendixASummaries, paper_ref="Appendix A, Tables 3, 4, 6 and 7", order=132)
def _appendix_a_summaries(ctx: Context) -> Any:
    """ZJS and Grundprinzipien per system from the released summaries, with analytic intervals."""
    return summary_tables(getattr(ctx.data, "zjs", None) or {}, getattr(ctx.data, "grundprinzipien", None) or {})


@statistic("rq2", m.GroupAggregates, paper_ref="Section 6.2 (tier gaps)", unit=RAW, order=200)
def _rq2(ctx: Context) -> Any:
    """Tier / provider / weights aggregates and gaps."""
    return group_aggregates(ctx.data, seed=ctx.seed, n_boot=ctx.n_boot)


@statistic("rq3", m.MetricValidity, paper_ref="Table 12", order=300)
def _rq3(ctx: Context) -> Any:
    """Automatic metrics vs the judge and the blind pool."""
    return metric_validity(ctx.data, seed=ctx.seed, n_boot=ctx.n_boot)


@statistic("rq4", m.CoCreation, paper_ref="Tables 10-11, Figure 1", unit=RAW, order=400)
def _rq4(ctx: Context) -> Any:
    """The co-creation effect."""
    return cocreation(ctx.data, seed=ctx.seed, n_boot=ctx.n_boot)


@statistic("rq5.judge_vs_pool", m5.JudgeVsPool, keys=("judge", "pool"), paper_ref="Table 13", unit=RAW, order=500)
def _judge_vs_pool(ctx: Context) -> Any:
    """Every judge against every blind pool with reviews; under a user's own rubric on percent of each solution's
    rubric total, grade points and pass from the 0-18 table of it for judge and reviewers alike (``_percent``)."""
    data = _rq5_scale(ctx)
    out = {
        judge: {pool: res for pool in POOLS if (res := _rq5.judge_vs_pool(data, judge, pool)) is not None}
        for judge in data.judges()
    }
    for pools in out.values():
        _on_scale(ctx, *pools.values())
    return out


def _rq5_scale(ctx: Context) -> Any:
    """The data RQ5 compares judges and reviewers on: ``ctx.data``, or under an own rubric its percent view (one
    rule for judge-vs-pool, IRR, the alt-tests, calibration and creator-vs-blind; ``benger.analysis._percent``)."""
    if not ctx.data.rubric_totals:
        return ctx.data
    memo = ctx.memo
    if "rq5.percent" not in memo:
        memo["rq5.percent"] = as_percent(ctx.data, ctx.data.rubric_totals)
    return memo["rq5.percent"]


def _on_scale(ctx: Context, *blocks: dict[str, Any]) -> None:
    """Under an own rubric, mark each block (a dict with ``method``) as computed on :data:`PERCENT_SCALE`."""
    if not ctx.data.rubric_totals:
        return
    for block in blocks:
        block["unit"] = PERCENT_SCALE
        block["method"] = f"on {PERCENT_SCALE}: " + block["method"]


@statistic("rq5.irr", m5.Irr, paper_ref="Table 13", order=510)
def _irr(ctx: Context) -> Any:
    """Human inter-rater reliability, and the primary judge's MAE over half the human spread."""
    irr = _rq5.human_irr(_rq5_scale(ctx))  # the judge's MAE and the human spread on one scale
    primary_human = ctx.get("rq5.judge_vs_pool").get(ctx.data.primary_judge, {}).get("human")
    spread = irr["pooled"]["spread_raw"] if irr.get("pooled") else None
    irr["judge_mae_over_half_spread_ratio"] = (
        primary_human["mae_raw"] / (spread / 2)
        if primary_human and primary_human["mae_raw"] is not None and spread
        else None
    )
    _on_scale(ctx, irr)
    return irr


@statistic("rq5.alt_test", m5.AltTest, keys=("judge", "pool"), paper_ref="Tables 17/18", order=520)
def _alt_test(ctx: Context) -> Any:
    """The blind-pool alt-test of every judge and pool at epsilon 0.15."""
    out = _rq5.alt_tests(_rq5_scale(ctx))
    for pools in out.values():
        _on_scale(ctx, *pools.values())
    return out


@statistic("rq5.single_expert", m5.AltTest, keys=("judge", "pool", "epsilon"), order=530)
def _single_expert(ctx: Context) -> Any:
    """The single-expert alt-test (reference: the creator grade) at every epsilon."""
    out = _rq5.single_expert_tests(_rq5_scale(ctx))
    for pools in out.values():
        for eps in pools.values():
            _on_scale(ctx, *eps.values())
    return out


@statistic("rq5.calibration", m5.Calibration, paper_ref="Tables 15/16", unit=RAW, order=540)
def _calibration(ctx: Context) -> Any:
    """Direct offset and pool-substitution shift per judge and pool (percent points under an own rubric)."""
    block = _rq5.calibration_table(_rq5_scale(ctx))
    _on_scale(ctx, block)
    return block


@statistic("rq5.per_dimension", m5.PerDimension, paper_ref="Table 17, Figure 4", order=550)
def _per_dimension(ctx: Context) -> Any:
    """Primary judge vs the blind pool per rubric dimension."""
    return _rq5.per_dimension(ctx.data)


@statistic("rq5.creator_vs_blind", m5.CreatorVsBlind, paper_ref="Table 17", unit=RAW, order=560)
def _creator_vs_blind(ctx: Context) -> Any:
    """Creator grade vs the blind pool, by pick type."""
    block = _rq5.creator_vs_blind(_rq5_scale(ctx))
    _on_scale(ctx, block)
    return block


@statistic("rq5.intra_judge", m5.IntraJudge, unit=RAW, order=570)
def _intra_judge(ctx: Context) -> Any:
    """Spread of the primary judge's repeated scores."""
    return _rq5.intra_judge(ctx.data)


@statistic("rq5.inter_judge_rank", m5.InterJudgeRank, paper_ref="Tables 19-20", order=580)
def _inter_judge_rank(ctx: Context) -> Any:
    """Rank agreement of the judges' per-system means."""
    return _rq5.inter_judge_rank(ctx.data)


@statistic("rq5.judge_swap", m5.JudgeSwap, paper_ref="Tables 19-20", order=590)
def _judge_swap(ctx: Context) -> Any:
    """Per judge x system means and pass rates on the judge-swap subset, offset-corrected with the calibration."""
    data = ctx.data
    raws: dict[str, list[float]] = {}
    for g in data.generations:  # the swap subset includes the superseded April generations
        raws.setdefault(g.system, []).append(g.raw)
    rows = ctx.get("rq5.calibration")["rows"]
    offsets = {r["judge"]: r["judge_minus_pool_mean"] for r in rows if r["pool"] == "llm"}
    return judge_swap_block(data.judge_swap, raws, data.judge_labels, offsets)


@statistic("rq5.creator_calibration", m5.CreatorCalibration, paper_ref="Appendix M", order=600)
def _creator_calibration(ctx: Context) -> Any:
    """Creator-anchored calibration with stacked-bootstrap intervals."""
    return creator_calibration(ctx.data, seed=ctx.seed, n_reps=ctx.n_stacked)


@statistic("extras.paired_systems", m.PairedSystems, unit=RAW, order=700)
def _paired_systems(ctx: Context) -> Any:
    """Paired comparisons of every two systems over shared tasks."""
    # the task is the unit: its generations (repetitions) are averaged, sum(raws) / len(raws) summed in order as
    # they come, without a list per task (256k of them at 256k generations; issue 26)
    scores: dict[str, dict[str, float]] = {}
    repeated: dict[tuple[str, str], int] = {}  # the tasks with more than one generation: their count
    for g in ctx.data.final_generations():
        row = scores.setdefault(g.system, {})
        if g.task_id in row:
            row[g.task_id] += g.raw
            repeated[g.system, g.task_id] = repeated.get((g.system, g.task_id), 1) + 1
        else:
            row[g.task_id] = g.raw if g.raw else 0 + g.raw  # as sum() starts (0 + v is v but for -0.0: kept)
    for (system, task), n in repeated.items():
        scores[system][task] /= n
    pairs = paired_system_comparisons(scores, n_resamples=ctx.n_boot, seed=ctx.seed + 16)
    return {
        "method": "per system and task the mean over the task's generations; paired percentile bootstrap CI of "
        "the mean per-task difference over shared tasks; two-sided sign-flip p (exact up to 12 tasks, else "
        "(1 + #)/(B + 1)), Holm-corrected over all pairs",
        "inputs": {"systems": len(scores), "n_boot": ctx.n_boot},
        "pairs": [p._asdict() for p in pairs],
    }


@statistic("extras.krippendorff_alpha", m.KrippendorffAlpha, order=710)
def _krippendorff(ctx: Context) -> Any:
    """Krippendorff's alpha of the blind reviews."""
    by_solution: dict[str, list[float | None]] = {}
    by_solution_gp: dict[str, list[float | None]] = {}
    for r in _rq5_scale(ctx).blind_reviews():
        by_solution.setdefault(r.solution_id, []).append(r.raw)
        by_solution_gp.setdefault(r.solution_id, []).append(None if r.grade_points is None else float(r.grade_points))
    block = {
        "method": "Krippendorff's alpha (interval metric) over the blind reviews per solution",
        "inputs": {"solutions": len(by_solution), "reviews": sum(len(v) for v in by_solution.values())},
        "raw": krippendorff_alpha_interval(list(by_solution.values())),
        "grade_points": krippendorff_alpha_interval(list(by_solution_gp.values())),
    }
    _on_scale(ctx, block)
    return block


@statistic("departures", m.Departures, order=10_000)
def _departures(ctx: Context) -> Any:
    """Printed-vs-benger departures and unavailable blocks (runs last: it reads every block)."""
    data = ctx.data
    left_out: dict[str, int] = {}
    for g in data.generations:  # with include_superseded they are final already (compute_all): none left out
        if g.superseded:
            left_out[g.system] = left_out.get(g.system, 0) + 1
    per_condition: dict[str, int] = {}
    for a in getattr(data, "annotations", None) or []:
        if a.condition:
            per_condition[a.condition] = per_condition.get(a.condition, 0) + 1
    coverage: dict[str, tuple[int, int]] = {}
    for metric, values in sorted((getattr(data, "human_metrics", None) or {}).items()):
        for condition, total in sorted(per_condition.items()):
            released = sum(1 for c, _ in values.values() if c == condition)
            coverage[f"{metric} ({condition})"] = (released, total)
    return departures(
        ctx.results,
        getattr(data, "zjs_superseded_dropped", None) or {},
        bench_superseded=left_out,
        human_metric_coverage=coverage,
    )
