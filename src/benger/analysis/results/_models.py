"""Models of the results.json blocks of RQ1-RQ4, the extras, the departures and the top level.

Each model's docstring and field descriptions are the text of ``docs/results-schema.md`` (generated). Values that
cannot be computed are ``null``; raw scores are 0-100, grade points 0-18, rates fractions 0-1.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from benger.analysis.results._base import Block, Container
from benger.analysis.results._rows import (
    AreaEffect,
    ArmMean,
    EffectInterval,
    FeatureRho,
    GroupCell,
    MetricCorrelation,
    SystemMean,
    SystemPair,
    Table2Row,
    Table5Row,
    TaskLabel,
    Tost,
)

Row = dict[str, Any]


class JudgeStatusMeta(BaseModel):
    """The primary judge configuration's validation status (``benger.analysis.leaderboard.judge_status``), which
    every judge-based table of the report names (issue 24 item 4)."""

    judge: str = Field(description="judge name of the configuration that scored the generations")
    judge_config_hash: str | None = None
    state: str = Field(description="passes, failed, undefined or not validated")
    label: str = Field(description="e.g. 'validated on BenGER picks: ω = 0.60, passes'")
    scores_meaningful: bool = Field(description="false for a failed judge: its scores are not meaningful")


class Meta(BaseModel):
    """Run settings and input counts (not a statistic: no ``method``)."""

    model_config = ConfigDict(extra="allow")

    benger_version: str
    seed: int
    include_superseded: bool
    n_boot: int
    n_stacked: int
    primary_judge: str = Field(description="judge key of the primary judge (release: gpt54mini)")
    judges: list[str] = Field(description="every judge key of the data; nothing is hard-coded")
    judge_labels: dict[str, str]
    judge_status: JudgeStatusMeta | None = Field(None, description="the primary judge's validation status")
    pools: list[str] = Field(description="human (human-written picks) and llm (LLM picks)")
    inputs: dict[str, Any] = Field(
        description="n_tasks, n_generations, n_reviews, n_picks, n_human_solutions, n_annotations_without_solution, ..."
    )


class CorpusCell(BaseModel):
    """One corpus column of a leaderboard row (``bench``, ``zjs``, ``gp``): raw 0-100, rates 0-1."""

    model_config = ConfigDict(extra="allow")

    n: int | None = None
    n_judged: int | None = None
    raw: float | None = None
    low: float | None = None
    high: float | None = None
    halfwidth: float | None = None
    pass_rate: float | None = None
    pass_note: str | None = Field(None, description="why pass_rate is missing ('pass unknown: ...') or partial")
    grade_points: float | None = None
    acc: float | None = None
    source: str | None = None
    reason: str | None = None
    n_solutions: int | None = None
    human_raw: float | None = None
    human_pass_rate: float | None = None
    human_n_reviews: int | None = None


class LeaderboardRow(BaseModel):
    """A system row (``kind = "system"``) or a human baseline row (``kind = "human"``) of the leaderboard."""

    model_config = ConfigDict(extra="allow")

    system: str
    display: str | None = None
    kind: str = "system"
    tier: str | None = None
    provider: str | None = None
    weights: str | None = None
    rank: int | None = None
    sort_key: float | None = None
    bench: CorpusCell | None = None
    zjs: CorpusCell | None = None
    gp: CorpusCell | None = None
    judge: str | None = None
    judge_status: str | None = Field(default=None, description="the judge's validation status (rows of a store)")
    scores_meaningful: bool | None = Field(default=None, description="False: the judge failed its validation")


class LeftOutGroup(BaseModel):
    """A scored group of the primary judge that Table 1 leaves out, named (a mean over both would mix two scales):
    ``benger.analysis.leaderboard.table1.left_out_groups``."""

    model_config = ConfigDict(extra="allow")

    judge_group: str = Field(description="the group's label in `benger leaderboard`")
    rubric: str | None = Field(description="its rubric id")
    tasks: list[str] = Field(description="the cases whose own Bewertungsbogen it is (empty: another rubric or judge)")
    n: int = Field(description="its scored generations")
    reason: str = Field(description="one sentence naming it and why it is left out")


class Leaderboard(Block):
    """The leaderboard in the Table 1 layout: one row per system, then the human baseline rows.

    Row = ``{system, display, tier, provider, weights, rank, sort_key (mean of the available per-corpus means),
    bench: {n, raw, low, high, halfwidth, pass_rate, grade_points} | null, zjs: {n, n_judged, raw, low, high,
    halfwidth, pass_rate, source} | null, gp: {... , acc, source} | null, kind: "system"}``. For ZJS /
    Grundprinzipien ``n`` counts generations and ``n_judged`` those with a judge score (the n of the normal
    interval, clipped to 0-100). Human rows have ``kind: "human"``, ``system`` in human_all / human_traditional /
    human_co_creation (release: 220 / 65 / 155 in ``n_solutions``) and a ``bench`` block with ``source`` and the
    human graders' own ``human_raw`` / ``human_pass_rate``. ``pass_rate`` and ``acc`` are fractions 0-1.
    """

    rows: list[LeaderboardRow]
    left_out: list[LeftOutGroup] | None = Field(
        default=None, description="the primary judge's scored groups Table 1 leaves out (a store's study; else None)"
    )


class TaskSystem(Block):
    """Mean primary-judge raw per system and task (the heatmap): ``values[i][j]`` is system i on task j (or null),
    ``n[i][j]`` the generations behind it."""

    systems: list[SystemMean] = Field(description="[{system, display, mean}]")
    tasks: list[TaskLabel] = Field(description="[{task_id, label, area}]")
    values: list[list[float | None]]
    n: list[list[int]]


class OperationalRow(BaseModel):
    """One system of Table 8 (the typed columns the report prints; the others are kept as they are)."""

    model_config = ConfigDict(extra="allow")

    system: str
    provider: str | None = None
    tier: str | None = None
    weights: str | None = None
    temperature: float | None = None
    max_output_tokens: int | None = None
    generations: int | None = Field(None, description="Benchathon generations including superseded ones")
    truncated: int | None = None
    mean_latency_s: float | None = None
    mean_cost_usd: float | None = None
    mean_words: float | None = None


class Operational(Block):
    """Table 8: per system the released settings, truncation counts, latency, tokens and cost.

    Row = ``{system, provider, tier, weights, temperature, max_output_tokens, generations (incl. superseded),
    generations_final, truncated, truncated_per_call_log, mean_latency_s, median_latency_s, mean_cost_usd,
    total_cost_usd, n_with_cost, total_retries, mean_words, n_words, mean_words_matches_release,
    sampling_observed, source}``. ``benger analyze`` (a store) has no release metadata: ``source = "unavailable"``
    and no rows.
    """

    paper_tables: list[str] | None = None
    rows: list[OperationalRow] = Field(default_factory=list)


class AppendixASummaries(Block):
    """Appendix A Tables 3, 4 (rubric columns) and 6, 7 (metric columns, Grundprinzipien accuracy) per system
    from the released summaries, with analytic intervals (normal for the raw score, Wilson for shares); rows are
    ``{row, n, n_judged, raw, grade_points (null), pass_rate, accuracy?}`` / ``{row, n, metrics}`` with cells
    ``{mean, low, high, halfwidth, n}``."""

    paper_tables: list[str] | None = None
    table3: list[dict[str, Any]]
    table4: list[dict[str, Any]]
    table6: list[dict[str, Any]]
    table7: list[dict[str, Any]]


class AppendixA(Block):
    """Appendix A Tables 2 and 5: per row the mean with a 95% percentile bootstrap CI.

    ``table2``: ``[{row: system | human_traditional | human_co_creation, kind, n, n_h, raw | grade_points |
    pass_rate | h_raw | h_grade_points | h_pass_rate: Cell | null, judge_source, judge_reason}]``; the ``h_*``
    columns pool every human review of the row's picked solutions. ``table5``: ``[{row, kind, n, metrics: {metric:
    Cell | null}}]``. Cell = ``{mean, low, high, halfwidth, n}`` (low/high/halfwidth null when n < 2).
    """

    paper_tables: list[str] | None = None
    table2: list[Table2Row]
    table5: list[Table5Row]


class GroupAggregates(Block):
    """RQ2: tier / provider / weights aggregates and the gaps between tiers.

    ``benchathon.by_tier | by_provider | by_weights: {group: {n_systems, n, mean, low, high, systems}}`` (pooled
    generations, percentile bootstrap); ``zjs`` / ``grundprinzipien``: ``{group: {n_systems, mean, min, max}}``
    (unweighted mean of system means); ``gaps.<corpus>``: flagship_minus_open_reference, closed_minus_open,
    flagship_minus_efficiency; ``gap_ci.benchathon``: the same gaps as intervals (two-arm bootstrap) or null. The
    Benchathon bootstraps resample generations (reproduce) or whole tasks (a new study: ``inputs.resampling_unit``).
    """

    benchathon: dict[str, dict[str, GroupCell]]
    zjs: dict[str, dict[str, GroupCell]] = Field(default_factory=dict)
    grundprinzipien: dict[str, dict[str, GroupCell]] = Field(default_factory=dict)
    gaps: dict[str, dict[str, float | None]]
    gap_ci: dict[str, dict[str, Row | None]]


class MetricCorrelations(Block):
    """Pearson / Spearman of each automatic metric against the primary judge: ``metrics: {metric: {n | n_systems,
    pearson, spearman}}``. Per system, the metric mean is over the generations with the metric and the judge mean
    over all final generations."""

    metrics: dict[str, MetricCorrelation]


class MetricVsHuman(Block):
    """Each metric vs the mean blind raw per solution: ``metrics: {metric: {human_authored | llm_generated | pooled:
    {n, pearson, low, high, spearman}}}``; paired bootstrap, each cell's generator named_rng(seed,
    "rq3.metric_vs_human", metric, group); resampling unit the solution (the paper's rule, reproduce) or the task
    (a new study: ``inputs.resampling_unit``)."""

    metrics: dict[str, dict[str, Row]]


class ReleasedCorpusCorrelations(Container):
    """ZJS / Grundprinzipien: metric vs judge per system from the released summaries (automatic metrics only)."""

    per_system: MetricCorrelations


class MetricValidity(Container):
    """RQ3: automatic metrics vs the judge (per generation, per system, vs the blind human pool)."""

    per_generation: MetricCorrelations
    per_system: MetricCorrelations
    metric_vs_human: MetricVsHuman
    zjs: ReleasedCorpusCorrelations | None = None
    grundprinzipien: ReleasedCorpusCorrelations | None = None


class Effect(BaseModel):
    """A co-creation effect: ``n`` and ``mean`` per arm (traditional, co_creation), ``delta`` (co-creation minus
    traditional, raw) and ``delta_grade_points`` (delta * 0.18), the intervals iid / participant_cluster /
    task_cluster (Interval + n_clusters) / paired (n_participants), ``headline`` (which of them to quote:
    participant_cluster in reproduce, task_cluster in a new study, whose ``iid`` is null: not computed),
    ``by_area: {area: {n, mean, delta, low, high}}``, and for judge effects ``tost_vs_flagship: {a_n, b_n, delta,
    low90, high90, margin, equivalent}``."""

    model_config = ConfigDict(extra="allow")

    n: dict[str, int]
    mean: dict[str, float | None]
    delta: float | None
    delta_grade_points: float | None = None
    headline: Literal["participant_cluster", "task_cluster"] | None = Field(
        None, description="the interval to quote; the others are robustness checks"
    )
    iid: EffectInterval | None = None
    participant_cluster: EffectInterval | None = None
    task_cluster: EffectInterval | None = None
    paired: EffectInterval | None = None
    by_area: dict[str, AreaEffect] = Field(default_factory=dict)
    tost_vs_flagship: Tost | None = None
    arms: dict[str, ArmMean] | None = Field(None, description="per arm {n, mean, low, high}: 95% percentile bootstrap")


class BlindHumanEffect(Effect, Block):
    """The co-creation effect measured by the blind human pool: per human pick the mean blind raw."""


class CoCreation(Block):
    """RQ4: Delta = mean(co-creation) - mean(traditional) with iid, cluster and paired bootstraps and a TOST against
    the flagship tier; in a new study (``inputs.resampling_unit`` task) the per-area deltas, the TOST, the arms and
    the AI groups resample whole tasks (``n_tasks``), in reproduce single observations (the paper's rule). With
    the release only, ``source`` is unavailable and ``judge`` null (the primary-judge scores of the 220 human
    solutions are not released); ``judge_picks`` (the validation picks) and ``blind_human`` are computed. So
    for a store imported from the release (it holds the 30 picks only; ``reason`` says so)."""

    judge: Effect | None = Field(description="all human solutions with a condition have a judge score")
    judge_picks: Effect | None = Field(description="otherwise: only the solutions that have one")
    blind_human: BlindHumanEffect | None
    ai: dict[str, ArmMean] = Field(
        default_factory=dict,
        description="pooled / flagship: {n, mean, low, high} of the final LLM generations' judge raws (Figure 1)",
    )


class PairedSystems(Block):
    """Every pair of systems: paired bootstrap CI of the mean per-task score difference over shared tasks and a
    sign-flip p-value, Holm-corrected.

    ``pairs: [{a, b, n, delta, low, high, p_value, p_holm, significant, n_missing, test, correction}]``
    (``n_missing``: shared tasks dropped for a missing score; ``test``: exact or monte carlo)."""

    pairs: list[SystemPair]


class KrippendorffAlpha(Block):
    """Krippendorff's alpha (interval metric) of the blind reviews per solution, raw and grade points."""

    raw: float | None
    grade_points: float | None


class DepartureItem(BaseModel):
    """One departure: ``kind`` superseded_not_released | superseded_excluded | interval_method | evaluation_rule |
    partial_release | unavailable | monte_carlo, where (``item``), the printed and benger counts where they differ,
    and the ``cause``."""

    model_config = ConfigDict(extra="allow")

    kind: str
    item: str
    printed: int | float | None = None
    benger: int | float | None = None
    cause: str | None = None


class Departures(Block):
    """Where the numbers differ from the printed paper, and what the inputs cannot give.

    ``items: [{kind, item, printed, benger, cause}]``, ``counts: {kind: items}``: the ZJS rows whose printed n
    counts superseded generations the release does not hold (superseded_not_released), the Benchathon rows without
    the superseded generations the paper counts (superseded_excluded), the analytic interval of Tables 3/4
    (interval_method), Table 3's first-evaluation rule (evaluation_rule), human metric means from a released
    subset (partial_release), every block with ``source`` (or ``judge_source``) unavailable and its reason
    (unavailable), and the note on bootstrap Monte-Carlo noise (monte_carlo)."""

    items: list[DepartureItem]


class GutachtenValidity(Block):
    """``benger reproduce`` only (added by the report layer): the Gutachtenstil analyser's features against the
    primary judge's and the blind pool's scores on the released picks (Spearman rho, paired bootstrap CI), and the
    partial rho controlling for the word count. ``rows`` / ``partial_on_words``: ``[{feature, target, n, rho, low,
    high, dropped, control}]``."""

    rows: list[FeatureRho]
    partial_on_words: list[FeatureRho] = Field(default_factory=list)


class Provenance(BaseModel):
    """Added by ``benger reproduce`` / ``benger analyze``: where the inputs came from. ``files``: every input file
    ``{path, bytes, sha256}`` (release: all of data/**; SQLite: the db)."""

    model_config = ConfigDict(extra="allow")

    source: str = Field(description="release | store")
    location: str = Field(description="path or URL with the password masked")
    command: str
    files: list[Row]
