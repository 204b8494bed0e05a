"""StudyData: the in-memory dataset that every analysis reads, and the records it holds.

This module imports no loader: :mod:`benger.analysis._from_release` and :mod:`benger.analysis._from_store` build
a StudyData from it, and :mod:`benger.analysis._data` hands those two builders to
``StudyData.from_release`` / ``StudyData.from_store`` (:func:`set_loaders`), so the class offers both
constructors without importing the modules that import it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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


@dataclass(frozen=True)
class GenScore:
    """A generation with its primary-judge score."""

    generation_id: str
    system: str
    task_id: str
    raw: float
    dims: dict[str, float]
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
    grade_points: int
    passed: bool
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
class StudyData:
    """Everything RQ1-RQ5 need; analyses never look at file layouts."""

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

    # ------------------------------------------------------------ constructors
    @classmethod
    def from_release(cls, path: str | Path) -> StudyData:
        """Build the dataset from the official release folder (see ``benger.corpora.load_release``).

        Raises whatever the release loader raises (``benger.errors`` input errors for a missing or malformed
        release)."""
        return _loader("release")(path)

    @classmethod
    def from_store(
        cls,
        store: Any,
        *,
        corpus: str = "benchathon",
        primary_judge: str | None = None,
        metric_signatures: Mapping[str, str] | None = None,
    ) -> StudyData:
        """Build the dataset from a ``benger.store.Store`` (one Falllösung corpus plus ZJS/GP summaries); one
        signature per metric (``metric_signatures`` or each metric's most frequent one)."""
        return _loader("store")(store, corpus=corpus, primary_judge=primary_judge, metric_signatures=metric_signatures)


#: The builders behind ``StudyData.from_release`` / ``from_store``, by source; set once by
#: :mod:`benger.analysis._data`, which the package ``benger.analysis`` imports (so any import of this module,
#: which runs the package first, finds them set).
_LOADERS: dict[str, Callable[..., StudyData]] = {}


def set_loaders(*, release: Callable[..., StudyData], store: Callable[..., StudyData]) -> None:
    """Register the functions that build a StudyData from a release folder and from a store."""
    _LOADERS.update(release=release, store=store)


def _loader(source: str) -> Callable[..., StudyData]:
    try:
        return _LOADERS[source]
    except KeyError:  # only when benger.analysis._data was never imported, which importing this module prevents
        raise RuntimeError(f"no StudyData loader for {source!r}: import benger.analysis first") from None
