"""Admin pages (the per-study ones also for the staff of the organisation holding the study).

Accounts (create, roles, password reset, deactivation) and invitations, studies with their
lifecycle, task authors, pick selection, review assignment, the progress dashboard and coverage, and the switch
of formative feedback for participants after closing (benger.study._feedback)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy import func, select

from benger.spreadsheet import write_csv
from benger.store import Store
from benger.study import (
    StudyError,
    close_study,
    create_invitation,
    create_study,
    create_user,
    finish_study,
    open_study,
    run_assignment,
    run_picks,
    set_active,
    set_authors,
    set_groups,
    set_password,
    set_roles,
    set_study_groups,
)
from benger.study._accounts import account_page
from benger.study._feedback import CLOSED_STATES, feedback_shown, judged_submissions, set_feedback
from benger.study._models import ROLES, Enrolment, Pick, ReviewAssignment, Study, StudyUser, Submission
from benger.study._progress import coverage, grader_progress, participant_progress, problem_reports
from benger.study._scope import account_scope
from benger.study._service import study_tasks
from benger.study._state import STATE_LABELS
from benger.study._tables import REVIEW_COLUMNS, SUBMISSION_COLUMNS, agreement, review_rows, submission_rows
from benger.web._participant import ARM_LABELS
from benger.web._render import render
from benger.web._security import Admin, admin_guard, check_csrf, store_of
from benger.web.access import study_admin_access

router = APIRouter(prefix="/admin", dependencies=[Depends(admin_guard)])
#: The per-study routes: the platform's organisers, or the staff of the organisation holding the study (the
#: access layer's ``study_admin_access`` decides; docs/workbench.md).
study_router = APIRouter(prefix="/admin", dependencies=[Depends(study_admin_access)])


@router.get("")
def admin_home(request: Request, q: str = "", page: str = "1") -> Response:
    """The admin page; the accounts table is searched (``q``) and paged (``page``) on the server."""
    store = store_of(request)
    with store.session() as session:
        accounts = account_page(session, q, int(page) if page.isdigit() and len(page) < 10 else 1)
        studies = list(session.scalars(select(Study).order_by(Study.id)))
        token = request.query_params.get("invitation")
        return render(
            request,
            "admin.html",
            users=accounts.users,
            accounts=accounts,
            studies=studies,
            roles=ROLES,
            states=STATE_LABELS,
            corpora=store.corpus_names(),
            invitation=f"{str(request.base_url).rstrip('/')}/invite/{token}" if token else None,
        )


@router.post("/users", dependencies=[Depends(check_csrf)])
async def add_user(request: Request) -> Response:
    form = await request.form()
    with store_of(request).session() as session:
        roles = [str(r) for r in form.getlist("roles")]
        create_user(session, str(form.get("username", "")), str(form.get("password", "")), roles)
    return RedirectResponse("/admin", status_code=303)


@router.post("/users/{user_id}/active", dependencies=[Depends(check_csrf)])
def user_active(request: Request, admin: Admin, user_id: int, active: str = Form(...)) -> Response:
    """Deactivate (every session of the account ends, login refused) or reactivate an account."""
    with store_of(request).session() as session:
        if admin.id == user_id and active != "1":
            raise StudyError("Das eigene Konto kann nicht deaktiviert werden.", field="user_id")
        set_active(session, user_id, active == "1")
    return RedirectResponse("/admin#accounts", status_code=303)


@router.post("/users/{user_id}/password", dependencies=[Depends(check_csrf)])
def user_password(request: Request, user_id: int, password: str = Form(...)) -> Response:
    """Reset an account's password (every session of the account ends)."""
    with store_of(request).session() as session:
        set_password(session, user_id, password)
    return RedirectResponse("/admin#accounts", status_code=303)


@router.post("/users/{user_id}/roles", dependencies=[Depends(check_csrf)])
async def user_roles(request: Request, admin: Admin, user_id: int) -> Response:
    form = await request.form()
    with store_of(request).session() as session:
        roles = [str(r) for r in form.getlist("roles")]
        if admin.id == user_id and "admin" not in roles:
            raise StudyError("Die eigene Admin-Rolle kann nicht entzogen werden.", field="roles")
        set_roles(session, user_id, roles)
        if "groups" in form:
            set_groups(session, user_id, str(form.get("groups", "")))
    return RedirectResponse("/admin#accounts", status_code=303)


@router.post("/invitations", dependencies=[Depends(check_csrf)])
def add_invitation(request: Request, role: str = Form(...)) -> Response:
    with store_of(request).session() as session:
        token = create_invitation(session, role)
    return RedirectResponse(f"/admin?invitation={token}", status_code=303)


@router.post("/studies", dependencies=[Depends(check_csrf)])
def add_study(
    request: Request,
    name: str = Form(...),
    corpus: str = Form(...),
    seed: int = Form(...),
    time_limit_s: int = Form(7200),
) -> Response:
    store = store_of(request)
    study_id = create_study(store, name, corpus, seed, time_limit_s)
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)


