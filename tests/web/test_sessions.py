"""Server-side session revocation (logout, deactivation, password reset and change) and profile forms that
round-trip every stored field."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from study_helpers import PASSWORD, user
from web_helpers import World, csrf_of, login

from benger.schema import AREAS
from benger.study import save_expertise
from benger.study._models import EXPERTISE_LEVELS, StudyUser
from benger.web._app import SESSION_COOKIE


def _cookie(client: TestClient) -> str:
    value = client.cookies.get(SESSION_COOKIE)
    assert value is not None
    return value


def _replay(app: FastAPI, cookie: str, path: str = "/studies") -> tuple[int, str | None]:
    """Open ``path`` in a fresh client that only holds a saved session cookie (a copy taken before logout)."""
    thief = TestClient(app)
    thief.cookies.set(SESSION_COOKIE, cookie)
    resp = thief.get(path, follow_redirects=False)
    return resp.status_code, resp.headers.get("location")


def test_logout_ends_the_session_on_the_server(world: World, app: FastAPI) -> None:
    client = login(TestClient(app), "p1")
    saved = _cookie(client)
    assert _replay(app, saved) == (200, None)
    client.post("/logout", data={"csrf_token": csrf_of(client, "/studies")})
    assert _replay(app, saved) == (303, "/login")
    login(client, "p1")  # a new login works again
    assert client.get("/studies", follow_redirects=False).status_code == 200


def test_deactivation_and_admin_password_reset_end_sessions(world: World, app: FastAPI) -> None:
    uid = user(world.store, "wird-gesperrt", "participant")
    victim = login(TestClient(app), "wird-gesperrt")
    admin = login(TestClient(app), "admin")
    token = csrf_of(admin, "/admin")
    assert admin.post(f"/admin/users/{uid}/active", data={"active": "0", "csrf_token": token}).status_code == 200
    assert victim.get("/studies", follow_redirects=False).headers["location"] == "/login"
    other = TestClient(app)
    failed = other.post(
        "/login", data={"username": "wird-gesperrt", "password": PASSWORD, "csrf_token": csrf_of(other)}
    )
    assert failed.status_code == 401 and "Benutzername oder Passwort ist falsch." in failed.text
    admin.post(f"/admin/users/{uid}/active", data={"active": "1", "csrf_token": token})
    login(victim, "wird-gesperrt")
    assert victim.get("/studies", follow_redirects=False).status_code == 200
    admin.post(f"/admin/users/{uid}/password", data={"password": "vom-admin-1", "csrf_token": token})
    assert victim.get("/studies", follow_redirects=False).headers["location"] == "/login"
    fresh = TestClient(app)
    resp = fresh.post(
        "/login",
        data={"username": "wird-gesperrt", "password": "vom-admin-1", "csrf_token": csrf_of(fresh)},
        follow_redirects=False,
    )
    assert resp.status_code == 303
    # roles apply at once: without the participant role the Benchathon pages are forbidden
    admin.post(f"/admin/users/{uid}/roles", data={"roles": "grader", "csrf_token": token})
    assert fresh.get("/studies").status_code == 403


def test_own_password_change_keeps_this_session_and_ends_the_others(world: World, app: FastAPI) -> None:
    user(world.store, "wechsel", "grader")
    here, there = login(TestClient(app), "wechsel"), login(TestClient(app), "wechsel")
    form = {"current_password": PASSWORD, "new_password": "ganz-neu-123", "repeat": "ganz-neu-123"}
    resp = here.post("/account/password", data={**form, "csrf_token": csrf_of(here, "/account")})
    assert resp.status_code == 200 and 'id="password-changed"' in resp.text
    assert here.get("/reviews", follow_redirects=False).status_code == 200
    assert there.get("/reviews", follow_redirects=False).headers["location"] == "/login"


class _Form(HTMLParser):
    """The successful controls of the profile form, as a browser would send them unchanged."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "input" and a.get("type") == "radio":
            if "checked" in a:
                self.fields[a["name"]] = a["value"]
        elif tag == "input" and a.get("name"):
            self.fields[a["name"]] = a.get("value", "")
        elif tag == "select":
            self._select = a["name"]
        elif tag == "option" and self._select and "selected" in a:
            self.fields[self._select] = a["value"]

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def _profile(client: TestClient) -> dict[str, str]:
    parser = _Form()
    page = client.get("/profile").text
    form = re.search(r'<form method="post" action="/profile".*?</form>', page, re.S)
    assert form is not None
    parser.feed(form.group(0))
    return parser.fields


def _stored(world: World, uid: int) -> tuple[str | None, dict[str, int] | None, float | None]:
    with world.store.session() as session:
        row = session.get(StudyUser, uid)
        assert row is not None
        return row.expertise_level, row.competence, row.exam_grade


def test_resaving_the_profile_keeps_the_exam_grade(world: World, app: FastAPI) -> None:
    uid = user(world.store, "note", "participant")
    save_expertise(world.store, uid, "graduate", dict.fromkeys(AREAS, 4), 14.5)
    client = login(TestClient(app), "note")
    fields = _profile(client)
    assert fields["exam_grade"] == "14,5"  # pre-filled, German decimal comma
    client.post("/profile", data=fields)
    assert _stored(world, uid) == ("graduate", dict.fromkeys(AREAS, 4), 14.5)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    level=st.sampled_from(EXPERTISE_LEVELS),
    competence=st.lists(st.integers(1, 5), min_size=3, max_size=3),
    grade=st.one_of(st.none(), st.integers(0, 72).map(lambda q: q / 4)),  # 0..18 in quarter points
)
def test_profile_form_round_trips_every_stored_field(
    world: World, app: FastAPI, level: str, competence: list[int], grade: float | None
) -> None:
    uid = world.ids["p3"]
    values = dict(zip(AREAS, competence, strict=True))
    save_expertise(world.store, uid, level, values, grade)
    client = login(TestClient(app), "p3")
    resp = client.post("/profile", data=_profile(client), follow_redirects=False)
    assert resp.status_code == 303
    assert _stored(world, uid) == (level, values, grade)
