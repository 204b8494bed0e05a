"""Pydantic models of the release files, one per record kind: each file is validated whole before use.

Strict types (a number written as text, ``"viele"``, is an error, never converted), finite numbers only,
and lists where the release has lists (``raw_model_ids: "abc"`` is not read as the model ``"a"``). Fields the
loader does not use are allowed and kept untouched. Shapes follow the release's data/README (Dataset_ARR).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from benger.schema import normalise_answer, normalise_area, score_problem

Text = Annotated[str, Field(min_length=1)]
AreaText = Annotated[str, AfterValidator(normalise_area)]
AnswerText = Annotated[str, AfterValidator(normalise_answer)]
Number = Annotated[float, Field(allow_inf_nan=False)]
Count = Annotated[int, Field(ge=0)]


class _Record(BaseModel):
    model_config = ConfigDict(strict=True, extra="allow", allow_inf_nan=False, frozen=True)


# -- interim -----------------------------------------------------------------------------------------------
class BenchathonCase(_Record):
    """``interim/benchathon.json``: one exam case (area, facts, model solution)."""

    bereich: AreaText
    sachverhalt: Text
    musterlösung: Text


class PrincipleRecord(_Record):
    """``interim/grundprinzipien.json``: one Grundprinzipien item (Ja/Nein answer with reasoning)."""

    Bereich: AreaText
    fall: Text
    task: Text
    binary_solution: AnswerText
    reasoning: Text
    Grundprinzip: str | None = None
    Autoren: str | None = None


class PickRecord(_Record):
    """One of the 45 picks in ``interim/benchathon_human_grading_sample.json``."""

    pick_id: Text
    task_inner_id: Annotated[int, Field(ge=1)]
    bereich: Text
    difficulty: str | None = None
    provenance: Text
    subject_type: Text
    subject_id: Text
    system: str | None = None
    user_pseudonym: str | None = None
    submission_text: str


class AssignmentRecord(_Record):
    """One grader assignment in the grading sample."""

    pick_id: Text
    reviewer_name: Text
    reviewer_role: Text
    pass_: str | None = Field(default=None, alias="pass")


class GradingSample(_Record):
    """``interim/benchathon_human_grading_sample.json``: the picks and who reviews them."""

    picks: list[PickRecord] = Field(min_length=1)
    assignments: list[AssignmentRecord] = Field(min_length=1)


# -- processed ---------------------------------------------------------------------------------------------
class _Scored(_Record):
    """A rubric score: the dimensions (each within its maximum; context ``maxima``) and their sum."""

    dimensions: dict[str, Annotated[float, Field(ge=0, allow_inf_nan=False)]]
    raw_score: Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)]
    grade_points: Annotated[int, Field(ge=0, le=18)]
    passed: bool

    @field_validator("dimensions")
    @classmethod
    def _within_maxima(cls, dims: dict[str, float], info: ValidationInfo) -> dict[str, float]:
        maxima: dict[str, float] = (info.context or {}).get("maxima", {})
        if maxima and set(dims) != set(maxima):
            missing, extra = sorted(set(maxima) - set(dims)), sorted(set(dims) - set(maxima))
            raise ValueError(f"unexpected dimension set (missing: {missing}, extra: {extra})")
        problem = score_problem(dims, None, maxima or None)
        if problem:
            raise ValueError(problem[1])
        return dims

    @field_validator("raw_score")
    @classmethod
    def _is_the_sum(cls, raw: float, info: ValidationInfo) -> float:
        dims = info.data.get("dimensions")
        problem = score_problem(dims, raw) if dims is not None else None
        if problem:
            raise ValueError(problem[1].replace("total", "raw_score", 1))
        return raw


class GradeRecord(_Scored):
    """``processed/benchathon_human_grades.json``: one human review of a pick."""

    solution_id: Text
    solution_type: Text
    system_or_user: str | None = None
    task_id: Text
    bereich: str | None = None
    grader_id: Text
    role: Literal["blind", "creator"]


class EvaluationRecord(_Scored):
    """``processed/benchathon_model_evaluations.json`` (and the superseded file): one judged generation."""

    system: Text
    task_id: Text
    generation_id: Text
    output_tokens: Count | None = None


class SystemRecord(_Record):
    """``processed/systems.json``: one evaluated system."""

    model_id: Text
    raw_model_ids: list[Text] | None = Field(default=None, min_length=1)
    name: str | None = None
    provider: Text
    weights: Text
    tier: Text
    temperature: Annotated[float, Field(ge=0, le=2, allow_inf_nan=False)] | None = None
    max_output_tokens: Annotated[int, Field(ge=1)] | None = None
    repetitions: Annotated[int, Field(ge=1)] | None = None


class RepeatRecord(_Record):
    """``processed/benchathon_human_judge_repeats.json``: the primary judge rerun on one generation."""

    generation_id: Text
    raw_scores: list[Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)]] = Field(min_length=1)


class MetricRecord(_Record):
    """``processed/benchathon_automatic_metrics.json`` (and the superseded file): one metric value."""

    system: Text
    task_id: Text
    generation_id: Text
    metric: Text
    value: Number


class HumanMetricRecord(_Record):
    """``processed/benchathon_human_automatic_metrics.json``: one metric value of a human solution."""

    annotation_id: Text
    metric: Text
    value: Number
    variant: str | None


class _SummaryMetrics(_Record):
    __pydantic_extra__: dict[str, Number | None] = Field(init=False)


class _ZjsMetrics(_SummaryMetrics):
    llm_judge_falloesung_raw_mean: Number


class _PrincipleMetrics(_SummaryMetrics):
    judge_raw_mean: Number


class ZjsSummaryRecord(_Record):
    """``processed/zjs_model_summary.json``: one system's means over the ZJS corpus."""

    system: Text
    metrics: _ZjsMetrics


class PrincipleSummaryRecord(_Record):
    """``processed/grundprinzipien_model_summary.json``: one system's means over the Grundprinzipien."""

    system: Text
    metrics: _PrincipleMetrics


class SwapCell(_Record):
    """One judge's statistics of one system on the cells every judge scored."""

    n: Count
    mean_raw: Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)]
    pass_rate: Annotated[float, Field(ge=0, le=1, allow_inf_nan=False)]


class SwapRankAgreement(_Record):
    n_systems: Count


class SwapMeta(_Record):
    primary_judge: Text


class JudgeSwap(_Record):
    """``processed/benchathon_judge_swap.json``: per judge and system, n, mean raw and pass rate (raw >= 50) on the
    generations all six judges scored; each judge's rank agreement with the primary judge."""

    coverage: dict[str, Count]
    per_judge_per_system: dict[str, dict[str, SwapCell]]
    system_rank_agreement: dict[str, SwapRankAgreement] = Field(default_factory=dict)
    meta: SwapMeta = Field(alias="_meta")


class GenerationStat(_Record):
    """``processed/benchathon_generations_stats.json``: the word count of one generation."""

    model: Text
    task: Text
    words: Count


class AnchorRecord(BaseModel):
    """``processed/csv/creator_calibration_anchors.csv``: a per-pick judge score and the creator's grade.

    CSV cells are text, so numbers are parsed from it (lax mode); NaN and Infinity are still rejected.
    """

    model_config = ConfigDict(extra="allow", allow_inf_nan=False, frozen=True)
    judge: Text
    judge_label: Text
    solution_id: Text
    pool: Text
    y_judge: Number
    y_creator: Number