@study_router.get("/studies/{study_id}")
def study_admin(request: Request, study_id: int) -> Response:
    with store_of(request).session() as session:
        study = session.get(Study, study_id)
        if study is None:
            raise StudyError("Die Studie {study} gibt es nicht.", field="study_id", study=study_id)
        accounts = list(session.scalars(account_scope(session, study_id).accounts()))  # the study's only
        picks = list(session.scalars(select(Pick).filter_by(study_id=study_id).order_by(Pick.code)))
        assignments = list(session.scalars(select(ReviewAssignment).filter_by(study_id=study_id)))
        reviewers = select(StudyUser.id, StudyUser.username).where(StudyUser.id.in_({a.grader_id for a in assignments}))
        names = {uid: name for uid, name in session.execute(reviewers)}
        load = Counter((names[a.grader_id], a.role) for a in assignments)
        return render(
            request,
            "admin_study.html",
            study=study,
            tasks=study_tasks(session, study_id),
            creators=[u for u in accounts if u.has("creator")],
            picks=picks,
            load=sorted(load.items()),
            n_participants=session.scalar(select(func.count()).select_from(Enrolment).filter_by(study_id=study_id)),
            n_submissions=session.scalar(select(func.count()).select_from(Submission).filter_by(study_id=study_id)),
            coverage=coverage(session, study_id),
            n_assignments=len(assignments),
            states=STATE_LABELS,
            participants=participant_progress(session, study_id),
            arm_labels=ARM_LABELS,
            provenances={**ARM_LABELS, "llm": "LLM"},
            graders=grader_progress(session, study_id),
            agreement=agreement(session, study_id),
            problems=problem_reports(session, study_id),
            feedback_on=feedback_shown(session, study),
            feedback_allowed=study.state in CLOSED_STATES,
            judged=judged_submissions(session, study_id),
        )


_STEPS: dict[str, Callable[[Store, int], object]] = {"open": open_study, "close": close_study, "finish": finish_study}


@study_router.post("/studies/{study_id}/groups", dependencies=[Depends(check_csrf)])
def study_groups(request: Request, study_id: int, groups: str = Form("")) -> Response:
    """Restrict the study to participants of these groups (empty: everyone sees it)."""
    store = store_of(request)
    set_study_groups(store, study_id, groups)
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)


@study_router.post("/studies/{study_id}/state", dependencies=[Depends(check_csrf)])
def study_state(request: Request, study_id: int, action: str = Form(...)) -> Response:
    """Lifecycle controls: open (draft or closed -> open), close (open -> closed), finish (in_review -> done)."""
    store = store_of(request)
    step = _STEPS.get(action)
    if step is None:
        raise StudyError("Unbekannter Schritt {action}.", field="action", action=action)
    step(store, study_id)
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)


@study_router.post("/studies/{study_id}/feedback", dependencies=[Depends(check_csrf)])
def study_feedback(request: Request, study_id: int, on: str = Form(...)) -> Response:
    """Let participants read the judge's feedback on their own submissions (``on=1``; only once submissions
    have closed) or stop it (``on=0``)."""
    set_feedback(store_of(request), study_id, on == "1")
    return RedirectResponse(f"/admin/studies/{study_id}#feedback", status_code=303)


@study_router.post("/studies/{study_id}/authors", dependencies=[Depends(check_csrf)])
async def study_authors(request: Request, study_id: int) -> Response:
    store = store_of(request)
    form = await request.form()
    with store.session() as session:
        tasks = study_tasks(session, study_id)
    chosen = {t.task_id: str(form.get(f"author_{t.position}", "")).strip() for t in tasks}
    bad = next((v for v in chosen.values() if v and not (v.isdigit() and len(v) < 10)), None)
    if bad is not None:
        raise StudyError("Das Konto {account} gibt es für diese Studie nicht.", field="author", account=bad)
    set_authors(store, study_id, {task: int(v) if v else None for task, v in chosen.items()})
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)


@study_router.post("/studies/{study_id}/picks", dependencies=[Depends(check_csrf)])
def picks(request: Request, study_id: int) -> Response:
    store = store_of(request)
    run_picks(store, study_id)
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)


@study_router.post("/studies/{study_id}/assignments", dependencies=[Depends(check_csrf)])
def assignments(request: Request, study_id: int) -> Response:
    store = store_of(request)
    run_assignment(store, study_id)
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)


def _download(body: str, filename: str, media_type: str) -> Response:
    return Response(body, media_type=media_type, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


@study_router.get("/studies/{study_id}/export/{name}")
def export(request: Request, study_id: int, name: str) -> Response:
    """Downloads: submissions.csv, reviews.csv, study.json (both tables, picks; pseudonyms only)."""
    with store_of(request).session() as session:
        study = session.get(Study, study_id)
        if study is None:
            raise StudyError("Die Studie {study} gibt es nicht.", field="study_id", study=study_id)
        if name == "submissions.csv":
            return _download(write_csv(submission_rows(session, study_id), SUBMISSION_COLUMNS), name, "text/csv")
        if name == "reviews.csv":
            return _download(write_csv(review_rows(session, study_id), REVIEW_COLUMNS), name, "text/csv")
        if name == "study.json":
            picks = session.scalars(select(Pick).filter_by(study_id=study_id).order_by(Pick.code))
            payload = {
                "study": {"id": study.id, "name": study.name, "corpus": study.corpus, "seed": study.seed},
                "state": study.state,
                "submissions": submission_rows(session, study_id),
                "picks": [
                    {"pick": p.code, "task_id": p.task_id, "provenance": p.provenance, "meta": p.meta} for p in picks
                ],
                "reviews": review_rows(session, study_id),
            }
            body = json.dumps(payload, ensure_ascii=False, indent=2)
            return _download(body, f"study-{study_id}.json", "application/json")
    raise StudyError("Diese Seite gibt es nicht.", field="name")
