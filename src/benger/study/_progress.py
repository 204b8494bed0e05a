"""The organiser's views of a study: progress per participant and per grader, coverage of the picks, and the
graders' problem reports (recorded here too)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from benger.store import Store
from benger.study._accounts import now_utc
from benger.study._errors import StudyError
from benger.study._models import (
    Attempt,
    Pick,
    ProblemReport,
    Review,
    ReviewAssignment,
    StudyUser,
    Submission,
)
from benger.study._review import my_assignment
from benger.study._service import remaining_s, study_tasks


@dataclass
class ParticipantProgress:
    """One participant: attempts by state, automatic submissions, skips per arm, seconds left on a running task."""

    username: str
    pseudonym: str
    tasks: int = 0
    open: int = 0
    started: int = 0
    submitted: int = 0
    auto_submitted: int = 0
    skipped: int = 0
    skipped_by_arm: Counter[str] = field(default_factory=Counter)
    time_left_s: float | None = None


@dataclass
class GraderProgress:
    """One grader: assigned reviews, those with a draft (not yet submitted), submitted ones."""

    username: str
    assigned: int = 0
    drafted: int = 0
    submitted: int = 0


def participant_progress(session: Session, study_id: int, now: datetime | None = None) -> list[ParticipantProgress]:
    """Every enrolled participant's progress (sorted by user name); time left is the running task's, in s."""
    now = now or now_utc()
    users = {u.id: u for u in session.scalars(select(StudyUser))}
    rows: dict[int, ParticipantProgress] = {}
    for attempt in session.scalars(select(Attempt).filter_by(study_id=study_id)):
        user = users[attempt.user_id]
        row = rows.setdefault(user.id, ParticipantProgress(user.username, user.pseudonym))
        row.tasks += 1
        if attempt.status == "open":
            row.open += 1
        elif attempt.status == "started":
            row.started += 1
            left = remaining_s(attempt, now)
            if left is not None:
                row.time_left_s = left if row.time_left_s is None else min(row.time_left_s, left)
        elif attempt.status == "skipped":
            row.skipped += 1
            row.skipped_by_arm[attempt.arm] += 1
    for sub in session.scalars(select(Submission).filter_by(study_id=study_id)):
        if sub.user_id in rows:
            rows[sub.user_id].submitted += 1
            rows[sub.user_id].auto_submitted += int(sub.auto_submitted)
    return sorted(rows.values(), key=lambda r: r.username)


def grader_progress(session: Session, study_id: int) -> list[GraderProgress]:
    """Every assigned grader's review counts (sorted by user name)."""
    users = {u.id: u for u in session.scalars(select(StudyUser))}
    latest: dict[int, str] = {}
    for review in session.scalars(
        select(Review)
        .join(ReviewAssignment, ReviewAssignment.id == Review.assignment_id)
        .where(ReviewAssignment.study_id == study_id)
        .order_by(Review.version)
    ):
        latest[review.assignment_id] = review.status
    rows: dict[int, GraderProgress] = {}
    for a in session.scalars(select(ReviewAssignment).filter_by(study_id=study_id)):
        row = rows.setdefault(a.grader_id, GraderProgress(users[a.grader_id].username))
        row.assigned += 1
        state = latest.get(a.id)
        row.drafted += state == "draft"
        row.submitted += state == "submitted"
    return sorted(rows.values(), key=lambda r: r.username)


def coverage(session: Session, study_id: int) -> dict[str, dict[str, Counter[str]]]:
    """Picks, assignments and submitted reviews counted by provenance, area and difficulty."""
    tasks = {t.task_id: t for t in study_tasks(session, study_id)}
    picks = {p.id: p for p in session.scalars(select(Pick).filter_by(study_id=study_id))}
    out: dict[str, dict[str, Counter[str]]] = {
        k: {"picks": Counter(), "reviews_assigned": Counter(), "reviews_submitted": Counter()}
        for k in ("provenance", "area", "difficulty")
    }

    def keys(pick: Pick) -> dict[str, str]:
        task = tasks[pick.task_id]
        return {"provenance": pick.provenance, "area": task.area, "difficulty": task.difficulty or "-"}

    for pick in picks.values():
        for dim, key in keys(pick).items():
            out[dim]["picks"][key] += 1
    done = {r.assignment_id for r in session.scalars(select(Review).where(Review.status == "submitted"))}
    for a in session.scalars(select(ReviewAssignment).filter_by(study_id=study_id)):
        for dim, key in keys(picks[a.pick_id]).items():
            out[dim]["reviews_assigned"][key] += 1
            if a.id in done:
                out[dim]["reviews_submitted"][key] += 1
    return out


def report_problem(store: Store, assignment_id: int, user_id: int, text: str) -> None:
    """Record the grader's report of a problem with the solution of their assignment (1-2000 characters)."""
    text = text.strip()
    if not text:
        raise StudyError("Bitte beschreiben Sie das Problem.", field="text")
    with store.session() as session:
        my_assignment(session, assignment_id, user_id)
        session.add(ProblemReport(assignment_id=assignment_id, text=text[:2000], created_at=now_utc()))


def problem_reports(session: Session, study_id: int) -> list[tuple[str, str, str]]:
    """(pick code, grader name, text) of every problem report of a study, oldest first."""
    rows = session.execute(
        select(Pick.code, StudyUser.username, ProblemReport.text)
        .join(ReviewAssignment, ReviewAssignment.id == ProblemReport.assignment_id)
        .join(Pick, Pick.id == ReviewAssignment.pick_id)
        .join(StudyUser, StudyUser.id == ReviewAssignment.grader_id)
        .where(ReviewAssignment.study_id == study_id)
        .order_by(ProblemReport.id)
    )
    return [(code, name, text) for code, name, text in rows]
