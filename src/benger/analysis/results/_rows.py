"""Models of the rows and cells inside results.json blocks (what the report's tables and figures read).

Every field is optional (a row holds what its compute function wrote; a statistic that cannot be computed is
``null``) and unknown keys are kept, so these models check the types of the values, never require a key. Raw
scores are 0-100, grade points 0-18, rates and correlations as fractions / coefficients.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RowModel(BaseModel):
    """A row or cell of a block: typed fields, unknown keys kept."""

    model_config = ConfigDict(extra="allow")


# ---------------------------------------------------------------- RQ1


class MeanCell(RowModel):
    """A mean with its 95% percentile bootstrap interval; ``low`` / ``high`` / ``halfwidth`` null when n < 2."""

    mean: float | None = None
    low: float | None = None
    high: float | None = None
    halfwidth: float | None = None
    n: int | None = None


class Table2Row(RowModel):
    """A row of Appendix A Table 2: a system or a human group (``kind``), its judge and human-grader cells."""

    row: str
    kind: str | None = None
    n: int | None = None
    n_h: int | None = None
    raw: MeanCell | None = None
    grade_points: MeanCell | None = None
    pass_rate: MeanCell | None = None
    h_raw: MeanCell | None = None
    h_grade_points: MeanCell | None = None
    h_pass_rate: MeanCell | None = None
    judge_source: str | None = None
    judge_reason: str | None = None


class Table5Row(RowModel):
    """A row of Appendix A Table 5: per automatic metric the mean cell (null: no value in the data)."""

    row: str
    kind: str | None = None
    n: int | None = None
    metrics: dict[str, MeanCell | None] = Field(default_factory=dict)


class SystemMean(RowModel):
    """A heatmap row: the system, its display name and its mean raw over all generations."""

    system: str
    display: str | None = None
    mean: float | None = None


class TaskLabel(RowModel):
    """A heatmap column: the task, its short label and its legal area."""

    task_id: str
    label: str | None = None
    area: str | None = None


# ---------------------------------------------------------------- RQ2 / RQ3


class GroupCell(RowModel):
    """One group on one corpus: Benchathon ``{n_systems, n, mean, low, high, systems}`` (pooled generations,
    percentile bootstrap); ZJS / Grundprinzipien ``{n_systems, mean, min, max}`` (unweighted mean of system means)."""

    n_systems: int | None = None
    n: int | None = None
    mean: float | None = None
    low: float | None = None
    high: float | None = None
    min: float | None = None
    max: float | None = None
    systems: list[str] | None = None


class MetricCorrelation(RowModel):
    """One metric against the judge: ``n`` pairs (per generation) or ``n_systems`` (per system), Pearson and
    Spearman; per generation in a new study (a store) also Pearson's 95% interval over ``n_tasks`` tasks (whole
    tasks resampled), which the paper does not print."""

    n: int | None = None
    n_systems: int | None = None
    pearson: float | None = None
    spearman: float | None = None
    low: float | None = None
    high: float | None = None
    n_tasks: int | None = None


# ---------------------------------------------------------------- RQ4

Units = int | dict[str, int] | None


class EffectInterval(RowModel):
    """A 95% bootstrap interval of Delta (``estimate``, ``low``, ``high``) and its resampling units: ``n_clusters``
    per arm (cluster bootstraps), ``n_participants`` (paired), or ``n_units``."""

    estimate: float | None = None
    low: float | None = None
    high: float | None = None
    n_units: Units = None
    n_clusters: Units = None
    n_participants: Units = None


class AreaEffect(RowModel):
    """Delta in one legal area: ``n`` and ``mean`` per arm, ``delta`` with an i.i.d. bootstrap interval."""

    n: dict[str, int | None] = Field(default_factory=dict)
    mean: dict[str, float | None] = Field(default_factory=dict)
    delta: float | None = None
    low: float | None = None
    high: float | None = None


class Tost(RowModel):
    """Two one-sided tests of the co-creation mean against the flagship tier: the 90% interval of the difference
    and whether it lies inside ±``margin`` (raw points)."""

    a_n: int | None = None
    b_n: int | None = None
    delta: float | None = None
    low90: float | None = None
    high90: float | None = None
    margin: float | None = None
    equivalent: bool | None = None


class ArmMean(RowModel):
    """One group's mean raw with its 95% percentile bootstrap interval (Figure 1)."""

    n: int | None = None
    mean: float | None = None
    low: float | None = None
    high: float | None = None


