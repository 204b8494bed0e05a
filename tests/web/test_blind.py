"""Blindness of the grading pages, escaping of solution text, rate-limited login, invitations."""

from __future__ import annotations

import re

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from study_helpers import HALF_MARKS as FULL
from study_helpers import PASSWORD, REFERENCE_MARK, SYSTEMS
from web_helpers import XSS, World, csrf_of, login

from benger.study._models import Pick, ReviewAssignment, StudyUser


def _forbidden_words(world: World) -> list[str]:
    with world.store.session() as session:
        users = list(session.scalars(select(StudyUser)))
        picks = list(session.scalars(select(Pick)))
    words = [
        REFERENCE_MARK,
        "traditional",
        "co_creation",
        "Ko-Kreation",
        "Klassisch",
        "llm",
        "generation",
        "human_solution",
        "flagship",
        "efficiency",
        "open_reference",
        "OTHER-GRADER-NOTE",
    ]
    words += [name for name, _ in SYSTEMS]
    words += [u.pseudonym for u in users] + [f">{u.username}<" for u in users if u.username.startswith("p")]
    words += [p.code for p in picks] + [p.target_id for p in picks]
    return words


def test_blind_grader_sees_no_provenance(world: World, app: FastAPI) -> None:
    with world.store.session() as session:
        mine = list(session.scalars(select(ReviewAssignment).filter_by(grader_id=world.ids["g0"])))
    # another grader's submitted review of one of g0's picks must not show up anywhere
    other = TestClient(app)
    login(other, "g1")
    with world.store.session() as session:
        shared = session.scalar(
            select(ReviewAssignment).where(
                ReviewAssignment.grader_id == world.ids["g1"], ReviewAssignment.pick_id.in_([a.pick_id for a in mine])
            )
        )
    assert shared is not None  # the roster has 3 blind graders, so g0 and g1 share every pick
    token = csrf_of(other, "/reviews")
    data = {f"dim_{k}": str(v) for k, v in FULL.items()} | {f"just_{k}": "OTHER-GRADER-NOTE" for k in FULL}
    assert other.post(f"/reviews/{shared.id}/submit", data={**data, "csrf_token": token}).status_code == 200
    client = TestClient(app)
    login(client, "g0")
    bodies = [client.get("/reviews").text]
    token = csrf_of(client, "/reviews")
    for a in mine:
        bodies.append(client.get(f"/reviews/{a.id}").text)
        resp = client.post(f"/reviews/{a.id}/draft", data={"csrf_token": token, "dim_sprache": "1.5"})
        assert resp.status_code == 200
        bodies.append(resp.text)
    assert any("Sachverhalt" in b for b in bodies)
    leaks = {w for w in _forbidden_words(world) for b in bodies if w in b}
    assert leaks == set()


def test_creator_sees_the_reference(world: World, app: FastAPI) -> None:
    with world.store.session() as session:
        aid = session.scalar(select(ReviewAssignment.id).filter_by(grader_id=world.ids["c0"], role="creator").limit(1))
    client = login(TestClient(app), "c0")
    assert REFERENCE_MARK in client.get(f"/reviews/{aid}").text


def test_solution_text_is_escaped(world: World, app: FastAPI) -> None:
    with world.store.session() as session:
        aid = session.scalar(
            select(ReviewAssignment.id)
            .join(Pick, Pick.id == ReviewAssignment.pick_id)
            .where(ReviewAssignment.grader_id == world.ids["g2"], Pick.target_kind == "human_solution")
            .limit(1)
        )
    page = login(TestClient(app), "g2").get(f"/reviews/{aid}").text
    assert XSS not in page
    assert "&lt;script&gt;alert('xss')&lt;/script&gt;" in page  # rendered as Markdown text, the tag escaped


def test_login_is_rate_limited(app: FastAPI) -> None:
    client = TestClient(app)
    token = csrf_of(client)
    bad = {"username": "g1", "password": "falsch-falsch", "csrf_token": token}
    codes = [client.post("/login", data=bad).status_code for _ in range(6)]
    assert codes == [401] * 5 + [429]
    # the right password is refused too while the limit holds
    ok = client.post("/login", data={"username": "g1", "password": PASSWORD, "csrf_token": token})
    assert ok.status_code == 429


def test_session_cookie_flags(app: FastAPI) -> None:
    resp = TestClient(app).get("/login")
    cookie = resp.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie


def test_invitation_link_works_once(world: World, app: FastAPI) -> None:
    admin = login(TestClient(app), "admin")
    resp = admin.post(
        "/admin/invitations", data={"role": "grader", "csrf_token": csrf_of(admin, "/admin")}, follow_redirects=False
    )
    token = re.search(r"invitation=([\w-]+)", resp.headers["location"])
    assert token is not None
    guest = TestClient(app)
    form = {"username": "neu", "password": "langes-passwort", "csrf_token": csrf_of(guest)}
    assert guest.post(f"/invite/{token.group(1)}", data=form, follow_redirects=False).headers["location"] == "/reviews"
    again = TestClient(app)
    form = {"username": "neu2", "password": "langes-passwort", "csrf_token": csrf_of(again)}
    assert again.post(f"/invite/{token.group(1)}", data=form).status_code == 400


def test_invalid_draft_points_are_explained_not_saved(world: World, app: FastAPI) -> None:
    with world.store.session() as session:
        aid = session.scalar(
            select(ReviewAssignment.id)
            .filter_by(grader_id=world.ids["g2"])
            .order_by(ReviewAssignment.id.desc())
            .limit(1)
        )
    client = login(TestClient(app), "g2")
    resp = client.post(f"/reviews/{aid}/draft", data={"csrf_token": csrf_of(client, "/reviews"), "dim_sprache": "2.3"})
    assert resp.status_code == 422
    message = "Sprache und Fachterminologie: Punkte müssen zwischen 0 und 3 in Schritten von 0,5 liegen"
    assert resp.json() == {"error": message, "field": "sprache"}


def test_english_is_switchable(app: FastAPI) -> None:
    client = TestClient(app)
    assert 'lang="de"' in client.get("/login").text
    resp = client.get("/lang/en", params={"next": "/login"}, follow_redirects=False)
    assert (resp.status_code, resp.headers["location"]) == (303, "/login")
    page = client.get("/login").text
    assert 'lang="en"' in page and "User name" in page and "Benutzername" not in page
    # only local paths are followed (no open redirect)
    assert client.get("/lang/de", params={"next": "//evil.example"}, follow_redirects=False).headers["location"] == "/"
    assert 'lang="de"' in client.get("/login").text
