"""The lockout attack of issue 25 over HTTP: 21 wrong logins for a user name from an attacker's browser; the
owner, in the browser they logged in with before (signed device cookie), still gets in."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient
from study_helpers import PASSWORD, user
from web_helpers import World, csrf_of

from benger.web._auth import DEVICE_COOKIE


def _login(client: TestClient, name: str, password: str) -> int:
    token = csrf_of(client)
    data = {"username": name, "password": password, "csrf_token": token}
    return client.post("/login", data=data, follow_redirects=False).status_code


def test_21_wrong_logins_do_not_lock_the_owner_out(world: World, app: FastAPI) -> None:
    user(world.store, "opfer", "participant")
    owner, attacker = TestClient(app), TestClient(app)
    assert _login(owner, "opfer", PASSWORD) == 303
    assert owner.cookies.get(DEVICE_COOKIE)
    owner.post("/logout", data={"csrf_token": csrf_of(owner, "/account")})
    codes = [_login(attacker, "opfer", "falsch-falsch") for _ in range(21)]
    assert codes[:5] == [401] * 5 and codes[5:] == [429] * 16  # the attacker is slowed down
    page = attacker.get("/login")
    assert page.status_code == 200
    assert _login(owner, "opfer", PASSWORD) == 303  # before: 429 for 15 minutes
    # a forged device cookie is no known device
    forger = TestClient(app)
    forger.cookies.set(DEVICE_COOKIE, "eyJkIjoieCIsIm4iOlsib3BmZXIiXX0.forged")
    assert _login(forger, "opfer", PASSWORD) == 429


def test_the_refusal_says_when_to_try_again(world: World, app: FastAPI) -> None:
    user(world.store, "zweites-opfer", "participant")
    client = TestClient(app)
    for _ in range(5):
        _login(client, "zweites-opfer", "falsch-falsch")
    token = csrf_of(client)
    resp = client.post("/login", data={"username": "zweites-opfer", "password": "x" * 8, "csrf_token": token})
    assert resp.status_code == 429 and "Sekunden möglich" in resp.text
