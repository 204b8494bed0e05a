"""Pure validation picks: the median-expertise human per task and arm, and a tier-balanced LLM rotation.

Human picks: each participant's expertise proxy in an area is the mean of the available z-scores of the
self-assessed competence in that area and of the first state-exam grade (both standardised over the
participants who submitted in the area; a constant column gives z = 0). Per area and arm the median
proxy is taken over the participants who submitted in that area and arm; per task the pick is the
submitter whose proxy is closest to it (ties: participant id, then solution id).

LLM picks: tasks in the given order cycle through the tiers (flagship, efficiency, open_reference); a
task uses the next tier that has an eligible generation for it. Within the tier the system with the
fewest picks so far wins (ties: system name). Generations without text (the release holds scores of some
generations whose text is missing), under ``min_tokens`` output tokens, or with an unknown token count,
are excluded: a grader must never be shown a blank solution.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

DEFAULT_TIERS: tuple[str, ...] = ("flagship", "efficiency", "open_reference")
MIN_OUTPUT_TOKENS = 200


@dataclass(frozen=True)
class Expertise:
    """Self-assessment of a participant: competence per area (Likert) and the optional exam grade."""

    participant_id: str
    competence: Mapping[str, float]
    exam_grade: float | None = None


@dataclass(frozen=True)
class HumanCandidate:
    """A submitted human solution that may be picked."""

    solution_id: str
    participant_id: str
    task_id: str
    area: str
    arm: str


@dataclass(frozen=True)
class HumanPick:
    task_id: str
    arm: str
    solution_id: str
    participant_id: str
    score: float
    median: float


@dataclass(frozen=True)
class LlmCandidate:
    """A generation that may be picked."""

    generation_id: str
    task_id: str
    system: str
    tier: str | None
    output_tokens: int | None
    has_text: bool


@dataclass(frozen=True)
class LlmPick:
    task_id: str
    generation_id: str
    system: str
    tier: str


def _z(values: Mapping[str, float]) -> dict[str, float]:
    if not values:
        return {}
    mean = statistics.fmean(values.values())
    sd = statistics.pstdev(values.values())
    return {k: 0.0 if sd == 0 else (v - mean) / sd for k, v in values.items()}


def expertise_scores(people: Sequence[Expertise], area: str) -> dict[str, float]:
    """The expertise proxy of each person in ``area`` (mean of the z of competence and, if given, exam grade)."""
    competence = _z({p.participant_id: float(p.competence[area]) for p in people if area in p.competence})
    grade = _z({p.participant_id: float(p.exam_grade) for p in people if p.exam_grade is not None})
    scores: dict[str, float] = {}
    for person in people:
        parts = [d[person.participant_id] for d in (competence, grade) if person.participant_id in d]
        scores[person.participant_id] = statistics.fmean(parts) if parts else 0.0
    return scores


def pick_humans(candidates: Sequence[HumanCandidate], expertise: Mapping[str, Expertise]) -> list[HumanPick]:
    """One pick per (task, arm) that has submissions: the submitter closest to the area-and-arm median."""
    picks: list[HumanPick] = []
    for area in sorted({c.area for c in candidates}):
        in_area = [c for c in candidates if c.area == area]
        people = [expertise.get(pid, Expertise(pid, {})) for pid in sorted({c.participant_id for c in in_area})]
        scores = expertise_scores(people, area)
        for arm in sorted({c.arm for c in in_area}):
            pool = [c for c in in_area if c.arm == arm]
            median = statistics.median(scores[pid] for pid in sorted({c.participant_id for c in pool}))
            for task in sorted({c.task_id for c in pool}):
                best = min(
                    (c for c in pool if c.task_id == task),
                    key=lambda c: (abs(scores[c.participant_id] - median), c.participant_id, c.solution_id),
                )
                picks.append(
                    HumanPick(task, arm, best.solution_id, best.participant_id, scores[best.participant_id], median)
                )
    return picks


def pick_llm(
    task_order: Sequence[str],
    candidates: Sequence[LlmCandidate],
    tiers: Sequence[str] = DEFAULT_TIERS,
    min_tokens: int = MIN_OUTPUT_TOKENS,
) -> list[LlmPick]:
    """One generation per task by the tier rotation and the per-system load counter (see module doc)."""
    eligible = [
        c
        for c in candidates
        if c.has_text and c.output_tokens is not None and c.output_tokens >= min_tokens and c.tier in tiers
    ]
    load: Counter[str] = Counter()
    picks: list[LlmPick] = []
    for index, task in enumerate(task_order):
        for step in range(len(tiers)):
            tier = tiers[(index + step) % len(tiers)]
            options = [c for c in eligible if c.task_id == task and c.tier == tier]
            if options:
                best = min(options, key=lambda c: (load[c.system], c.system, c.generation_id))
                load[best.system] += 1
                picks.append(LlmPick(task, best.generation_id, best.system, tier))
                break
    return picks
