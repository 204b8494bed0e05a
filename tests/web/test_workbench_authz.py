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
from sqlalchemy import select
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
        "validation_id": target.validation,
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
            if re.search(r"{(label|task_id|ref|user_id|run_id|validation_id)}", template):  # A's id, B's objects
                expect(role, method, template, _objects(a, b), {404} if cap in holds else {403})
            if cap not in holds:  # A's id, A's own objects, a capability the role lacks
                expect(role, method, template, _objects(a, a) | {"rubric": ""}, {403})
        # A's own corpus, B's rubric: never attached
        values = _objects(a, a) | {"rubric": f"ref:{b.rubric}"}
        template = "/orgs/{org_id}/corpora/{label}/rubric"
        expect(role, "POST", template, values, {404} if OrgCap.CORPORA_WRITE in holds else {403})
        # A's run form, B's uploaded rubric: never chosen for a run (org_access scope: 404, nothing stored)
        expect(role, "POST", "/orgs/{org_id}/runs", values, {404} if OrgCap.RUNS_WRITE in holds else {403})
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


# -- the results pages (/view): an organisation's owners and organisers read its corpora's results only -----
#: every viewer route with the query that names an organisation's object (a corpus, task or solution)
VIEWER: dict[str, Callable[[dict[str, str]], str]] = {
    "/view/": lambda o: "/view/",
    "/view/browse": lambda o: f"/view/browse?corpus={o['corpus']}",
    "/view/solution": lambda o: f"/view/solution?kind=generation&id={o['generation']}",
    "/view/compare": lambda o: f"/view/compare?corpus={o['corpus']}&task={o['task']}",
    "/view/validation": lambda o: "/view/validation",
    "/view/errors": lambda o: "/view/errors",
}


def _results(store: Store, org: Org, letter: str) -> dict[str, str]:
    """One judged generation of system ``sys-<letter>`` in the organisation's corpus "faelle" (the same task
    id in both organisations: only the stored corpus name tells them apart)."""
    from study_helpers import HALF_MARKS, scored_judgement

    from benger.schema import Generation, SystemConfig
    from benger.store._orgs import OrgCorpus

    with store.session() as session:
        corpus = session.scalars(
            select(OrgCorpus.corpus).where(OrgCorpus.organisation_id == org.id, OrgCorpus.label == "faelle")
        ).one()
    system = SystemConfig(name=f"sys-{letter}", provider="openai-compatible", model=f"m-{letter}")
    store.upsert_system(system)
    gid = f"gen-{letter}"
    store.save_generation(
        Generation(
            generation_id=gid,
            task_id="faelle-t1",
            corpus=corpus,
            system=system.name,
            config_hash=system.config_hash(),
            text=f"Gutachten {letter}",
            output_tokens=10,
        )
    )
    judgement = scored_judgement(gid, "richter", HALF_MARKS).model_copy(
        update={"target_kind": "generation", "judgement_id": f"j-{letter}"}
    )
    store.save_judgement(judgement)
    return {"corpus": corpus, "task": "faelle-t1", "generation": gid, "system": system.name}


def test_results_pages_show_a_member_only_their_organisations_results(pg_store: Store, orgs: tuple[Org, Org]) -> None:
    """Owner and organiser of A read A's results on every /view page and nothing of B (B's solution and task
    are 404, B's corpus and system on no page); A's grader and participant get 403, anonymous the login; a
    platform admin still sees both; nothing changed in any table."""
    from study_helpers import user

    a, b = orgs
    mine, theirs = _results(pg_store, a, "a"), _results(pg_store, b, "b")
    app = create_app(pg_store)
    view_routes = {r.path for router in ROUTERS for r in router.routes if getattr(r, "path", "").startswith("/view")}
    assert view_routes - {"/view/static"} == set(VIEWER), "every viewer route needs a VIEWER entry here"
    admin = login(TestClient(app), "platform-admin") if user(pg_store, "platform-admin", "admin") else None
    assert admin is not None
    for page in ("/view/", "/view/browse"):  # the platform's admin: every organisation's results, as before
        text = admin.get(page).text
        assert "sys-a" in text and "sys-b" in text, page
    before = dump(pg_store)
    wrong: list[str] = []
    for role in ROLES:
        client = login(TestClient(app), a.names[role])
        reads = OrgRole(role) in ORG_POLICY[OrgCap.RESULTS_READ]
        for route, url in VIEWER.items():
            own, other = client.get(url(mine)), client.get(url(theirs))
            if not reads:
                if (own.status_code, other.status_code) != (403, 403):
                    wrong.append(f"{role} {route}: {own.status_code}/{other.status_code}, expected 403")
                continue
            if own.status_code != 200:
                wrong.append(f"{role} {route} (A): {own.status_code}")
            expected = 404 if route in ("/view/solution", "/view/compare") else 200
            if route == "/view/browse":  # B's corpus is not among the member's: "unknown corpus", A's listed
                expected = 400
            if other.status_code != expected:
                wrong.append(f"{role} {route} (B): {other.status_code}, expected {expected}")
            for response in (own, other):  # B's names, less those the request itself named (echoed in links)
                echo = response.url.query.decode()
                markers = [m for m in (theirs["corpus"], "gen-b") if m not in echo] + ["sys-b", "Gutachten b"]
                if any(m in response.text for m in markers):
                    wrong.append(f"{role} {response.url}: shows B's results")
        if reads:
            assert "sys-a" in client.get("/view/").text
            assert "gen-a" in client.get("/view/browse").text
            assert "Gutachten a" in client.get(VIEWER["/view/solution"](mine)).text
    anonymous = TestClient(app)
    for route, url in VIEWER.items():
        status = anonymous.get(url(theirs), follow_redirects=False).status_code
        if status != 303:
            wrong.append(f"anonymous {route}: {status}")
    assert wrong == []
    assert dump(pg_store) == before
    assert {OrgRole(r) for r in ROLES if OrgRole(r) in ORG_POLICY[OrgCap.RESULTS_READ]} == {
        OrgRole.OWNER,
        OrgRole.ORGANISER,
    }


