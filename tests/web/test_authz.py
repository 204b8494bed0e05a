"""Authorization matrix (every route x every role, anonymous included) and CSRF on every form."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import select
from web_helpers import World, csrf_of, login

from benger.study._models import ReviewAssignment, Submission
from benger.web._app import ROUTERS

ROLE_USERS = {"admin": "admin", "participant": "participant", "grader": "g0", "creator": "c0"}
ANY = ("anonymous", "admin", "participant", "grader", "creator")
PUBLIC = "public"

# (method, path template) -> roles allowed ("public": everyone, logged in or not)
MATRIX: dict[tuple[str, str], tuple[str, ...] | str] = {
    ("GET", "/"): PUBLIC,
    ("GET", "/healthz"): PUBLIC,
    ("GET", "/lang/{lang}"): PUBLIC,
    ("GET", "/login"): PUBLIC,
    ("POST", "/login"): PUBLIC,
    ("POST", "/logout"): PUBLIC,
    ("GET", "/invite/{token}"): PUBLIC,
    ("POST", "/invite/{token}"): PUBLIC,
    ("GET", "/profile"): ("participant",),
    ("POST", "/profile"): ("participant",),
    ("GET", "/studies"): ("participant",),
    ("POST", "/studies/{study_id}/enrol"): ("participant",),
    ("GET", "/studies/{study_id}"): ("participant",),
    ("POST", "/studies/{study_id}/tasks/{position}/start"): ("participant",),
    ("GET", "/studies/{study_id}/tasks/{position}"): ("participant",),
    ("POST", "/studies/{study_id}/tasks/{position}/draft"): ("participant",),
    ("POST", "/studies/{study_id}/tasks/{position}/submit"): ("participant",),
    ("POST", "/studies/{study_id}/tasks/{position}/skip"): ("participant",),
    ("GET", "/studies/{study_id}/feedback/{submission_id}"): ("participant",),
    ("GET", "/reviews"): ("grader", "creator"),
    ("GET", "/reviews/{assignment_id}"): ("grader", "creator"),
    ("POST", "/reviews/{assignment_id}/draft"): ("grader", "creator"),
    ("POST", "/reviews/{assignment_id}/submit"): ("grader", "creator"),
    ("POST", "/reviews/{assignment_id}/correct"): ("grader", "creator"),
    ("POST", "/reviews/{assignment_id}/problem"): ("grader", "creator"),
    ("GET", "/account"): ("admin", "participant", "grader", "creator"),
    ("POST", "/account/password"): ("admin", "participant", "grader", "creator"),
    ("GET", "/admin"): ("admin",),
    ("POST", "/admin/users"): ("admin",),
    ("POST", "/admin/users/{user_id}/active"): ("admin",),
    ("POST", "/admin/users/{user_id}/password"): ("admin",),
    ("POST", "/admin/users/{user_id}/roles"): ("admin",),
    ("POST", "/admin/studies/{study_id}/state"): ("admin",),
    ("POST", "/admin/studies/{study_id}/groups"): ("admin",),
    ("POST", "/admin/studies/{study_id}/feedback"): ("admin",),
    ("GET", "/admin/studies/{study_id}/export/{name}"): ("admin",),
    ("POST", "/admin/invitations"): ("admin",),
    ("POST", "/admin/studies"): ("admin",),
    ("GET", "/admin/studies/{study_id}"): ("admin",),
    ("POST", "/admin/studies/{study_id}/authors"): ("admin",),
    ("POST", "/admin/studies/{study_id}/picks"): ("admin",),
    ("POST", "/admin/studies/{study_id}/assignments"): ("admin",),
    # the results viewer (benger.web.viewer): organisers only, through benger.web.access
    ("GET", "/view/"): ("admin",),
    ("HEAD", "/view/"): ("admin",),
    ("GET", "/view/browse"): ("admin",),
    ("HEAD", "/view/browse"): ("admin",),
    ("GET", "/view/solution"): ("admin",),
    ("HEAD", "/view/solution"): ("admin",),
    ("GET", "/view/compare"): ("admin",),
    ("HEAD", "/view/compare"): ("admin",),
    ("GET", "/view/validation"): ("admin",),
    ("HEAD", "/view/validation"): ("admin",),
    ("GET", "/view/errors"): ("admin",),
    ("HEAD", "/view/errors"): ("admin",),
}
FORMS = {
    "/login": {"username": "niemand", "password": "falsch-falsch"},
    "/profile": {"expertise_level": "graduate", "competence_0": "2", "competence_1": "3", "competence_2": "4"},
    "/admin/invitations": {"role": "participant"},
    # harmless values: the matrix runs with them for the roles allowed (p3 stays active, keeps its roles)
    "/admin/users/{user_id}/active": {"active": "1"},
    "/admin/users/{user_id}/roles": {"roles": "participant"},
    "/admin/users/{user_id}/password": {"password": "kurz"},
    "/admin/studies/{study_id}/state": {"action": "unbekannt"},
    "/admin/studies/{study_id}/feedback": {"on": "0"},
    "/account/password": {"current_password": "falsch-falsch", "new_password": "neues-pw-123", "repeat": "anders-123"},
}


def _routes() -> set[tuple[str, str]]:
    """Every route but the workbench's (/orgs: tests/web/test_workbench_authz.py has their matrix)."""
    return {
        (m, r.path)
        for router in ROUTERS
        for r in router.routes
        if isinstance(r, APIRoute) and not r.path.startswith("/orgs")
        for m in r.methods
    }


