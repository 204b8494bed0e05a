"""Members over HTTP: an invitation link followed while logged out leads through the login back to the
invitation; the owner changes a role and removes a member; the last owner is kept, with the reason shown;
a removed member's next request to the organisation is 404."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from study_helpers import PASSWORD, user
from web_helpers import csrf_of, login

from benger.store import Store, open_store
from benger.web import create_app
from benger.web._orgscope import create_organisation, organisations_of


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Store, TestClient, int]]:
    store = open_store(tmp_path / "members.db")
    owner = user(store, "olga", "participant")
    user(store, "paul", "participant")
    app = create_app(store)
    yield store, app, create_organisation(store, "Lehrstuhl", owner)
    store.close()


def test_join_through_the_login_then_roles_and_removal(site: tuple[Store, object, int]) -> None:
    store, app, org = site
    owner = login(TestClient(app), "olga")  # type: ignore[arg-type]
    made = owner.post(f"/orgs/{org}/invitations", data={"role": "grader", "csrf_token": csrf_of(owner, "/orgs")})
    link = re.search(r'value="http://testserver(/orgs/join/[^"]+)"', made.text)
    assert link is not None
    assert "/orgs/join/" not in owner.get(f"/orgs/{org}/members").text  # shown once

    guest = TestClient(app)  # type: ignore[arg-type]
    page = guest.get(link.group(1)).text
    login_link = re.search(r'href="(/login\?next=[^"]+)" id="login-first"', page)
    assert login_link is not None and "Lehrstuhl" in page
    form = guest.get(login_link.group(1).replace("&amp;", "&")).text
    assert f'name="next" value="{link.group(1)}"' in form
    resp = guest.post(
        "/login",
        data={"username": "paul", "password": PASSWORD, "next": link.group(1), "csrf_token": csrf_of(guest)},
        follow_redirects=False,
    )
    assert resp.status_code == 303 and resp.headers["location"] == link.group(1)
    joined = guest.post(link.group(1), data={"csrf_token": csrf_of(guest, link.group(1))}, follow_redirects=False)
    assert joined.status_code == 303 and joined.headers["location"] == f"/orgs/{org}"
    paul = next(m for m in store_members(store, org) if m[0] == "paul")
    assert paul[1] == "grader"

    token = csrf_of(owner, "/orgs")
    last = owner.post(f"/orgs/{org}/members/{owner_id(store, org)}/role", data={"role": "grader", "csrf_token": token})
    assert last.status_code == 422 and "mindestens eine Eigentümerin" in last.text
    owner.post(f"/orgs/{org}/members/{paul[2]}/role", data={"role": "organiser", "csrf_token": token})
    assert ("paul", "organiser") in {(n, r) for n, r, _ in store_members(store, org)}
    assert guest.get(f"/orgs/{org}/corpora").status_code == 200  # an organiser reads corpora
    owner.post(f"/orgs/{org}/members/{paul[2]}/remove", data={"csrf_token": token})
    assert guest.get(f"/orgs/{org}").status_code == 404
    assert organisations_of(store, paul[2]) == []
    audit = owner.get(f"/orgs/{org}/audit").text
    assert re.findall(r"<tr><td>[^<]*</td><td>[^<]*</td><td>([a-z-]+)</td>", audit)[:4] == [
        "remove",
        "role-change",
        "accept",
        "invite",
    ]


def test_a_redirect_after_login_stays_on_this_site(site: tuple[Store, object, int]) -> None:
    _, app, _ = site
    client = TestClient(app)  # type: ignore[arg-type]
    for target in ("//evil.example/x", "https://evil.example/", "/\\evil.example"):
        resp = client.post(
            "/login",
            data={"username": "paul", "password": PASSWORD, "next": target, "csrf_token": csrf_of(client)},
            follow_redirects=False,
        )
        assert resp.status_code == 303 and resp.headers["location"] == "/studies", target


def store_members(store: Store, org: int) -> list[tuple[str, str, int]]:
    from sqlalchemy import select

    from benger.store._orgs import Membership
    from benger.study._models import StudyUser

    with store.session() as session:
        rows = session.execute(
            select(StudyUser.username, Membership.role, StudyUser.id)
            .join(Membership, Membership.user_id == StudyUser.id)
            .where(Membership.organisation_id == org)
        ).all()
        return [(str(n), str(r), int(i)) for n, r, i in rows]


def owner_id(store: Store, org: int) -> int:
    return next(i for _, r, i in store_members(store, org) if r == "owner")


def test_an_invited_person_without_an_account_creates_one_and_joins(site: tuple[Store, object, int]) -> None:
    store, app, org = site
    owner = login(TestClient(app), "olga")  # type: ignore[arg-type]
    made = owner.post(f"/orgs/{org}/invitations", data={"role": "organiser", "csrf_token": csrf_of(owner, "/orgs")})
    found = re.search(r'value="http://testserver(/orgs/join/[^"]+)"', made.text)
    assert found is not None
    link = found.group(1)
    guest = TestClient(app)  # type: ignore[arg-type]
    form = {"username": "neu", "password": "kurz", "csrf_token": csrf_of(guest, link)}
    weak = guest.post(f"{link}/account", data=form)
    assert weak.status_code == 422 and "mindestens 8 Zeichen" in weak.text
    assert all(name != "neu" for name, _, _ in store_members(store, org))
    taken = guest.post(f"{link}/account", data=form | {"username": "paul", "password": "ein-langes-Passwort-42"})
    assert taken.status_code == 422 and "bereits vergeben" in taken.text
    resp = guest.post(f"{link}/account", data=form | {"password": "ein-langes-Passwort-42"}, follow_redirects=False)
    assert resp.status_code == 303 and resp.headers["location"] == f"/orgs/{org}"
    assert ("neu", "organiser") in {(n, r) for n, r, _ in store_members(store, org)}
    assert guest.get(f"/orgs/{org}/corpora").status_code == 200
    assert guest.get("/", follow_redirects=False).headers["location"] == "/orgs"  # no platform role
    assert guest.get("/admin", follow_redirects=False).status_code == 403
    again = TestClient(app)  # type: ignore[arg-type]
    second = form | {"username": "noch-wer", "password": "ein-langes-Passwort-42", "csrf_token": csrf_of(again, link)}
    used = again.post(f"{link}/account", data=second)
    assert used.status_code == 422 and "ungültig, benutzt oder abgelaufen" in used.text
