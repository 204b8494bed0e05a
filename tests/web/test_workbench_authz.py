"""The workbench's authorisation matrix on PostgreSQL: every route under /orgs x every role x organisation.

A member of organisation A (each of the four roles) calls every route of organisation B, naming B's corpora,
tasks, rubrics and members by id: 404 every time. Under A's own id, naming B's objects: 404 where the role
holds the route's capability, 403 where it does not. Every route A's role lacks is 403 in A. Not logged in:
the login page. A dump of every table before and after shows that nothing changed. The route list is read
from the app, so a new workbench route without a matrix entry fails here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from web_helpers import csrf_of, login
from workbench_world import MATRIX, ROLES, Org, dump, two_orgs

from benger.store import Store, open_store
from benger.web import create_app
from benger.web._app import ROUTERS
from benger.web._orgcore import ORG_POLICY, OrgCap, OrgRole

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def pg_store(pg_database: Callable[[str], AbstractContextManager[str]]) -> Iterator[Store]:
    with pg_database("benger_workbench") as url:
        store = open_store(url)
        try:
            yield store
        finally:
            store.close()


@pytest.fixture(scope="module")
def orgs(pg_store: Store) -> tuple[Org, Org]:
    return two_orgs(pg_store)


def _routes() -> dict[tuple[str, str], APIRoute]:
    """Every route of the app under /orgs (the app's routers, as tests/web/test_authz.py walks them)."""
    return {
        (method, route.path): route
        for router in ROUTERS
        for route in router.routes
        if isinstance(route, APIRoute) and route.path.startswith("/orgs")
        for method in route.methods
    }


def _capability(route: APIRoute) -> OrgCap | None:
    found = {getattr(d.call, "capability", None) for d in route.dependant.dependencies} - {None}
    assert len(found) <= 1, route.path
    return found.pop() if found else None


def _path(template: str, values: dict[str, Any]) -> str:
    return re.sub(r"{(\w+)}", lambda m: str(values[m.group(1)]), template)


def _call(client: TestClient, method: str, template: str, values: dict[str, Any], csrf: str) -> int:
    case = MATRIX[(method, template)]
    path = _path(template, values)
    if method == "GET":
        return client.get(path, follow_redirects=False).status_code
    files = {"file": case.upload} if case.upload else None
    data = {**case.form, "csrf_token": csrf}
    if "rubric" in data and values.get("rubric") is not None:
        data["rubric"] = str(values["rubric"])
    return client.post(path, data=data, files=files, follow_redirects=False).status_code


def _objects(org: Org, target: Org) -> dict[str, Any]:
    """Path values under ``org``'s id that name ``target``'s objects."""
    return {
        "org_id": org.id,
        "label": target.label,
        "task_id": target.task_id,
        "ref": target.rubric,
        "user_id": target.users["owner"],
        "token": "kein-gueltiger-link",
        "rubric": f"ref:{target.rubric}",
        "run_id": target.run,
    }


def test_every_route_refuses_the_other_organisation(pg_store: Store, orgs: tuple[Org, Org]) -> None:
    a, b = orgs
    app = create_app(pg_store)
    routes = _routes()
    assert set(routes) == set(MATRIX), "every workbench route needs a matrix entry (tests/web/workbench_world.py)"
    for key, route in routes.items():
        assert _capability(route) == MATRIX[key].capability, key
    clients = {role: login(TestClient(app), a.names[role]) for role in ROLES}
    csrf = {role: csrf_of(client, "/orgs") for role, client in clients.items()}
    anonymous = TestClient(app)
    before = dump(pg_store)
    refused: list[str] = []

    def expect(role: str, method: str, template: str, values: dict[str, Any], allowed: set[int]) -> None:
        status = _call(clients[role], method, template, values, csrf[role])
        if status not in allowed:
            refused.append(f"{role} {method} {_path(template, values)}: {status}, expected {sorted(allowed)}")

    scoped = [(m, t) for (m, t), case in MATRIX.items() if case.capability is not None]
    for role in ROLES:
        holds = {cap for cap, roles in ORG_POLICY.items() if OrgRole(role) in roles}
        for method, template in scoped:
            cap = MATRIX[(method, template)].capability
            expect(role, method, template, _objects(b, b), {404})  # B's id, B's objects: not a member
            if re.search(r"{(label|task_id|ref|user_id|run_id)}", template):  # A's id, B's objects
                expect(role, method, template, _objects(a, b), {404} if cap in holds else {403})
            if cap not in holds:  # A's id, A's own objects, a capability the role lacks
                expect(role, method, template, _objects(a, a) | {"rubric": ""}, {403})
        # A's own corpus, B's rubric: never attached
        values = _objects(a, a) | {"rubric": f"ref:{b.rubric}"}
        template = "/orgs/{org_id}/corpora/{label}/rubric"
        expect(role, "POST", template, values, {404} if OrgCap.CORPORA_WRITE in holds else {403})
        expect(role, "POST", "/orgs/join/{token}", _objects(a, b), {422})  # a forged link
        expect(role, "POST", "/orgs/join/{token}/account", _objects(a, b), {422})
        expect(role, "POST", "/orgs", _objects(a, b), {403})  # only the platform's admins create one
    for method, template in MATRIX:
        status = _call(anonymous, method, template, _objects(b, b), csrf_of(anonymous, "/login"))
        public = {("GET", "/orgs/join/{token}"): {404}, ("POST", "/orgs/join/{token}/account"): {422}}
        wanted = public.get((method, template), {303, 403})
        if status not in wanted:
            refused.append(f"anonymous {method} {template}: {status}")
    assert refused == []
    assert dump(pg_store) == before


def test_each_role_reads_exactly_what_the_policy_grants(pg_store: Store, orgs: tuple[Org, Org]) -> None:
    """In its own organisation a role's GET pages answer 200 where ORG_POLICY grants the capability, else 403;
    the organisation list names only the caller's organisations."""
    app = create_app(pg_store)
    a = orgs[0]
    for role in ROLES:
        client = login(TestClient(app), a.names[role])
        listing = client.get("/orgs").text
        assert "Organisation A" in listing and "Organisation B" not in listing
        for (method, template), case in MATRIX.items():
            if method != "GET" or case.capability is None:
                continue
            status = client.get(_path(template, _objects(a, a))).status_code
            granted = OrgRole(role) in ORG_POLICY[case.capability]
            assert status == (200 if granted else 403), (role, template)
