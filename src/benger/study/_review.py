"""Rubric reviews of a study, on the store (the picks and the assignment they review: ``benger.study._draw``).

Reviews are versioned: the latest version of an assignment is a draft (autosaved, editable) or
submitted (immutable). A correction opens a new draft version that names the version it supersedes.
The latest submitted version of each assignment is mirrored into the core store as one ``HumanReview``.
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from benger.judge import Rubric, falloesung_rubric
from benger.judge._rubric import rubric_from_data
from benger.schema import FalloesungTask, HumanReview, PrincipleItem
from benger.store import Store
from benger.study._accounts import now_utc
from benger.study._errors import AlreadySubmitted, StudyError, de_number
from benger.study._models import (
    Pick,
    Review,
    ReviewAssignment,
    Study,
    StudyTask,
    StudyUser,
    Submission,
)
from benger.study._state import require_state


@dataclass
class Scored:
    dimensions: dict[str, float]
    justifications: dict[str, str]
    total: float | None
    grade_points: int | None
    passed: bool | None


def score(rubric: Rubric, dimensions: dict[str, Any], justifications: dict[str, str], complete: bool) -> Scored:
    """Validate points (0..max in the rubric's steps) and compute the total, grade points and pass.

    A draft (``complete=False``) may leave dimensions empty; a submission needs every dimension and a
    justification for each.
    """
    parsed: dict[str, float] = {}
    for dim in rubric.dimensions:
        raw = dimensions.get(dim.key)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            if complete:
                raise StudyError("{label}: Punkte fehlen", field=dim.key, label=dim.label)
            continue
        try:
            value = float(str(raw).replace(",", "."))
        except ValueError as exc:
            raise StudyError("{label}: {value} ist keine Zahl", field=dim.key, label=dim.label, value=raw) from exc
        step = rubric.step_of(dim.key)
        steps = value / step
        if not math.isfinite(value) or not 0 <= value <= dim.max or abs(steps - round(steps)) > 1e-9:
            raise StudyError(
                "{label}: Punkte müssen zwischen 0 und {max} in Schritten von {step} liegen",
                field=dim.key,
                label=dim.label,
                max=de_number(dim.max),
                step=de_number(step),
            )
        parsed[dim.key] = value
    notes = {k: str(justifications.get(k, "")).strip() for k in rubric.keys if str(justifications.get(k, "")).strip()}
    if complete:
        missing = [d.label for d in rubric.dimensions if d.key not in notes]
        if missing:
            raise StudyError("Begründung fehlt für: {dimensions}", field="justification", dimensions=", ".join(missing))
    if len(parsed) < len(rubric.dimensions):
        return Scored(parsed, notes, sum(parsed.values()) if parsed else None, None, None)
    total = sum(parsed.values())
    return Scored(parsed, notes, total, rubric.grade_points(total), rubric.passed(total))


def assignment_rubric(store: Store, assignment_id: int) -> Rubric:
    """The rubric a review of this assignment is graded with: the task's own Bewertungsbogen (``task.rubric``,
    from the corpus file), else the built-in Falllösung rubric."""
    with store.session() as session:
        assignment = session.get(ReviewAssignment, assignment_id)
        pick = session.get(Pick, assignment.pick_id) if assignment is not None else None
        study = session.get(Study, pick.study_id) if pick is not None else None
    if pick is None:
        return falloesung_rubric()
    return task_rubric(store.get_task(pick.task_id, study.corpus if study is not None else None))


def task_rubric(task: FalloesungTask | PrincipleItem | None) -> Rubric:
    """The rubric of a task's reviews: its own Bewertungsbogen (``task.rubric``), else the built-in Falllösung one."""
    if task is None or task.rubric is None:
        return falloesung_rubric()
    return rubric_from_data(task.rubric, f"task {task.task_id!r}")


def my_assignment(session: Session, assignment_id: int, user_id: int) -> ReviewAssignment:
    assignment = session.get(ReviewAssignment, assignment_id)
    if assignment is None or assignment.grader_id != user_id:
        raise PermissionError("not your review")
    return assignment


def latest(session: Session, assignment_id: int) -> Review | None:
    stmt = select(Review).filter_by(assignment_id=assignment_id).order_by(Review.version.desc()).limit(1)
    return session.scalar(stmt)


MAX_NOTES, MAX_QUOTE, MAX_NOTE = 50, 300, 1000


def margin_notes(quotes: list[str], notes: list[str]) -> list[dict[str, str]]:
    """Pair quoted passages with notes (pairs without a note are dropped); StudyError beyond the limits."""
    pairs = [{"quote": q.strip(), "note": n.strip()} for q, n in zip(quotes, notes, strict=False) if n.strip()]
    if len(pairs) > MAX_NOTES or any(len(p["quote"]) > MAX_QUOTE or len(p["note"]) > MAX_NOTE for p in pairs):
        raise StudyError(
            "Randbemerkungen: höchstens {n}, Stelle bis {quote} und Bemerkung bis {note} Zeichen.",
            field="margin_notes",
            n=MAX_NOTES,
            quote=MAX_QUOTE,
            note=MAX_NOTE,
        )
    return pairs


