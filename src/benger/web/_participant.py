"""Participant pages: studies, the start page with consent, the task list with arms, the timed work page with
autosave, submit (with the AI tools used in the co-creation arm), skip (with confirmation and a reason) and, once
the organiser allows it after closing, the formative feedback on one's own submissions (benger.web.access)."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from benger.schema import FalloesungTask
from benger.study import StudyError, enrol, save_draft, skip, start, submit
from benger.study._accounts import aware, now_utc
from benger.study._models import Enrolment, Study, StudyTask, StudyUser, Submission
from benger.study._service import attempts, expire_overdue, get_attempt, remaining_s, study_tasks
from benger.study._state import visible
from benger.web._render import render
from benger.web._security import Participant, check_csrf, participant_guard, store_of
from benger.web.access import Access, OwnFeedback, feedback_links, principal_of

router = APIRouter(dependencies=[Depends(participant_guard)])

ARM_LABELS = {"traditional": "Klassisch (ohne KI)", "co_creation": "Ko-Kreation (mit KI)"}
INSTRUCTIONS = {
    "traditional": "Lösen Sie den Fall im Gutachtenstil allein, ohne KI-Werkzeuge. Gesetzestexte dürfen Sie "
    "verwenden. Ihr Entwurf wird laufend gespeichert; bei Ablauf der Zeit wird er abgegeben.",
    "co_creation": "Lösen Sie den Fall im Gutachtenstil gemeinsam mit einem KI-Assistenten Ihrer Wahl. Prüfen Sie "
    "jede Aussage der KI selbst; Sie verantworten die abgegebene Lösung. Ihr Entwurf wird laufend "
    "gespeichert; bei Ablauf der Zeit wird er abgegeben.",
}
STATUS_LABELS = {"open": "offen", "started": "in Bearbeitung", "submitted": "abgegeben", "skipped": "übersprungen"}
#: Suggestions for the "AI tools used" field of the co-creation arm (free text is accepted too).
AI_TOOLS = ("ChatGPT", "Claude", "Gemini", "Microsoft Copilot", "Perplexity", "Le Chat (Mistral)", "DeepSeek")


def _task(session: Session, study_id: int, position: int) -> StudyTask:
    task = session.scalar(select(StudyTask).filter_by(study_id=study_id, position=position))
    if task is None:
        raise StudyError("Diese Aufgabe gibt es nicht.", field="position")
    return task


@router.get("/studies")
def studies(request: Request, user: Participant) -> Response:
    with store_of(request).session() as session:
        me = session.get(StudyUser, user.id)
        enrolled = set(session.scalars(select(Enrolment.study_id).filter_by(user_id=user.id)))
        # open studies, and the ones this participant took part in (to see their submissions)
        rows = [
            s
            for s in session.scalars(select(Study).order_by(Study.id))
            if (s.state == "open" and me is not None and visible(session, s, me))
            or (s.id in enrolled and s.state != "draft")
        ]
        return render(
            request, "studies.html", studies=rows, enrolled=enrolled, has_profile=user.expertise_level is not None
        )


@router.post("/studies/{study_id}/enrol", dependencies=[Depends(check_csrf)])
def enrol_post(request: Request, user: Participant, study_id: int, consent: str = Form("")) -> Response:
    """Take part after accepting the consent and privacy notice of the start page."""
    store = store_of(request)
    if user.expertise_level is None:
        return RedirectResponse("/profile", status_code=303)
    if consent != "yes":
        raise StudyError("Bitte bestätigen Sie die Einwilligung und den Datenschutzhinweis.", field="consent")
    enrol(store, study_id, user.id, consent=True)
    return RedirectResponse(f"/studies/{study_id}", status_code=303)


@router.get("/studies/{study_id}")
def study_page(request: Request, user: Participant, study_id: int) -> Response:
    store = store_of(request)
    expire_overdue(store, study_id=study_id, user_id=user.id)
    feedback = feedback_links(Access(store, principal_of(request)), study_id)  # each opens its own transaction
    with store.session() as session:
        study = session.get(Study, study_id)
        if study is None or study.state == "draft":
            raise StudyError("Die Studie {study} gibt es nicht.", field="study_id", study=study_id)
        rows = attempts(session, study_id, user.id)
        tasks = {t.task_id: t for t in study_tasks(session, study_id)}
        if not rows:  # not enrolled yet: the start page with the rules and the consent
            me = session.get(StudyUser, user.id)
            if me is None or not visible(session, study, me) or study.state != "open":
                raise StudyError("Die Studie {study} gibt es nicht.", field="study_id", study=study_id)
            return render(
                request,
                "start.html",
                study=study,
                n_tasks=len(tasks),
                areas=sorted({t.area for t in tasks.values()}),
                has_profile=user.expertise_level is not None,
            )
        return render(
            request,
            "study.html",
            study=study,
            attempts=rows,
            tasks=tasks,
            arms=ARM_LABELS,
            statuses=STATUS_LABELS,
            feedback=feedback,
        )


@router.get("/studies/{study_id}/feedback/{submission_id}")
def feedback_page(request: Request, study_id: int, submission_id: str, feedback: OwnFeedback) -> Response:
    """A judge's rubric feedback on the participant's own submission (who may read it: benger.web.access)."""
    return render(
        request, "feedback.html", feedback=feedback, submitted_ms=epoch_ms(feedback.submitted_at), study_id=study_id
    )


@router.post("/studies/{study_id}/tasks/{position}/start", dependencies=[Depends(check_csrf)])
def start_post(request: Request, user: Participant, study_id: int, position: int) -> Response:
    store = store_of(request)
    with store.session() as session:
        task_id = _task(session, study_id, position).task_id
    start(store, study_id, user.id, task_id)
    return RedirectResponse(f"/studies/{study_id}/tasks/{position}", status_code=303)


@router.get("/studies/{study_id}/tasks/{position}")
def work_page(request: Request, user: Participant, study_id: int, position: int) -> Response:
    store = store_of(request)
    expire_overdue(store, study_id=study_id, user_id=user.id)
    with store.session() as session:
        task = _task(session, study_id, position)
        attempt = get_attempt(session, study_id, user.id, task.task_id)
        if attempt is None:
            raise PermissionError("not assigned")
        study = session.get(Study, study_id)
        record = store.get_task(task.task_id, study.corpus if study is not None else None)
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
            deadline_ms=epoch_ms(attempt.deadline),
            server_now_ms=epoch_ms(now_utc()),
            saved_at_ms=epoch_ms(attempt.draft_saved_at),
            submission=submission,
            statuses=STATUS_LABELS,
            ai_tools=AI_TOOLS,
        )


def epoch_ms(value: datetime | None) -> int | None:
    """A time as milliseconds since the epoch (what the browser's Date takes), None stays None."""
    return None if value is None else int(aware(value).timestamp() * 1000)


@router.post("/studies/{study_id}/tasks/{position}/draft", dependencies=[Depends(check_csrf)])
def draft_post(
    request: Request, user: Participant, study_id: int, position: int, version: int = Form(...), text: str = Form("")
) -> Response:
    """Autosave (benger.study._drafts): 200 ``saved``; 409 ``conflict`` with the newer text, or ``submitted``.

    Every answer carries ``server_time`` (ms), from which the page measures its clock offset for the timer.
    """
    store = store_of(request)
    with store.session() as session:
        task_id = _task(session, study_id, position).task_id
    state = save_draft(store, study_id, user.id, task_id, text, base_version=version)
    body = {
        "status": state.status,
        "version": state.version,
        "saved_at": epoch_ms(state.saved_at),
        "server_time": epoch_ms(now_utc()),
    }
    if state.status != "saved":
        body |= {"text": state.text, "chars": len(state.text or ""), "auto": state.auto}
    return JSONResponse(body, status_code=200 if state.status == "saved" else 409)


@router.post("/studies/{study_id}/tasks/{position}/submit", dependencies=[Depends(check_csrf)])
def submit_post(
    request: Request,
    user: Participant,
    study_id: int,
    position: int,
    text: str = Form(""),
    ai_tools: str = Form(""),
    version: int | None = Form(None),
) -> Response:
    store = store_of(request)
    with store.session() as session:
        task_id = _task(session, study_id, position).task_id
    submit(store, study_id, user.id, task_id, text, ai_tools=ai_tools, base_version=version)
    return RedirectResponse(f"/studies/{study_id}/tasks/{position}", status_code=303)


@router.post("/studies/{study_id}/tasks/{position}/skip", dependencies=[Depends(check_csrf)])
def skip_post(request: Request, user: Participant, study_id: int, position: int, reason: str = Form("")) -> Response:
    store = store_of(request)
    with store.session() as session:
        task_id = _task(session, study_id, position).task_id
    if not reason.strip():
        raise StudyError("Bitte geben Sie einen Grund für das Überspringen an.", field="reason")
    skip(store, study_id, user.id, task_id, reason)
    return RedirectResponse(f"/studies/{study_id}", status_code=303)