# -- an organisation's studies: their admin pages open for its owners and organisers only --------------------
def _study_routes() -> list[tuple[str, str]]:
    """Every per-study admin route (``/admin/studies/{study_id}...``), read from the app."""
    return sorted(key for key in _all_routes() if key[1].startswith("/admin/studies/{study_id}"))


def _all_routes() -> set[tuple[str, str]]:
    return {(m, r.path) for router in ROUTERS for r in router.routes if isinstance(r, APIRoute) for m in r.methods}


def test_a_member_of_one_organisation_administers_none_of_anothers_studies(
    pg_store: Store, orgs: tuple[Org, Org]
) -> None:
    """Every role of A on every per-study admin route with B's study id: 403, nothing changed; A's owner and
    organiser open A's own study's admin page (200), its grader and participant do not (403)."""
    a, b = orgs
    app = create_app(pg_store)
    routes = _study_routes()
    assert ("GET", "/admin/studies/{study_id}") in routes and len(routes) >= 8
    before = dump(pg_store)
    refused = []
    for role in ROLES:
        client = login(TestClient(app), a.names[role])
        csrf = csrf_of(client, "/orgs")
        for method, template in routes:
            path = template.format(study_id=b.study, name="study.json")
            form = {"csrf_token": csrf, "action": "open", "on": "1", "groups": ""}
            status = client.request(method, path, data=form if method == "POST" else None,
                                    follow_redirects=False).status_code  # fmt: skip
            if status != 403:
                refused.append(f"{role} {method} {path}: {status}")
        own = client.get(f"/admin/studies/{a.study}").status_code
        assert own == (200 if role in ("owner", "organiser") else 403), (role, own)
    assert refused == []
    assert dump(pg_store) == before


def test_an_organisations_study_names_no_account_of_another(pg_store: Store, orgs: tuple[Org, Org]) -> None:
    """A's owner and organiser on A's study: no name of B's members on its admin page, whose author choices
    are A's creators; naming B's creator (or any B member) as an author by id is refused (422), nothing
    changed. A's grader and participant: 403 on the same write."""
    from study_helpers import user

    from benger.study._models import StudyTask
    from benger.web._orgcore import Member, OrgInfo
    from benger.web._orgscope import OrgScope, accept_invitation

    a, b = orgs
    creators = {}
    for org, name in ((a, "a-autorin"), (b, "b-autor")):
        creators[org.id] = user(pg_store, name, "creator")
        scope = OrgScope(pg_store, OrgInfo(org.id, "", ""), Member(org.users["owner"], "", OrgRole.OWNER))
        accept_invitation(pg_store, scope.invite("grader"), creators[org.id], name)
    with pg_store.session() as session:
        positions = list(session.scalars(select(StudyTask.position).where(StudyTask.study_id == a.study)))
    app = create_app(pg_store)
    page = f"/admin/studies/{a.study}"
    before = dump(pg_store)
    wrong = []
    for role in ROLES:
        client = login(TestClient(app), a.names[role])
        csrf = csrf_of(client, "/orgs")
        staff = role in ("owner", "organiser")
        if staff:
            text = client.get(page).text
            assert f'value="{creators[a.id]}"' in text and "a-autorin" in text
            shown = [n for n in [*b.names.values(), "b-autor"] if n in text]
            if shown:
                wrong.append(f"{role}: B's accounts {shown} on A's study page")
        for forged in (creators[b.id], *b.users.values()):
            form = {"csrf_token": csrf} | {f"author_{p}": str(creators[a.id]) for p in positions}
            form[f"author_{positions[0]}"] = str(forged)
            status = client.post(f"{page}/authors", data=form, follow_redirects=False).status_code
            if status != (422 if staff else 403):
                wrong.append(f"{role} author {forged}: {status}")
    assert wrong == []
    assert dump(pg_store) == before
