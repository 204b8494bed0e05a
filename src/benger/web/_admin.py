"""Admin pages: accounts and invitations, studies, task authors, pick selection, review assignment, coverage."""

from __future__ import annotations

from collections import Counter

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response
from sqlalchemy import func, select

from benger.errors import InputError
from benger.study import create_invitation, create_study, create_user, run_assignment, run_picks, set_author
from benger.study._models import ROLES, Enrolment, Pick, ReviewAssignment, Study, StudyUser, Submission
from benger.study._review import coverage
from benger.study._service import study_tasks
from benger.web._render import render
from benger.web._security import check_csrf, require, role_guard, store_of

router = APIRouter(prefix="/admin", dependencies=[Depends(role_guard("admin"))])


@router.get("")
def admin_home(request: Request) -> Response:
    store = store_of(request)
    with store.session() as session:
        require(request, session, "admin")
        users = list(session.scalars(select(StudyUser).order_by(StudyUser.id)))
        studies = list(session.scalars(select(Study).order_by(Study.id)))
        return render(
            request,
            "admin.html",
            users=users,
            studies=studies,
            roles=ROLES,
            corpora=store.corpus_names(),
            invitation=request.query_params.get("invitation"),
        )


@router.post("/users", dependencies=[Depends(check_csrf)])
async def add_user(request: Request) -> Response:
    form = await request.form()
    with store_of(request).session() as session:
        require(request, session, "admin")
        roles = [str(r) for r in form.getlist("roles")]
        create_user(session, str(form.get("username", "")), str(form.get("password", "")), roles)
    return RedirectResponse("/admin", status_code=303)


@router.post("/invitations", dependencies=[Depends(check_csrf)])
def add_invitation(request: Request, role: str = Form(...)) -> Response:
    with store_of(request).session() as session:
        require(request, session, "admin")
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
    with store.session() as session:
        require(request, session, "admin")
    study_id = create_study(store, name, corpus, seed, time_limit_s)
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)


@router.get("/studies/{study_id}")
def study_admin(request: Request, study_id: int) -> Response:
    with store_of(request).session() as session:
        require(request, session, "admin")
        study = session.get(Study, study_id)
        if study is None:
            raise InputError("Diese Studie gibt es nicht.", field="study_id")
        users = {u.id: u for u in session.scalars(select(StudyUser))}
        picks = list(session.scalars(select(Pick).filter_by(study_id=study_id).order_by(Pick.code)))
        assignments = list(session.scalars(select(ReviewAssignment).filter_by(study_id=study_id)))
        load = Counter((users[a.grader_id].username, a.role) for a in assignments)
        return render(
            request,
            "admin_study.html",
            study=study,
            tasks=study_tasks(session, study_id),
            users=users,
            creators=[u for u in users.values() if u.has("creator")],
            picks=picks,
            load=sorted(load.items()),
            n_participants=session.scalar(select(func.count()).select_from(Enrolment).filter_by(study_id=study_id)),
            n_submissions=session.scalar(select(func.count()).select_from(Submission).filter_by(study_id=study_id)),
            coverage=coverage(session, study_id),
            n_assignments=len(assignments),
        )


@router.post("/studies/{study_id}/authors", dependencies=[Depends(check_csrf)])
async def set_authors(request: Request, study_id: int) -> Response:
    store = store_of(request)
    form = await request.form()
    with store.session() as session:
        require(request, session, "admin")
        tasks = study_tasks(session, study_id)
    for task in tasks:
        value = str(form.get(f"author_{task.position}", "")).strip()
        set_author(store, study_id, task.task_id, int(value) if value else None)
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)


@router.post("/studies/{study_id}/picks", dependencies=[Depends(check_csrf)])
def picks(request: Request, study_id: int) -> Response:
    store = store_of(request)
    with store.session() as session:
        require(request, session, "admin")
    run_picks(store, study_id)
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)


@router.post("/studies/{study_id}/assignments", dependencies=[Depends(check_csrf)])
def assignments(request: Request, study_id: int) -> Response:
    store = store_of(request)
    with store.session() as session:
        require(request, session, "admin")
    run_assignment(store, study_id)
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)