# ---------------------------------------------------------------- RQ5 and extras


class IrrStats(RowModel):
    """ICC(2,1) / ICC(2,k) on raw and grade points, the mean within-pick spread and Krippendorff's alpha of one set
    of picks with ``k`` blind reviews each."""

    n: int | None = None
    k: int | None = None
    icc_2_1_raw: float | None = None
    icc_2_k_raw: float | None = None
    icc_2_1_gp: float | None = None
    icc_2_k_gp: float | None = None
    spread_raw: float | None = None
    spread_gp: float | None = None
    krippendorff_alpha_raw: float | None = None


class IccPair(RowModel):
    """ICC(2,1) and ICC(2,k) on one scale."""

    icc_2_1: float | None = None
    icc_2_k: float | None = None


class BalancedSubset(RowModel):
    """The picks reviewed by the modal set of ``raters`` (rater-id columns) and their ICCs."""

    raters: list[str] = Field(default_factory=list)
    n: int | None = None
    raw: IccPair | None = None
    grade_points: IccPair | None = None


class AnnotatorRow(RowModel):
    """The alt-test of one held-out annotator: its items ``n_j``, advantage probabilities ``rho_f`` (judge) and
    ``rho_h`` (annotator), mean difference ``d_bar``, the test, its p-value and the Benjamini-Yekutieli verdict."""

    grader: str | None = None
    n_j: int | None = None
    rho_f: float | None = None
    rho_h: float | None = None
    d_bar: float | None = None
    test: str | None = None
    statistic: float | None = None
    p_value: float | None = None
    rejected_BY: bool | None = None


class CalibrationRow(RowModel):
    """One judge (or primary-judge pass) and pool of Tables 15/16: the pool-substitution shift (``diff_*``, with
    Shapiro-Wilk, t and Wilcoxon) and the direct offset ``judge_minus_pool_*`` (paired t, Wilcoxon), raw points."""

    judge: str | None = None
    pool: str | None = None
    label: str | None = None
    n: int | None = None
    n_missing: int | None = None
    full_mean: float | None = None
    sub_mean: float | None = None
    diff_mean: float | None = None
    diff_sd: float | None = None
    diff_min: float | None = None
    diff_max: float | None = None
    sw_diff_W: float | None = None
    sw_diff_p: float | None = None
    ttest_t: float | None = None
    ttest_p: float | None = None
    wilcoxon_p: float | None = None
    judge_mean: float | None = None
    judge_minus_pool_mean: float | None = None
    judge_minus_pool_sd: float | None = None
    judge_minus_pool_min: float | None = None
    judge_minus_pool_max: float | None = None
    judge_pool_ttest_t: float | None = None
    judge_pool_ttest_p: float | None = None
    judge_pool_wilcoxon_p: float | None = None


class DimensionAgreement(RowModel):
    """The primary judge vs the mean blind points on one rubric dimension."""

    n: int | None = None
    pearson: float | None = None
    spearman: float | None = None
    mae: float | None = None
    mean_judge: float | None = None
    mean_blind: float | None = None


class JudgeRank(RowModel):
    """One judge's per-system means against the primary judge's: Spearman, Kendall tau-b, systems compared."""

    spearman: float | None = None
    kendall: float | None = None
    n_systems: int | None = None


class SystemPair(RowModel):
    """Two systems on their shared tasks: mean difference a - b with a paired bootstrap interval, the bootstrap p,
    its Holm-adjusted value and whether that is below 0.05."""

    a: str | None = None
    b: str | None = None
    n: int | None = None
    delta: float | None = None
    low: float | None = None
    high: float | None = None
    p_value: float | None = None
    p_holm: float | None = None
    significant: bool | None = None
    n_missing: int | None = None


class FeatureRho(RowModel):
    """One analyser feature against one target score: Spearman ``rho`` over ``n`` complete pairs with its bootstrap
    interval, the pairs ``dropped``, and the ``control`` of a partial rho."""

    feature: str
    target: str
    n: int | None = None
    rho: float | None = None
    low: float | None = None
    high: float | None = None
    dropped: int | None = None
    control: str | None = None
