"""Typed records of the official BenGER release (what :func:`benger.corpora.load_release` returns)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benger.schema import Corpus, Generation, HumanReview, Judgement, SystemConfig


@dataclass(frozen=True)
class Pick:
    """One of the 45 validation picks (a human solution or an LLM generation) with its text."""

    pick_id: str
    task_inner_id: int
    task_id: str
    area: str
    difficulty: str
    provenance: str
    subject_type: str
    subject_id: str
    system_label: str | None
    participant: str | None
    text: str


@dataclass(frozen=True)
class Assignment:
    """Which grader reviews which pick, in which role."""

    pick_id: str
    grader: str
    role: str
    pass_label: str


@dataclass(frozen=True)
class JudgeRepeat:
    """Config A: the primary judge run three more times on one generation."""

    generation_id: str
    raw_scores: tuple[float, ...]


@dataclass(frozen=True)
class MetricRow:
    """One automatic metric value of one generation (``superseded`` for the April generations)."""

    system: str
    task_id: str
    generation_id: str
    metric: str
    value: float
    superseded: bool = False


@dataclass(frozen=True)
class HumanMetricRow:
    annotation_id: str
    metric: str
    value: float
    variant: str | None


@dataclass(frozen=True)
class AnchorRow:
    """A per-pick judge score with the pick's creator grade (``creator_calibration_anchors.csv``)."""

    judge: str
    judge_label: str
    solution_id: str
    pool: str
    y_judge: float
    y_creator: float


@dataclass(frozen=True)
class SystemInfo:
    config: SystemConfig
    raw: dict[str, Any]


@dataclass(frozen=True)
class Release:
    """Everything of the release that benger uses, validated and typed."""

    path: Path
    benchathon: Corpus
    grundprinzipien: Corpus
    picks: tuple[Pick, ...]
    assignments: tuple[Assignment, ...]
    reviews: tuple[HumanReview, ...]
    generations: tuple[Generation, ...]
    judgements: tuple[Judgement, ...]
    superseded_ids: frozenset[str]
    judge_repeats: tuple[JudgeRepeat, ...]
    metrics: tuple[MetricRow, ...]
    instruction_variants: dict[str, str | None]
    human_metrics: tuple[HumanMetricRow, ...]
    anchors: tuple[AnchorRow, ...]
    judge_swap: dict[str, Any]
    zjs_summary: tuple[dict[str, Any], ...]
    gp_summary: tuple[dict[str, Any], ...]
    systems: tuple[SystemInfo, ...]
    generation_stats: tuple[dict[str, Any], ...]
    operational_metadata: dict[str, Any] = field(default_factory=dict)
    #: the paper's six judges' raw scores of the picks (``anchors``): of the human solutions, and the five
    #: non-primary judges' of the LLM picks' generations
    pick_judgements: tuple[Judgement, ...] = ()
