"""Remaining integrity faults of issue 25, observation 8: ids above 64 bits, weak passwords, unlimited
current-password guesses on the account page, a silent default expertise level."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from study_helpers import PASSWORD, user
from web_helpers import World, csrf_of, login

from benger.study import StudyError, create_user

HUGE = "99999999999999999999"  # > 2**63 - 1


@pytest.mark.parametrize(
    ("who", "path"),
    [
        ("participant", f"/studies/{HUGE}"),
        ("participant", f"/studies/1/tasks/{HUGE}"),
        ("participant", f"/studies/-{HUGE}"),
        ("g0", f"/reviews/{HUGE}"),
        ("admin", f"/admin/studies/{HUGE}"),
        ("admin", f"/admin/studies/{HUGE}/export/submissions.csv"),
    ],
)
def test_an_id_above_64_bits_is_not_found(world: World, app: FastAPI, who: str, path: str) -> None:
    client = login(TestClient(app, raise_server_exceptions=False), who)
    resp = client.get(path)
    assert resp.status_code == 404, resp.text  # was HTTP 500 (the database refused the number)


def test_posting_to_an_id_above_64_bits_is_not_found(world: World, app: FastAPI) -> None:
    client = login(TestClient(app, raise_server_exceptions=False), "participant")
    token = csrf_of(client, "/studies")
    resp = client.post(
        f"/studies/{HUGE}/tasks/0/draft", data={"text": "x", "version": "0"}, headers={"X-CSRF-Token": token}
    )
    assert resp.status_code == 404


@pytest.mark.parametrize("password", ["12345678", "password1", "passwort", "qwertzui", "aaaaaaaaaa", "anna1234"])
def test_guessable_passwords_are_refused(world: World, password: str) -> None:
    with world.store.session() as session, pytest.raises(StudyError, match="zu leicht zu erraten"):
        create_user(session, "anna", password, ["participant"])


@pytest.mark.parametrize("password", [PASSWORD, "Kaufvertrag-433-BGB", "neues-passwort"])
def test_reasonable_passwords_are_accepted(world: World, password: str) -> None:
    with world.store.session() as session:
        create_user(session, f"ok-{len(password)}-{password[:3]}", password, ["participant"])


def test_current_password_guesses_on_the_account_page_are_limited(world: World, app: FastAPI) -> None:
    user(world.store, "konto", "participant")
    client = login(TestClient(app), "konto")
    token = csrf_of(client, "/account")
    form = {"new_password": "Kaufvertrag-433-BGB", "repeat": "Kaufvertrag-433-BGB", "csrf_token": token}
    codes = [
        client.post("/account/password", data={**form, "current_password": f"rate-{i}"}).status_code for i in range(30)
    ]
    assert codes[:5] == [422] * 5 and codes[5:] == [429] * 25  # before: 30 checked guesses
    resp = client.post("/account/password", data={**form, "current_password": PASSWORD})
    assert resp.status_code == 429 and "Sekunden" in resp.text  # the right one waits too (one a minute)


def test_the_expertise_level_has_no_silent_default(world: World, app: FastAPI) -> None:
    user(world.store, "neu-ohne-profil", "participant")
    client = login(TestClient(app), "neu-ohne-profil")
    page = client.get("/profile").text
    select = re.search(r'<select name="expertise_level"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None
    first = re.search(r"<option[^>]*>", select.group(1))
    assert first is not None and 'value=""' in first.group(0) and "selected" in first.group(0)
    token = csrf_of(client, "/profile")
    resp = client.post("/profile", data={"expertise_level": "", "csrf_token": token})
    assert resp.status_code == 422


def test_the_grader_queue_numbers_tasks_without_a_title(world: World, app: FastAPI) -> None:
    """Issue 25, observation 9: the queue said "Aufgabe" on every row when tasks have no title."""
    from sqlalchemy import update

    from benger.study._models import StudyTask

    with world.store.session() as session:
        session.execute(update(StudyTask).where(StudyTask.study_id == world.study).values(title=None))
    page = login(TestClient(app), "g0").get("/reviews").text
    cells = re.findall(r"<tr><td>\d+</td><td>([^<]*)</td>", page)
    assert cells and all(re.fullmatch(r"Aufgabe [1-6]", c) for c in cells) and len(set(cells)) > 1
