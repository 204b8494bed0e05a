"""Security headers and no-store on every page; every server message through the i18n table; HTML error pages
for browser routes (JSON only for scripts)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from web_helpers import World, csrf_of, login

from benger.study._models import ReviewAssignment
from benger.web import _app
from benger.web._i18n import EN

SRC = Path(_app.__file__).resolve().parents[1]
ERROR_CLASSES = {"StudyError", "AlreadySubmitted", "RateLimited", "WrongState"}


def _assignment(world: World, username: str, role: str) -> int:
    with world.store.session() as session:
        aid = session.scalar(select(ReviewAssignment.id).filter_by(grader_id=world.ids[username], role=role).limit(1))
    assert aid is not None
    return aid


def _pages(world: World) -> list[tuple[str, str]]:
    """(user, path) of every page type."""
    return [
        ("", "/login"),
        ("", "/invite/kein-token"),
        ("participant", "/studies"),
        ("participant", f"/studies/{world.live}"),
        ("participant", f"/studies/{world.live}/tasks/0"),
        ("participant", "/profile"),
        ("participant", "/account"),
        ("c0", "/reviews"),
        ("c0", f"/reviews/{_assignment(world, 'c0', 'creator')}"),  # shows the reference solution
        ("g0", f"/reviews/{_assignment(world, 'g0', 'blind')}"),
        ("admin", "/admin"),
        ("admin", f"/admin/studies/{world.study}"),
    ]


def test_every_page_sends_security_headers_and_no_store(world: World, app: FastAPI) -> None:
    clients: dict[str, TestClient] = {}
    for who, path in _pages(world):
        if who not in clients:
            clients[who] = login(TestClient(app), who) if who else TestClient(app)
        resp = clients[who].get(path)
        assert resp.status_code == 200, path
        headers = resp.headers
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert (headers["x-frame-options"], headers["x-content-type-options"]) == ("DENY", "nosniff"), path
        assert headers["referrer-policy"] == "same-origin"
        assert headers["cache-control"] == "no-store", path
    static = TestClient(app).get("/static/app.css")
    assert static.headers["x-content-type-options"] == "nosniff" and "no-store" not in static.headers.get(
        "cache-control", ""
    )


def _raised_templates() -> list[tuple[str, int, str]]:
    """(file, line, template) of every StudyError-family call in the study and web packages and the study CLI."""
    found = []
    files = [*(SRC / "study").glob("*.py"), *(SRC / "web").glob("*.py"), *(SRC / "cli").glob("_web*.py")]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in ERROR_CLASSES and node.args:
                first = node.args[0]
                assert isinstance(first, ast.Constant), f"{path.name}:{node.lineno}: message is not a literal"
                found.append((path.name, node.lineno, first.value))
    return found


def test_every_server_message_has_a_translation() -> None:
    templates = _raised_templates()
    assert len(templates) > 40
    missing = [f"{f}:{line}: {t}" for f, line, t in templates if t not in EN]
    assert missing == []
    # the English side has the same placeholders as the German template
    for _, _, template in templates:
        assert set(re.findall(r"{(\w+)}", template)) == set(re.findall(r"{(\w+)}", EN[template])), template
    assert all(text in EN for text in [*_app._HTTP_MESSAGES.values(), "Die Anfrage ist fehlgeschlagen."])


def test_no_plain_input_error_is_raised_in_the_study_or_web_code() -> None:
    offenders = []
    for path in [*(SRC / "study").glob("*.py"), *(SRC / "web").glob("*.py"), *(SRC / "cli").glob("_web*.py")]:
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "InputError":
                offenders.append(f"{path.name}:{node.lineno}")
    assert offenders == []


def test_taken_user_name_is_reported_in_german_and_english(world: World, app: FastAPI) -> None:
    admin = login(TestClient(app), "admin")
    form = {
        "username": "p1",
        "password": "langes-passwort",
        "roles": "participant",
        "csrf_token": csrf_of(admin, "/admin"),
    }
    resp = admin.post("/admin/users", data=form)
    assert resp.status_code == 422 and resp.headers["content-type"].startswith("text/html")
    assert "Der Benutzername p1 ist bereits vergeben." in resp.text and "taken" not in resp.text
    admin.get("/lang/en")
    english = admin.post("/admin/users", data=form)
    assert "The user name p1 is taken." in english.text


def test_picks_refused_in_the_wrong_state_are_explained_in_german(world: World, app: FastAPI) -> None:
    admin = login(TestClient(app), "admin")
    resp = admin.post(f"/admin/studies/{world.live}/picks", data={"csrf_token": csrf_of(admin, "/admin")})
    assert resp.status_code == 409
    assert "Das ist im Zustand „geöffnet“ der Studie nicht möglich" in resp.text


@pytest.mark.parametrize(
    ("path", "status", "text"),
    [
        ("/admin/studies/abc", 422, "Ungültige Angabe in: study_id"),
        ("/admin/studies/999", 422, "Die Studie 999 gibt es nicht."),
        ("/gibt-es-nicht", 404, "Diese Seite gibt es nicht."),
    ],
)
def test_browser_routes_get_german_html_error_pages(
    world: World, app: FastAPI, path: str, status: int, text: str
) -> None:
    resp = login(TestClient(app), "admin").get(path)
    assert resp.status_code == status
    assert resp.headers["content-type"].startswith("text/html")
    assert text in resp.text and '<html lang="de">' in resp.text


def test_scripts_get_json_errors(world: World, app: FastAPI) -> None:
    client = login(TestClient(app), "admin")
    resp = client.get("/admin/studies/abc", headers={"Accept": "application/json"})
    assert resp.status_code == 422 and resp.json() == {"error": "Ungültige Angabe in: study_id", "field": "study_id"}


def test_every_template_text_has_a_translation() -> None:
    missing, seen = [], 0
    for path in sorted((SRC / "web" / "templates").glob("*.html")):
        text = path.read_text("utf-8")
        for literal in re.findall(r"""_\((?:"([^"]+)"|'([^']+)')\)""", text):
            german = literal[0] or literal[1]
            seen += 1
            if german not in EN:
                missing.append(f"{path.name}: {german}")
    assert seen > 150 and missing == []
