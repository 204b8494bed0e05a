"""Models of the RQ5 (judge validity) blocks of results.json. Raw scores 0-100, grade points 0-18."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from benger.analysis.results._base import Block
from benger.analysis.results._models import Row
from benger.analysis.results._rows import (
    AnnotatorRow,
    BalancedSubset,
    CalibrationRow,
    DimensionAgreement,
    IrrStats,
    JudgeRank,
)


class JudgeVsPool(Block):
    """One judge against one blind pool: judge raw vs the mean of the blind reviews per solution; kappa on pass
    (grade points >= 4) vs the strict blind majority; offsets are judge minus pool."""

    n: int
    pearson: float | None
    spearman: float | None
    kendall: float | None = None
    mae_raw: float | None
    mae_grade_points: float | None = None
    kappa: float | None = None
    offset_raw: float | None = None
    offset_grade_points: float | None = None
    mae_bias_corrected: float | None = None
    mean_judge: float | None = None
    mean_pool: float | None = None


class Irr(Block):
    """Inter-rater reliability of the blind human reviews: ICC(2,1) / ICC(2,k) (two-way random, absolute agreement)
    on raw and grade points, the spread, Krippendorff's alpha; ``pooled``, ``by_solution_type``, ``by_pool`` and
    the ``balanced_subset`` (``{raters, n, raw: {icc_2_1, icc_2_k}, grade_points: {...}}``).
    ``judge_mae_over_half_spread_ratio``: the primary judge's human-pick MAE / (pooled spread / 2)."""

    k: int | None = None
    pooled: IrrStats | None
    by_solution_type: dict[str, IrrStats] = Field(default_factory=dict)
    by_pool: dict[str, IrrStats] = Field(default_factory=dict)
    balanced_subset: BalancedSubset | None = None
    judge_mae_over_half_spread_ratio: float | None = None


class AltTest(Block):
    """Calderon et al.'s alternative annotator test of one judge against one pool at one epsilon: ``omega`` (the
    winning rate over annotators, ``omega_ci95`` Clopper-Pearson), ``rho`` (mean advantage probability), ``passes``
    (omega >= 0.5), and ``per_annotator: [{grader, n_j, rho_f, rho_h, d_bar, test: wilcoxon | t, statistic,
    p_value, rejected_BY}]``. The blind-pool test adds ``pearson_judge_vs_mean_blind`` and ``n_pearson``."""

    epsilon: float
    m_annotators: int
    n_instances_total: int
    n_rejected: int
    omega: float | None
    omega_ci95: list[float | None] | None = None
    rho: float | None
    passes: bool | None
    per_annotator: list[AnnotatorRow]


class Calibration(Block):
    """Tables 15/16: Delta_dir = judge - mean blind (paired t, Wilcoxon) and Delta_sub (pool substitution) per judge
    and pool. Row = ``{judge, pool, label, n, full_mean, sub_mean, diff_mean, diff_sd, diff_min, diff_max,
    sw_diff_W, sw_diff_p, ttest_t, ttest_p, wilcoxon_p, judge_mean, judge_minus_pool_mean, judge_minus_pool_sd,
    judge_minus_pool_min, judge_minus_pool_max, judge_pool_ttest_t, judge_pool_ttest_p, judge_pool_wilcoxon_p}``;
    includes the primary judge's repeat passes where repeats exist."""

    rows: list[CalibrationRow]


class PerDimension(Block):
    """The primary judge vs the mean blind points per rubric dimension: ``pools: {pool: {dimension: {n, pearson,
    spearman, mae, mean_judge, mean_blind}}}``; pools without judge dimensions are under ``unavailable: {pool:
    reason}``."""

    pools: dict[str, dict[str, DimensionAgreement]]
    unavailable: dict[str, str] = Field(default_factory=dict)


class CreatorVsBlind(Block):
    """Creator raw vs mean blind raw per solution, all picks and ``by_solution_type: {type: {n, pearson, spearman,
    mae_raw, offset_raw}}``."""

    n: int
    pearson: float | None
    spearman: float | None
    mae_raw: float | None
    offset_raw: float | None
    by_solution_type: dict[str, Row]


class IntraJudge(Block):
    """Population sd (ddof 0) of the repeated primary-judge raw scores per generation: mean, median and max."""

    n_generations: int
    mean_within_sd: float | None
    median_within_sd: float | None
    max_within_sd: float | None


class InterJudgeRank(Block):
    """Each judge's per-system mean raw against the primary judge's: ``judges: {judge: {spearman, kendall,
    n_systems}}``; from per-generation scores (``source = per_annotation``, with ``n_cells`` and ``pairwise: {"a__b":
    {n, pearson, spearman, mae}}``) or from the released aggregates."""

    primary: str | None = None
    judges: dict[str, JudgeRank]
    n_cells: int | None = None
    pairwise: dict[str, Row] | None = None


class SwapCell(BaseModel):
    """One judge x system cell of the judge swap: raw 0-100, rates 0-1 (pass = raw >= 50)."""

    model_config = ConfigDict(extra="allow")

    n: int | None = None
    mean_raw: float | None = None
    pass_rate: float | None = None
    pass_rate_offset_corrected: float | None = None


class SwapJudge(BaseModel):
    """One judge of the judge swap: rank agreement with the primary judge, its offset, and its cells."""

    model_config = ConfigDict(extra="allow")

    judge_key: str | None = None
    spearman: float | None = None
    kendall: float | None = None
    n_systems: int | None = None
    offset_raw: float | None = None
    systems: dict[str, SwapCell] = Field(default_factory=dict)


class JudgeSwap(Block):
    """Tables 19-20: per judge x system mean raw and pass rate (raw >= 50) on the generations scored by all six
    judges, the offset-corrected pass rates, and each judge's Spearman / Kendall tau-b against the primary judge.
    ``judges: {judge: {judge_key, spearman, kendall, n_systems, offset_raw, offset_raw_released,
    offset_matches_release, systems: {system: {n, mean_raw, pass_rate, pass_rate_offset_corrected}}}}``;
    ``primary_recomputed: {system: {n, mean_raw, pass_rate, pass_rate_offset_corrected, matches_release}}``."""

    paper_tables: list[str] | None = None
    primary_judge: str | None = None
    judges: dict[str, SwapJudge]
    primary_recomputed: dict[str, Row] = Field(default_factory=dict)


class CreatorCalibration(Block):
    """Appendix M: creator-anchored calibration of each judge (tiers raw | scalar | affine; eps 0.15 | 0.2).

    ``pooled_loo`` / ``gloo`` / ``pure_creator``: ``{judge: {pool: {tier: {eps: Cell}}}}``, Cell = ``{omega, rho,
    n_rejected, m, ci_clopper, passes, n_instances, n_comparisons, n_anchors, boot: {low, high, n_rep,
    passes_boot_lo}}`` (stacked bootstrap, 2.5 / 97.5 percentiles; pure_creator without ``boot``);
    ``gloo.<judge>.params.<pool>``: per blind grader the mean GLOO parameters over its picks (``per_grader``,
    ``mean_over_graders``, ``spread_over_graders``)."""

    params_method: str | None = None
    pooled_loo: dict[str, Any]
    gloo: dict[str, Any]
    pure_creator: dict[str, Any]
