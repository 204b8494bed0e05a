"""The records a study is made of and :class:`StudyContents`, the dataset every analysis reads.

The bottom of ``benger.analysis``: it imports no loader and no analysis. The loaders
(:mod:`benger.analysis._from_release`, :mod:`benger.analysis._from_store`) build a StudyContents from these
records; :class:`benger.analysis._study.StudyData` above them adds the constructors ``from_release`` /
``from_store``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from benger.judge import grade_points, passed

POOLS = ("human", "llm")
_CONDITIONS = {"human_traditional": "traditional", "human_co_creation": "co_creation"}


def short_grader(grader_id: str) -> str:
    """``grader_01@anonymized.benger.invalid`` -> ``grader_01``."""
    return grader_id.split("@", 1)[0]


@dataclass(frozen=True)
class SystemMeta:
    name: str
    display: str
    tier: str | None
    provider: str | None
    weights: str | None


class JsonDims(Mapping[str, float]):
    """Dimension points kept as their stored JSON text and decoded on first use: a store's generations carry
    them, but only the reviewed ones are read (RQ5 per dimension), so a large store decodes a few (issue 26).
    Compares equal to the dict it decodes to."""

    __slots__ = ("_text", "_value")

    def __init__(self, text: str | None) -> None:
        self._text = text
        self._value: dict[str, float] | None = None

    def _decoded(self) -> dict[str, float]:
        if self._value is None:
            self._value = dict(json.loads(self._text) or {}) if self._text else {}
            self._text = None
        return self._value

    def __getitem__(self, key: str) -> float:
        return self._decoded()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._decoded())

    def __len__(self) -> int:
        return len(self._decoded())

    def __repr__(self) -> str:
        return repr(self._decoded())


@dataclass(frozen=True, slots=True)  # a store may hold hundreds of thousands
class GenScore:
    """A generation with its primary-judge score; ``dims``: its primary judge's first-pass dimension points (read
    from a store for the reviewed generations only, the ones RQ5 compares; empty for the others)."""

    generation_id: str
    system: str
    task_id: str
    raw: float
    dims: Mapping[str, float]
    superseded: bool = False

    @property
    def grade_points(self) -> int:
        return grade_points(self.raw)

    @property
    def passed(self) -> bool:
        return passed(self.raw)


@dataclass(frozen=True)
class Solution:
    """A reviewed solution (validation pick): a human solution or an LLM generation."""

    solution_id: str
    pool: str  # "human" | "llm"
    solution_type: str  # human_traditional | human_co_creation | llm_system
    task_id: str
    area: str | None
    author: str | None  # participant id or system id
    pick_id: str | None = None

    @property
    def condition(self) -> str | None:
        return _CONDITIONS.get(self.solution_type)


@dataclass(frozen=True)
class ReviewRow:
    """One human review, in source order (``position``)."""

    solution_id: str
    grader: str
    role: str
    raw: float
    grade_points: int | None  # None: a rubric without a grade table (raw points only)
    passed: bool | None
    dims: dict[str, float]
    position: int


@dataclass(frozen=True)
class HumanAnnotation:
    """A participant's solution in the human study with its working condition and (if known) judge score."""

    annotation_id: str
    condition: str | None
    participant: str | None = None
    task_id: str | None = None
    area: str | None = None
    judge_raw: float | None = None


@dataclass(frozen=True)
class CorpusSummary:
    """Released per-system summary of a corpus without per-item scores (ZJS, Grundprinzipien)."""

    n: int
    n_generations: int
    mean: float
    sd: float
    pass_rate: float | None
    accuracy: float | None = None
    metrics: dict[str, float] = field(default_factory=dict)