def test_matrix_covers_every_route() -> None:
    assert _routes() == set(MATRIX)


def _own_assignment(world: World, username: str) -> int:
    with world.store.session() as session:
        aid = session.scalar(select(ReviewAssignment.id).filter_by(grader_id=world.ids[username]).limit(1))
    assert aid is not None
    return aid


def _url(template: str, world: World, role: str) -> str:
    aid = _own_assignment(world, ROLE_USERS.get(role, "g0") if role in ("grader", "creator") else "g0")
    # the open study: there, picks and assignment are refused (409) and the reviewed study stays as it is
    study = world.live if template.startswith(("/studies", "/admin/studies")) else world.study
    return template.format(
        study_id=study,
        position=5,
        assignment_id=aid,
        token="kein-token",
        lang="de",
        user_id=world.ids["p3"],
        name="study.json",
        submission_id="0" * 32,
    )


@pytest.mark.parametrize("role", ANY)
def test_authorization_matrix(world: World, app: FastAPI, role: str) -> None:
    # one client per role; /logout runs last because it ends the session
    cells = sorted(MATRIX.items(), key=lambda item: item[0][1] == "/logout")
    with TestClient(app) as client:
        if role != "anonymous":
            login(client, ROLE_USERS[role])
        token = csrf_of(client, "/login")
        for (method, template), allowed in cells:
            url = _url(template, world, role)
            if method in ("GET", "HEAD"):  # HEAD: the viewer's pages (the same answer as GET, no body)
                resp = client.request(method, url, follow_redirects=False)
            else:
                form = FORMS.get(template, {})
                resp = client.post(url, data={**form, "csrf_token": token}, follow_redirects=False)
            where = f"{role} {method} {url}: {resp.status_code}"
            if allowed == PUBLIC or role in allowed:
                assert resp.status_code not in (401, 403) or template == "/login", where  # wrong password: 401
                assert resp.headers.get("location") != "/login" or template in ("/", "/logout"), where
                assert resp.status_code < 500, where
            elif role == "anonymous":
                is_json = template.endswith("/draft")
                assert (resp.status_code, resp.headers.get("location")) == (
                    (401, None) if is_json else (303, "/login")
                ), where
            else:
                assert resp.status_code == 403, where


def test_other_graders_review_is_forbidden(world: World, app: FastAPI) -> None:
    foreign = _own_assignment(world, "g1")
    with TestClient(app) as client:
        login(client, "g0")
        assert client.get(f"/reviews/{foreign}").status_code == 403
        token = csrf_of(client, "/reviews")
        resp = client.post(f"/reviews/{foreign}/draft", data={"csrf_token": token, "dim_sprache": "1"})
        assert resp.status_code == 403


def test_post_without_csrf_is_refused_everywhere(world: World, app: FastAPI) -> None:
    clients: dict[str, TestClient] = {}
    for (method, template), allowed in MATRIX.items():
        if method != "POST":
            continue
        role = "participant" if allowed == PUBLIC else allowed[0]
        if role not in clients:
            clients[role] = login(TestClient(app), ROLE_USERS[role])
        client = clients[role]
        resp = client.post(_url(template, world, role), data=FORMS.get(template, {}), follow_redirects=False)
        assert resp.status_code == 403, template
        wrong = client.post(
            _url(template, world, role), data={**FORMS.get(template, {}), "csrf_token": "x"}, follow_redirects=False
        )
        assert wrong.status_code == 403, template


def test_csrf_less_submit_changes_nothing(world: World, app: FastAPI) -> None:
    with TestClient(app) as client:
        login(client, "participant")
        token = csrf_of(client, "/studies")
        client.post(f"/studies/{world.live}/tasks/2/start", data={"csrf_token": token})
        resp = client.post(f"/studies/{world.live}/tasks/2/submit", data={"text": "ohne Token"})
        assert resp.status_code == 403
    with world.store.session() as session:
        assert session.scalar(select(Submission).filter_by(user_id=world.ids["participant"], task_id="mini-t3")) is None
