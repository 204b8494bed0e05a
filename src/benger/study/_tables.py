"""Flat tables of a study for the organiser's downloads (CSV/JSON) and the inter-rater agreement view.

``submission_rows``: one row per participant and task (open, started, submitted or skipped), with the arm,
times and duration in seconds, the automatic flag, the skip reason, the AI tools named, the participant's
expertise (level, competence in the task's area, exam grade) and the pick code if the solution was picked.
``review_rows``: one row per review assignment with its latest review version. ``agreement``: per pick the
submitted blind totals (0-100 raw points) with mean, SD (sample, n-1) and range, and over all picks
Krippendorff's alpha (interval) and ICC(2,1) with the slots A/B/C as raters (benger.stats).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from benger.study._accounts import aware
from benger.study._models import Attempt, Pick, Review, ReviewAssignment, StudyUser, Submission
from benger.study._service import study_tasks

SUBMISSION_COLUMNS: tuple[str, ...] = (
    "participant", "task_id", "task_no", "area", "difficulty", "arm", "status", "started_at", "submitted_at",
    "duration_s", "auto_submitted", "skip_reason", "ai_tools", "expertise_level", "competence_in_area",
    "exam_grade", "pick",
)  # fmt: skip
REVIEW_COLUMNS: tuple[str, ...] = (
    "pick", "task_id", "provenance", "grader", "role", "slot", "status", "version", "total", "grade_points",
    "passed", "submitted_at",
)  # fmt: skip


def _iso(value: Any) -> str | None:
    return aware(value).isoformat() if value is not None else None


def submission_rows(session: Session, study_id: int) -> list[dict[str, Any]]:
    """One row per participant and task, in task order then pseudonym (columns: SUBMISSION_COLUMNS)."""
    tasks = {t.task_id: t for t in study_tasks(session, study_id)}
    users = {u.id: u for u in session.scalars(select(StudyUser))}
    subs = {(s.user_id, s.task_id): s for s in session.scalars(select(Submission).filter_by(study_id=study_id))}
    picked = {p.target_id: p.code for p in session.scalars(select(Pick).filter_by(study_id=study_id))}
    rows = []
    for a in session.scalars(select(Attempt).filter_by(study_id=study_id)):
        task, person, sub = tasks[a.task_id], users[a.user_id], subs.get((a.user_id, a.task_id))
        duration = None
        if sub is not None and sub.started_at is not None:
            duration = round((aware(sub.submitted_at) - aware(sub.started_at)).total_seconds(), 1)
        rows.append(
            {
                "participant": person.pseudonym,
                "task_id": a.task_id,
                "task_no": task.position + 1,
                "area": task.area,
                "difficulty": task.difficulty,
                "arm": a.arm,
                "status": a.status,
                "started_at": _iso(a.started_at),
                "submitted_at": _iso(sub.submitted_at) if sub else None,
                "duration_s": duration,
                "auto_submitted": sub.auto_submitted if sub else None,
                "skip_reason": a.skip_reason,
                "ai_tools": sub.ai_tools if sub else None,
                "expertise_level": person.expertise_level,
                "competence_in_area": (person.competence or {}).get(task.area),
                "exam_grade": person.exam_grade,
                "pick": picked.get(sub.id) if sub else None,
            }
        )
    return sorted(rows, key=lambda r: (r["task_no"], r["participant"]))


def review_rows(session: Session, study_id: int) -> list[dict[str, Any]]:
    """One row per review assignment with its latest version (columns: REVIEW_COLUMNS), by pick and slot."""
    picks = {p.id: p for p in session.scalars(select(Pick).filter_by(study_id=study_id))}
    users = {u.id: u for u in session.scalars(select(StudyUser))}
    latest: dict[int, Review] = {}
    for version in session.scalars(
        select(Review)
        .join(ReviewAssignment, ReviewAssignment.id == Review.assignment_id)
        .where(ReviewAssignment.study_id == study_id)
        .order_by(Review.version)
    ):
        latest[version.assignment_id] = version
    rows = []
    for a in session.scalars(select(ReviewAssignment).filter_by(study_id=study_id)):
        pick, review = picks[a.pick_id], latest.get(a.id)
        rows.append(
            {
                "pick": pick.code,
                "task_id": pick.task_id,
                "provenance": pick.provenance,
                "grader": users[a.grader_id].pseudonym,
                "role": a.role,
                "slot": a.slot,
                "status": review.status if review else "open",
                "version": review.version if review else None,
                "total": review.total if review else None,
                "grade_points": review.grade_points if review else None,
                "passed": review.passed if review else None,
                "submitted_at": _iso(review.submitted_at) if review else None,
            }
        )
    return sorted(rows, key=lambda r: (r["pick"], r["slot"]))


@dataclass(frozen=True)
class PickSpread:
    """The submitted blind totals of one pick (raw points 0-100) and their spread; None where undefined."""

    pick: str
    task_id: str
    provenance: str
    totals: tuple[float, ...]
    mean: float | None
    sd: float | None
    spread: float | None


@dataclass(frozen=True)
class Agreement:
    """Per-pick spreads and the agreement of the blind totals over picks (None where undefined)."""

    picks: list[PickSpread]
    alpha: float | None
    icc_2_1: float | None
    n_complete: int


def agreement(session: Session, study_id: int) -> Agreement:
    """Spread per pick and Krippendorff's alpha / ICC(2,1) over the submitted blind totals (latest versions)."""
    by_pick: dict[str, dict[str, float]] = {}
    meta: dict[str, tuple[str, str]] = {}
    for row in review_rows(session, study_id):
        meta[row["pick"]] = (row["task_id"], row["provenance"])
        if row["role"] == "blind" and row["status"] == "submitted" and row["total"] is not None:
            by_pick.setdefault(row["pick"], {})[row["slot"]] = float(row["total"])
    spreads = []
    for code in sorted(meta):
        totals = tuple(by_pick.get(code, {}).values())
        spreads.append(
            PickSpread(
                code,
                *meta[code],
                totals,
                statistics.fmean(totals) if totals else None,
                statistics.stdev(totals) if len(totals) >= 2 else None,
                max(totals) - min(totals) if len(totals) >= 2 else None,
            )
        )
    from benger.stats import icc2, krippendorff_alpha_interval  # scipy: only when a study's agreement is asked for

    units = [list(v.values()) for v in by_pick.values() if len(v) >= 2]
    alpha = krippendorff_alpha_interval(units) if len(units) >= 2 else None
    complete = [[v[s] for s in ("A", "B", "C")] for v in by_pick.values() if set(v) == {"A", "B", "C"}]
    icc = icc2(complete).icc_2_1 if len(complete) >= 2 else None
    return Agreement(spreads, alpha, icc, len(complete))