@dataclass
class StudyContents:
    """Everything RQ1-RQ5 need, as built by the loaders; analyses never look at file layouts.

    :class:`benger.analysis._study.StudyData` is this class plus its two constructors (``from_release``,
    ``from_store``). The last four fields hold what only the release has and stay empty for a store:
    ``operational`` (``systems`` name -> settings, ``generation_counts`` name -> (all, final), ``words``
    (system, words) per final generation, ``per_call`` name -> Benchathon per-call log row, ``observed`` name ->
    sampling parameters seen in the log; paper Table 8), ``metrics_all`` (metric -> generation -> value,
    superseded generations included), ``human_metrics`` (metric -> annotation -> (condition, value)) and
    ``zjs_superseded_dropped`` (system -> ZJS generations the release dropped).
    """

    systems: dict[str, SystemMeta]
    task_areas: dict[str, str]
    generations: list[GenScore]
    solutions: dict[str, Solution]
    reviews: list[ReviewRow]
    judge_scores: dict[str, dict[str, float]]
    judge_labels: dict[str, str]
    primary_judge: str
    repeats: dict[str, tuple[float, ...]] = field(default_factory=dict)
    metrics: dict[str, dict[str, float]] = field(default_factory=dict)
    annotations: list[HumanAnnotation] = field(default_factory=list)
    zjs: dict[str, CorpusSummary] = field(default_factory=dict)
    grundprinzipien: dict[str, CorpusSummary] = field(default_factory=dict)
    judge_swap: dict[str, Any] = field(default_factory=dict)
    generation_judge_scores: dict[str, dict[str, float]] = field(default_factory=dict)
    solution_metrics: dict[str, dict[str, float]] = field(default_factory=dict)
    inputs: dict[str, Any] = field(default_factory=dict)
    #: For data read from a store: ``leaderboard(seed=..., n_resamples=...)`` gives the store's leaderboard
    #: (``benger.analysis.leaderboard_from_store`` with this data's metric signatures); None for the release.
    leaderboard: Callable[..., Any] | None = None
    operational: dict[str, Any] = field(default_factory=dict)
    metrics_all: dict[str, dict[str, float]] = field(default_factory=dict)
    human_metrics: dict[str, dict[str, tuple[str | None, float]]] = field(default_factory=dict)
    zjs_superseded_dropped: dict[str, int] = field(default_factory=dict)
    #: What the RQ3 / RQ4 bootstraps resample: ``generation`` (each generation, solution or annotation: the
    #: paper's rule, kept for the release and ``benger reproduce``) or ``task`` (whole tasks with all their
    #: generations, repetitions and solutions: a new study read from a store, ``benger analyze``), as the
    #: leaderboard does (issue 24).
    resampling_unit: Literal["generation", "task"] = "generation"
    #: The primary judge configuration's validation status as ``meta.judge_status`` holds it (judge,
    #: judge_config_hash, state, label, scores_meaningful: ``benger.analysis.leaderboard.validity.status_block``),
    #: set by both loaders; None: not known (hand-built data).
    judge_status: dict[str, Any] | None = None
    #: Reviewed solution id -> its rubric's total, only when the corpus is judged and reviewed under a user's own
    #: rubric (a store's; empty for the paper's rubrics): RQ5's judge-vs-pool then compares on percent of it
    #: (:mod:`benger.analysis._percent`).
    rubric_totals: dict[str, float] = field(default_factory=dict)
    #: Rubric id -> its total for the user's own rubrics of the corpus that are known (the run config's
    #: ``rubrics:`` given to ``benger analyze --rubric``, each task's own Bewertungsbogen): the leaderboard's
    #: scale ("raw score 0-30"); empty for the paper's rubrics.
    rubric_scales: dict[str, float] = field(default_factory=dict)
    #: Why ``annotations`` are only a sample of the study's human solutions (a store imported from the release
    #: holds its 30 validation picks, not the 220 solutions); None: they are every one. The per-annotation human
    #: estimates (Table 1's human rows, Appendix A Table 2, RQ4's ``judge``) then stay unavailable with this
    #: reason, as they do for the release itself; RQ4 computes the picks' effect as ``judge_picks``.
    human_sample: str | None = None

    # ------------------------------------------------------------ derived views
    def final_generations(self) -> list[GenScore]:
        return [g for g in self.generations if not g.superseded]

    def blind_reviews(self, pool: str | None = None) -> list[ReviewRow]:
        return [
            r
            for r in self.reviews
            if r.role == "blind" and (pool is None or self.solutions[r.solution_id].pool == pool)
        ]

    def creator_scores(self) -> dict[str, float]:
        """Mean creator raw per solution (one creator per pick in the release)."""
        acc: dict[str, list[float]] = {}
        for r in self.reviews:
            if r.role == "creator":
                acc.setdefault(r.solution_id, []).append(r.raw)
        return {k: sum(v) / len(v) for k, v in acc.items()}

    def pool_solutions(self, pool: str) -> list[str]:
        """Solution ids of a pool in first-appearance order of their reviews."""
        seen: dict[str, None] = {}
        for r in self.reviews:
            if self.solutions[r.solution_id].pool == pool:
                seen.setdefault(r.solution_id, None)
        return list(seen)

    def judges(self) -> list[str]:
        """Judge keys, primary first, then in data order."""
        rest = [j for j in self.judge_scores if j != self.primary_judge]
        return ([self.primary_judge] if self.primary_judge in self.judge_scores else []) + rest