def save_review(
    store: Store,
    assignment_id: int,
    user_id: int,
    dimensions: dict[str, Any],
    justifications: dict[str, str],
    submit: bool,
    notes: list[dict[str, str]] | None = None,
) -> Scored:
    """Autosave a draft, or submit (validated, totals computed here); submitted versions never change.

    ``notes`` are margin notes on passages of the solution (see ``margin_notes``), kept with the version.
    """
    scored = score(assignment_rubric(store, assignment_id), dimensions, justifications, complete=submit)
    now = now_utc()
    try:
        with store.session() as session:
            assignment = my_assignment(session, assignment_id, user_id)
            require_state(session, assignment.study_id, "in_review", share=True)
            current = latest(session, assignment_id)
            status = "submitted" if submit else "draft"
            values = {
                "dimensions": scored.dimensions,
                "justifications": scored.justifications,
                "total": scored.total,
                "grade_points": scored.grade_points,
                "passed": scored.passed,
                "status": status,
                "submitted_at": now if submit else None,
                "margin_notes": list(notes or []),
            }
            if current is None:
                review = Review(id=uuid.uuid4().hex, assignment_id=assignment_id, version=1, created_at=now, **values)
                session.add(review)
            elif current.status == "draft":
                changed = session.execute(
                    update(Review).where(Review.id == current.id, Review.status == "draft").values(**values)
                )
                if changed.rowcount != 1:  # type: ignore[attr-defined]
                    raise AlreadySubmitted("Diese Bewertung wurde inzwischen abgegeben.", field="status")
                review = current
            else:
                raise AlreadySubmitted(
                    "Diese Bewertung ist abgegeben; für Änderungen bitte eine Korrektur anlegen.", field="status"
                )
            session.flush()
            review_id = review.id
    except IntegrityError as exc:
        raise AlreadySubmitted(
            "Diese Bewertung wurde gleichzeitig gespeichert; bitte die Seite neu laden.", field="status"
        ) from exc
    if submit:
        mirror_review(store, review_id)
    return scored


def open_correction(store: Store, assignment_id: int, user_id: int) -> None:
    """Open a new draft version copying the submitted one (which stays as it is). Idempotent: of parallel
    clicks the unique (assignment, version) lets one win; the others find the correction open (was HTTP 500)."""
    try:
        with store.session() as session:
            assignment = my_assignment(session, assignment_id, user_id)
            require_state(session, assignment.study_id, "in_review", share=True)
            current = latest(session, assignment_id)
            if current is None or current.status != "submitted":
                return
            session.add(
                Review(
                    id=uuid.uuid4().hex,
                    assignment_id=assignment_id,
                    version=current.version + 1,
                    status="draft",
                    dimensions=dict(current.dimensions),
                    justifications=dict(current.justifications),
                    total=current.total,
                    grade_points=current.grade_points,
                    passed=current.passed,
                    margin_notes=list(current.margin_notes or []),
                    supersedes=current.id,
                    created_at=now_utc(),
                )
            )
    except IntegrityError:
        with store.session() as session:
            if getattr(latest(session, assignment_id), "status", None) != "draft":
                raise


def mirror_review(store: Store, review_id: str) -> None:
    """Write a submitted review into the core store as a HumanReview (idempotent)."""
    with store.session() as session:
        review = session.get(Review, review_id)
        assert review is not None and review.status == "submitted"
        assignment = session.get(ReviewAssignment, review.assignment_id)
        assert assignment is not None
        pick = session.get(Pick, assignment.pick_id)
        grader = session.get(StudyUser, assignment.grader_id)
        assert pick is not None and grader is not None and review.total is not None
        root = session.scalar(select(Review.id).filter_by(assignment_id=assignment.id, version=1))
        # one HumanReview per assignment (id of version 1): a correction replaces it there, so the analysis
        # counts every review once; the study tables keep every version
        record = HumanReview(
            review_id=root or review.id,
            target_kind=pick.target_kind,
            target_id=pick.target_id,
            task_id=pick.task_id,
            grader_id=grader.pseudonym,
            role=assignment.role,
            dimensions=dict(review.dimensions),
            raw_score=review.total,
            grade_points=review.grade_points,  # None under a rubric without a grade table: raw points only
            passed=review.passed,
            meta={
                "study_id": pick.study_id,
                "pick": pick.code,
                "provenance": pick.provenance,
                "slot": assignment.slot,
                "version": review.version,
                "version_id": review.id,
                "supersedes": review.supersedes,
                "margin_notes": list(review.margin_notes or []),
            },
        )
    store.add_human_review(record)


def solution_text(session: Session, store: Store, pick: Pick) -> str:
    """The text of a picked solution (a submission or a stored generation)."""
    if pick.target_kind == "human_solution":
        sub = session.get(Submission, pick.target_id)
        return sub.text if sub is not None else ""
    gen = store.get_generation_by_id(pick.target_id)
    return gen.text if gen is not None and gen.task_id == pick.task_id else ""


def grader_queue(session: Session, user_id: int) -> list[tuple[ReviewAssignment, StudyTask, str]]:
    """The grader's assignments with their task and state ("offen", "Entwurf", "abgegeben")."""
    rows = []
    for a in session.scalars(select(ReviewAssignment).filter_by(grader_id=user_id).order_by(ReviewAssignment.id)):
        pick = session.get(Pick, a.pick_id)
        assert pick is not None
        task = session.scalar(select(StudyTask).filter_by(study_id=pick.study_id, task_id=pick.task_id))
        assert task is not None
        review = latest(session, a.id)
        state = "offen" if review is None else ("Entwurf" if review.status == "draft" else "abgegeben")
        rows.append((a, task, state))
    return rows
