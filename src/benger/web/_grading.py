"""Grading pages: the review queue and the rubric form.

A blind reviewer receives only the facts, the solution text and the rubric: no pick code, provenance,
system or participant identity, no other grades and no reference solution. A creator also sees the
reference solution of their own task. Both pages show the progress ("3 von 27" submitted) and, once a
review is submitted, a link to the next open one.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from benger.judge import Rubric
from benger.schema import FalloesungTask
from benger.study import open_correction, save_review
from benger.study._models import Pick, Study, StudyTask
from benger.study._progress import report_problem
from benger.study._review import (
    assignment_rubric,
    grader_queue,
    latest,
    margin_notes,
    my_assignment,
    solution_text,
    task_rubric,
)
from benger.web._render import render
from benger.web._security import Grader, check_csrf, grader_guard, store_of

router = APIRouter(dependencies=[Depends(grader_guard)])


@router.get("/reviews")
def queue(request: Request, user: Grader) -> Response:
    with store_of(request).session() as session:
        rows = grader_queue(session, user.id)
        done = sum(state == "abgegeben" for _, _, state in rows)
        return render(request, "queue.html", rows=rows, done=done)


@router.get("/reviews/{assignment_id}")
def grading_page(request: Request, user: Grader, assignment_id: int) -> Response:
    store = store_of(request)
    with store.session() as session:
        assignment = my_assignment(session, assignment_id, user.id)
        pick = session.get(Pick, assignment.pick_id)
        assert pick is not None
        task = session.query(StudyTask).filter_by(study_id=pick.study_id, task_id=pick.task_id).one()
        study = session.get(Study, pick.study_id)
        record = store.get_task(pick.task_id, study.corpus if study is not None else None)
        facts = record.facts if isinstance(record, FalloesungTask) else ""
        reference = record.reference if assignment.role == "creator" and isinstance(record, FalloesungTask) else None
        review = latest(session, assignment_id)
        rows = grader_queue(session, user.id)
        done = sum(state == "abgegeben" for _, _, state in rows)
        upcoming = [a.id for a, _, state in rows if state != "abgegeben" and a.id != assignment_id]
        rubric = task_rubric(record)
        bounds = rubric.grade_bounds
        return render(
            request,
            "grade.html",
            assignment=assignment,
            title=task.title,
            facts=facts,
            reference=reference,
            solution=solution_text(session, store, pick),
            rubric=rubric,
            # the live total's rules (app.js): each grade's upper bound and whether that grade passes
            grade_bounds=list(bounds) if bounds else None,
            grade_passes=[rubric.passed(b) for b in bounds] if bounds else None,
            review=review,
            done=done,
            total_reviews=len(rows),
            next_id=upcoming[0] if upcoming else None,
            reported=request.query_params.get("reported") == "1",
        )


def _fields(form: FormData, rubric: Rubric) -> tuple[dict[str, Any], dict[str, str], list[dict[str, str]]]:
    keys = rubric.keys
    points = {k: form.get(f"dim_{k}") for k in keys}
    notes = {k: str(form.get(f"just_{k}", "")) for k in keys}
    margin = margin_notes([str(q) for q in form.getlist("note_quote")], [str(n) for n in form.getlist("note_text")])
    return points, notes, margin


@router.post("/reviews/{assignment_id}/draft", dependencies=[Depends(check_csrf)])
async def draft(request: Request, user: Grader, assignment_id: int) -> Response:
    store = store_of(request)
    points, notes, margin = _fields(await request.form(), assignment_rubric(store, assignment_id))
    scored = save_review(store, assignment_id, user.id, points, notes, submit=False, notes=margin)
    return JSONResponse(
        {"status": "saved", "total": scored.total, "grade_points": scored.grade_points, "passed": scored.passed}
    )


@router.post("/reviews/{assignment_id}/submit", dependencies=[Depends(check_csrf)])
async def submit(request: Request, user: Grader, assignment_id: int) -> Response:
    store = store_of(request)
    points, notes, margin = _fields(await request.form(), assignment_rubric(store, assignment_id))
    save_review(store, assignment_id, user.id, points, notes, submit=True, notes=margin)
    return RedirectResponse(f"/reviews/{assignment_id}", status_code=303)


@router.post("/reviews/{assignment_id}/problem", dependencies=[Depends(check_csrf)])
def problem(request: Request, user: Grader, assignment_id: int, text: str = Form("")) -> Response:
    """Report a problem with the solution under review (the organiser sees it on the study page)."""
    store = store_of(request)
    report_problem(store, assignment_id, user.id, text)
    return RedirectResponse(f"/reviews/{assignment_id}?reported=1", status_code=303)


@router.post("/reviews/{assignment_id}/correct", dependencies=[Depends(check_csrf)])
def correct(request: Request, user: Grader, assignment_id: int) -> Response:
    store = store_of(request)
    open_correction(store, assignment_id, user.id)
    return RedirectResponse(f"/reviews/{assignment_id}", status_code=303)
