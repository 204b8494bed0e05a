"""The containers of results.json (levels that only group blocks) and the top-level model ``Results``."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from benger.analysis.results._base import Container
from benger.analysis.results._models import (
    AppendixA,
    CoCreation,
    Departures,
    GroupAggregates,
    GutachtenValidity,
    KrippendorffAlpha,
    Leaderboard,
    Meta,
    MetricValidity,
    Operational,
    PairedSystems,
    Provenance,
    TaskSystem,
)
from benger.analysis.results._models_rq5 import (
    AltTest,
    Calibration,
    CreatorCalibration,
    CreatorVsBlind,
    InterJudgeRank,
    IntraJudge,
    Irr,
    JudgeSwap,
    JudgeVsPool,
    PerDimension,
)


class RQ1(Container):
    """RQ1: the leaderboard and Appendix A."""

    leaderboard: Leaderboard
    task_system: TaskSystem | None = None
    operational: Operational
    appendix_a: dict[str, AppendixA] = Field(description="final and with_superseded (the paper prints the second)")


class RQ5(Container):
    """RQ5: judge validity. ``judge_vs_pool`` / ``alt_test``: ``{judge: {pool: block}}``; ``single_expert``:
    ``{judge: {pool: {eps: AltTest}}}``."""

    judge_vs_pool: dict[str, dict[str, JudgeVsPool]]
    irr: Irr
    alt_test: dict[str, dict[str, AltTest]]
    single_expert: dict[str, dict[str, dict[str, AltTest]]]
    calibration: Calibration
    per_dimension: PerDimension
    creator_vs_blind: CreatorVsBlind
    intra_judge: IntraJudge
    inter_judge_rank: InterJudgeRank
    judge_swap: JudgeSwap
    creator_calibration: CreatorCalibration


class Extras(Container):
    """Further comparisons."""

    paired_systems: PairedSystems
    krippendorff_alpha: KrippendorffAlpha


class Results(BaseModel):
    """The whole of results.json. Every level keeps unknown keys (statistics registered by plugins)."""

    model_config = ConfigDict(extra="allow")

    meta: Meta
    rq1: RQ1
    rq2: GroupAggregates
    rq3: MetricValidity
    rq4: CoCreation
    rq5: RQ5
    extras: Extras
    departures: Departures
    gutachten_validity: GutachtenValidity | None = None
    provenance: Provenance | None = None
