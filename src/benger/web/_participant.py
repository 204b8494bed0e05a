"""Participant pages: studies, the task list with arms, the timed work page with autosave, submit and skip."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from benger.errors import InputError
from benger.schema import FalloesungTask
from benger.study import enrol, save_draft, skip, start, submit
from benger.study._models import Enrolment, Study, StudyTask, Submission
from benger.study._service import attempts, expire_overdue, get_attempt, remaining_s, study_tasks
from benger.web._render import render
from benger.web._security import check_csrf, require, role_guard, store_of

router = APIRouter(dependencies=[Depends(role_guard("participant"))])

ARM_LABELS = {"traditional": "Klassisch (ohne KI)", "co_creation": "Ko-Kreation (mit KI)"}
INSTRUCTIONS = {
    "traditional": "Lösen Sie den Fall im Gutachtenstil allein, ohne KI-Werkzeuge. Gesetzestexte dürfen Sie "
    "verwenden. Ihr Entwurf wird laufend gespeichert; bei Ablauf der Zeit wird er abgegeben.",
    "co_creation": "Lösen Sie den Fall im Gutachtenstil gemeinsam mit einem KI-Assistenten Ihrer Wahl. Prüfen Sie "
    "jede Aussage der KI selbst; Sie verantworten die abgegebene Lösung. Ihr Entwurf wird laufend "
    "gespeichert; bei Ablauf der Zeit wird er abgegeben.",
}
STATUS_LABELS = {"open": "offen", "started": "in Bearbeitung", "submitted": "abgegeben", "skipped": "übersprungen"}


def _task(session: Session, study_id: int, position: int) -> StudyTask:
    task = session.scalar(select(StudyTask).filter_by(study_id=study_id, position=position))
    if task is None:
        raise InputError("Diese Aufgabe gibt es nicht.", field="position")
    return task


@router.get("/studies")
def studies(request: Request) -> Response:
    with store_of(request).session() as session:
        user = require(request, session, "participant")
        enrolled = set(session.scalars(select(Enrolment.study_id).filter_by(user_id=user.id)))
        rows = list(session.scalars(select(Study).order_by(Study.id)))
        return render(
            request, "studies.html", studies=rows, enrolled=enrolled, has_profile=user.expertise_level is not None
        )


@router.post("/studies/{study_id}/enrol", dependencies=[Depends(check_csrf)])
def enrol_post(request: Request, study_id: int) -> Response:
    store = store_of(request)
    with store.session() as session:
        user = require(request, session, "participant")
        if user.expertise_level is None:
            return RedirectResponse("/profile", status_code=303)
    enrol(store, study_id, user.id)
    return RedirectResponse(f"/studies/{study_id}", status_code=303)


@router.get("/studies/{study_id}")
def study_page(request: Request, study_id: int) -> Response:
    store = store_of(request)
    with store.session() as session:
        user = require(request, session, "participant")
    expire_overdue(store, study_id=study_id, user_id=user.id)
    with store.session() as session:
        rows = attempts(session, study_id, user.id)
        if not rows:
            return RedirectResponse("/studies", status_code=303)
        tasks = {t.task_id: t for t in study_tasks(session, study_id)}
        study = session.get(Study, study_id)
        return render(
            request, "study.html", study=study, attempts=rows, tasks=tasks, arms=ARM_LABELS, statuses=STATUS_LABELS
        )


@router.post("/studies/{study_id}/tasks/{position}/start", dependencies=[Depends(check_csrf)])
def start_post(request: Request, study_id: int, position: int) -> Response:
    store = store_of(request)
    with store.session() as session:
        user = require(request, session, "participant")
        task_id = _task(session, study_id, position).task_id
    start(store, study_id, user.id, task_id)
    return RedirectResponse(f"/studies/{study_id}/tasks/{position}", status_code=303)


@router.get("/studies/{study_id}/tasks/{position}")
def work_page(request: Request, study_id: int, position: int) -> Response:
    store = store_of(request)
    with store.session() as session:
        user = require(request, session, "participant")
    expire_overdue(store, study_id=study_id, user_id=user.id)
    with store.session() as session:
        task = _task(session, study_id, position)
        attempt = get_attempt(session, study_id, user.id, task.task_id)
        if attempt is None:
            raise PermissionError("not assigned")
        record = store.get_task(task.task_id)
        facts = record.facts if isinstance(record, FalloesungTask) else ""
        submission = session.scalar(
            select(Submission).filter_by(study_id=study_id, user_id=user.id, task_id=task.task_id)
        )
        return render(
            request,
            "work.html",
            study_id=study_id,
            position=position,
            task=task,
            attempt=attempt,
            facts=facts if attempt.status != "open" else "",
            arm=ARM_LABELS[attempt.arm],
            instructions=INSTRUCTIONS[attempt.arm],
            remaining=remaining_s(attempt),
            submission=submission,
            statuses=STATUS_LABELS,
        )


@router.post("/studies/{study_id}/tasks/{position}/draft", dependencies=[Depends(check_csrf)])
def draft_post(request: Request, study_id: int, position: int, text: str = Form("")) -> Response:
    store = store_of(request)
    with store.session() as session:
        user = require(request, session, "participant")
        task_id = _task(session, study_id, position).task_id
    result = save_draft(store, study_id, user.id, task_id, text)
    return JSONResponse({"status": result}, status_code=200 if result == "saved" else 409)


@router.post("/studies/{study_id}/tasks/{position}/submit", dependencies=[Depends(check_csrf)])
def submit_post(request: Request, study_id: int, position: int, text: str = Form("")) -> Response:
    store = store_of(request)
    with store.session() as session:
        user = require(request, session, "participant")
        task_id = _task(session, study_id, position).task_id
    submit(store, study_id, user.id, task_id, text)
    return RedirectResponse(f"/studies/{study_id}/tasks/{position}", status_code=303)


@router.post("/studies/{study_id}/tasks/{position}/skip", dependencies=[Depends(check_csrf)])
def skip_post(request: Request, study_id: int, position: int) -> Response:
    store = store_of(request)
    with store.session() as session:
        user = require(request, session, "participant")
        task_id = _task(session, study_id, position).task_id
    skip(store, study_id, user.id, task_id)
    return RedirectResponse(f"/studies/{study_id}", status_code=303)
