"""Studies belong to organisations (issue 28): an organisation's organiser (no platform role) creates a study
from the workbench and administers it; another organisation's organiser, and any organisation's member for a
study no organisation holds, gets 403 on its admin pages; the platform's organisers keep every study. Giving an
existing study to an organisation is its owner's, who must administer the study on the platform already; one
held by another organisation is refused on the form. Bad input is shown on the form naming the field (422)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from runs_helpers import org_with_corpus
from study_helpers import user
from web_helpers import csrf_of, login
from workbench_world import dump

from benger.store import Store, open_store
from benger.study import create_study
from benger.web import create_app
from benger.web._orgcore import Member, OrgInfo, OrgRole
from benger.web._orgscope import OrgScope, accept_invitation


def _organiser(store: Store, org_id: int, owner: int, name: str) -> int:
    from benger.store._orgs import Organisation

    with store.session() as session:
        org = session.get(Organisation, org_id)
        assert org is not None
        info = OrgInfo(org.id, org.name, org.slug)
    uid = int(user(store, name, "participant"))
    accept_invitation(store, OrgScope(store, info, Member(owner, "", OrgRole.OWNER)).invite("organiser"), uid, name)
    return uid


@pytest.fixture
def world(tmp_path: Path) -> Iterator[tuple[Store, dict[str, int], str]]:
    store = open_store(tmp_path / "studies.db")
    ids = {"boss": user(store, "boss", "admin"), "bea": user(store, "bea", "participant")}
    ids["a"], corpus = org_with_corpus(store, ids["boss"], "Lehrstuhl A")
    ids["b"], _ = org_with_corpus(store, ids["bea"], "Lehrstuhl B")
    ids["anna"] = _organiser(store, ids["a"], ids["boss"], "anna")
    ids["bert"] = _organiser(store, ids["b"], ids["bea"], "bert")
    ids["free"] = create_study(store, "Plattformstudie", corpus, 7)  # held by no organisation
    yield store, ids, corpus
    store.close()


def _client(store: Store, name: str) -> TestClient:
    return login(TestClient(create_app(store), raise_server_exceptions=False), name)


def test_an_organiser_creates_and_administers_only_the_organisations_studies(
    world: tuple[Store, dict[str, int], str],
) -> None:
    store, ids, _ = world
    anna, bert, boss = _client(store, "anna"), _client(store, "bert"), _client(store, "boss")
    base = f"/orgs/{ids['a']}/studies"
    resp = anna.post(base, data={"csrf_token": csrf_of(anna, base), "name": "Klausur 1", "corpus": "mini",
                                 "seed": "3", "time_limit_s": "3600"}, follow_redirects=False)  # fmt: skip
    assert resp.status_code == 303, resp.text[:300]
    study = int(resp.headers["location"].rsplit("/", 1)[1])
    assert anna.get(f"/admin/studies/{study}").status_code == 200
    assert f'data-study="{study}"' in anna.get(base).text
    token = csrf_of(anna, base)
    assert anna.post(f"/admin/studies/{study}/state", data={"csrf_token": token, "action": "open"},
                     follow_redirects=False).status_code == 303  # fmt: skip
    # the other organisation's organiser: 403 on every page of it, and it is not on B's list
    for path in (f"/admin/studies/{study}", f"/admin/studies/{study}/export/study.json"):
        assert bert.get(path).status_code == 403
    before = dump(store)
    assert bert.post(f"/admin/studies/{study}/state", data={"csrf_token": csrf_of(bert, "/orgs"), "action": "close"},
                     follow_redirects=False).status_code == 403  # fmt: skip
    assert dump(store) == before
    assert f'data-study="{study}"' not in bert.get(f"/orgs/{ids['b']}/studies").text
    # a study of no organisation: the platform's organisers only; the platform admin keeps every study
    assert anna.get(f"/admin/studies/{ids['free']}").status_code == 403
    assert boss.get(f"/admin/studies/{ids['free']}").status_code == 200
    assert boss.get(f"/admin/studies/{study}").status_code == 200
    assert anna.get("/admin").status_code == 403  # the platform's pages stay the platform organisers'


def test_the_owner_assigns_an_existing_study_and_another_organisations_is_refused(
    world: tuple[Store, dict[str, int], str],
) -> None:
    store, ids, _ = world
    boss, bea = _client(store, "boss"), _client(store, "bea")
    base = f"/orgs/{ids['a']}/studies"
    resp = boss.post(base + "/assign", data={"csrf_token": csrf_of(boss, base), "study_id": str(ids["free"])},
                     follow_redirects=False)  # fmt: skip
    assert resp.status_code == 303
    assert f'data-study="{ids["free"]}"' in boss.get(base).text
    assert _client(store, "anna").get(f"/admin/studies/{ids['free']}").status_code == 200  # now A's
    # B's owner holds no platform role: cannot take a study, not even one of no organisation
    before = dump(store)
    other = f"/orgs/{ids['b']}/studies"
    assert bea.post(other + "/assign", data={"csrf_token": csrf_of(bea, other), "study_id": str(ids["free"])},
                    follow_redirects=False).status_code == 403  # fmt: skip
    assert dump(store) == before
    # the platform admin owning B too: A's study stays A's, the refusal is on the form
    accept_invitation(store, _owner_invite(store, ids["b"], ids["bea"]), ids["boss"], "boss")
    resp = boss.post(other + "/assign", data={"csrf_token": csrf_of(boss, other), "study_id": str(ids["free"])},
                     follow_redirects=False)  # fmt: skip
    assert resp.status_code == 422
    assert '<p class="error" role="alert" id="assign-error">Dieses Objekt gehört einer anderen Organisation.</p>' in (
        resp.text)  # fmt: skip
    assert 'name="study_id" type="number" min="1" required value="' in resp.text
    assert 'aria-invalid="true" aria-describedby="assign-error"' in resp.text


def _owner_invite(store: Store, org_id: int, owner: int) -> str:
    from benger.store._orgs import Organisation

    with store.session() as session:
        org = session.get(Organisation, org_id)
        assert org is not None
        info = OrgInfo(org.id, org.name, org.slug)
    return OrgScope(store, info, Member(owner, "", OrgRole.OWNER)).invite("owner")


@pytest.mark.parametrize(
    ("form", "field", "text"),
    [
        ({"name": "  ", "seed": "1"}, "name", "Bitte einen Namen für die Studie angeben."),
        ({"name": "K", "seed": "1", "time_limit_s": "0"}, "time_limit_s", "ganze Zahl von 1 bis 2592000"),
        ({"name": "K", "seed": "-1"}, "seed", "Der Seed muss eine ganze Zahl von 0 bis 2147483647 sein"),
    ],
)
def test_a_bad_study_is_shown_on_the_form_naming_the_field(
    world: tuple[Store, dict[str, int], str], form: dict[str, str], field: str, text: str
) -> None:
    store, ids, _ = world
    anna = _client(store, "anna")
    base = f"/orgs/{ids['a']}/studies"
    before = dump(store)
    resp = anna.post(base, data={"csrf_token": csrf_of(anna, base), "corpus": "mini", **form},
                     follow_redirects=False)  # fmt: skip
    assert resp.status_code == 422
    assert re.search(r'<p class="error" role="alert" id="new-error">[^<]*' + re.escape(text), resp.text)
    assert re.search(rf'name="{field}"[^>]*aria-invalid="true" aria-describedby="new-error"', resp.text)
    assert dump(store) == before


def _member(store: Store, org_id: int, owner: int, name: str, *platform_roles: str) -> int:
    """An account with ``platform_roles`` that joins the organisation as its grader."""
    from benger.store._orgs import Organisation

    with store.session() as session:
        org = session.get(Organisation, org_id)
        assert org is not None
        info = OrgInfo(org.id, org.name, org.slug)
    uid = int(user(store, name, *platform_roles))
    accept_invitation(store, OrgScope(store, info, Member(owner, "", OrgRole.OWNER)).invite("grader"), uid, name)
    return uid


def _shown(traces: list[str], text: str) -> list[str]:
    """The traces that stand in ``text`` as whole words (a name like "bea" is also a run of hex digits in
    an id of the page)."""
    return [t for t in traces if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", text)]


def _traces(store: Store, ids: list[int]) -> list[str]:
    """The user names and pseudonyms of these accounts."""
    from benger.study._models import StudyUser

    with store.session() as session:
        rows = [session.get(StudyUser, i) for i in ids]
        return [v for r in rows if r is not None for v in (r.username, r.pseudonym)]


def test_an_organisations_study_names_none_of_another_organisations_accounts(
    world: tuple[Store, dict[str, int], str],
) -> None:
    """A's organiser administers A's study through all its stages: no name or pseudonym of B's members (who
    hold the platform roles creator and grader too) is on any admin page or export of it; naming B's creator
    as an author by id is refused on the form and stores nothing; the reviews go to A's graders only."""
    from sqlalchemy import select

    from benger.study import close_study, enrol, open_study, save_expertise, start, submit
    from benger.study._models import ReviewAssignment
    from benger.study._service import study_tasks

    store, ids, _ = world
    mine = {f"a-c{i}": _member(store, ids["a"], ids["boss"], f"a-c{i}", "creator") for i in range(3)}
    mine |= {f"a-g{i}": _member(store, ids["a"], ids["boss"], f"a-g{i}", "grader") for i in range(3)}
    mine |= {f"a-p{i}": _member(store, ids["a"], ids["boss"], f"a-p{i}", "participant") for i in range(4)}
    theirs = [ids["bea"], ids["bert"]]
    theirs += [_member(store, ids["b"], ids["bea"], f"b-c{i}", "creator") for i in range(2)]
    theirs += [_member(store, ids["b"], ids["bea"], f"b-g{i}", "grader") for i in range(6)]
    forbidden = _traces(store, theirs)
    anna = _client(store, "anna")
    base = f"/orgs/{ids['a']}/studies"
    resp = anna.post(base, data={"csrf_token": csrf_of(anna, base), "name": "Klausur 2", "corpus": "mini",
                                 "seed": "5", "time_limit_s": "3600"}, follow_redirects=False)  # fmt: skip
    study = int(resp.headers["location"].rsplit("/", 1)[1])
    page = f"/admin/studies/{study}"
    text = anna.get(page).text
    assert 'value="{}"'.format(mine["a-c0"]) in text  # A's creators are the choices ...
    assert _shown(forbidden, text) == []  # ... B's are not
    with store.session() as session:
        tasks = [(t.task_id, t.position) for t in study_tasks(session, study)]
    token = csrf_of(anna, page)
    before = dump(store)
    for forged in (theirs[2], theirs[4], 10**6):  # B's creator, B's grader, no account at all
        form = {"csrf_token": token} | {f"author_{p}": str(mine["a-c0"]) for _, p in tasks}
        form[f"author_{tasks[-1][1]}"] = str(forged)
        resp = anna.post(f"{page}/authors", data=form, follow_redirects=False)
        assert resp.status_code == 422, resp.text[:200]
        assert f"Das Konto {forged} gibt es für diese Studie nicht." in resp.text
    assert dump(store) == before
    form = {"csrf_token": token} | {f"author_{p}": str(mine[f"a-c{p // 2}"]) for _, p in tasks}
    assert anna.post(f"{page}/authors", data=form, follow_redirects=False).status_code == 303
    open_study(store, study)
    for i in range(4):
        pid = mine[f"a-p{i}"]
        save_expertise(store, pid, "law_student", {"Zivilrecht": 3, "Strafrecht": 3, "Öffentliches Recht": 3}, 9.0)
        enrol(store, study, pid)
        for task_id, _ in tasks:
            start(store, study, pid, task_id)
            submit(store, study, pid, task_id, f"Lösung {i} {task_id}")
    close_study(store, study)
    for step in ("picks", "assignments"):
        assert anna.post(f"{page}/{step}", data={"csrf_token": token}, follow_redirects=False).status_code == 303
    with store.session() as session:
        graders = set(session.scalars(select(ReviewAssignment.grader_id).where(ReviewAssignment.study_id == study)))
    assert graders and graders <= set(mine.values())  # B's six graders got nothing of A's study
    for path in (page, *(f"{page}/export/{n}" for n in ("submissions.csv", "reviews.csv", "study.json"))):
        body = anna.get(path)
        assert body.status_code == 200, path
        assert _shown(forbidden, body.text) == [], path


#: the accounts of the property test: (organisation "a", "b" or None, platform roles)
_POOL = [(org, roles) for org in ("a", "b", None) for roles in (("creator",), ("grader",), ("creator", "grader"))]


@pytest.fixture
def pooled(world: tuple[Store, dict[str, int], str]) -> tuple[Store, list[int], int, int]:
    """The store, one account per _POOL entry, A's study and the platform's study (no organisation)."""
    store, ids, _ = world
    owners = {"a": ids["boss"], "b": ids["bea"]}
    pool = [
        _member(store, ids[org], owners[org], f"pool-{n}", *roles) if org else user(store, f"pool-{n}", *roles)
        for n, (org, roles) in enumerate(_POOL)
    ]
    from benger.store._orgs import Organisation

    with store.session() as session:
        org = session.get(Organisation, ids["a"])
        assert org is not None
        info = OrgInfo(org.id, org.name, org.slug)
    own = OrgScope(store, info, Member(ids["boss"], "", OrgRole.OWNER)).create_study("Eigene", "mini", 2, 60)
    return store, pool, own, ids["free"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(choice=st.lists(st.sampled_from(range(len(_POOL))), min_size=1, max_size=3))
def test_an_author_of_an_organisations_study_is_a_member_creator(
    pooled: tuple[Store, list[int], int, int], choice: list[int]
) -> None:
    """set_authors on A's study with any accounts of A, B or no organisation, with or without the role creator:
    stored when every one is A's member holding creator, else refused with nothing stored; on the platform's
    study (no organisation) the role alone decides."""
    from sqlalchemy import select

    from benger.study import StudyError, set_authors
    from benger.study._models import StudyTask

    store, pool, own, free = pooled
    for study, member_only in ((own, True), (free, False)):
        with store.session() as session:
            rows = session.scalars(select(StudyTask).filter_by(study_id=study).order_by(StudyTask.position))
            before = {t.task_id: t.author_id for t in rows}
        wanted: dict[str, int | None] = {t: pool[c] for t, c in zip(list(before)[: len(choice)], choice, strict=True)}
        ok = all("creator" in _POOL[c][1] and (_POOL[c][0] == "a" or not member_only) for c in choice)
        try:
            set_authors(store, study, wanted)
            refused = False
        except StudyError:
            refused = True
        with store.session() as session:
            rows = session.scalars(select(StudyTask).filter_by(study_id=study))
            after = {t.task_id: t.author_id for t in rows}
        assert refused == (not ok), (study, choice)
        assert after == (before | wanted if ok else before)


def test_an_organisations_open_study_takes_its_members_only(world: tuple[Store, dict[str, int], str]) -> None:
    """A's open study: on the study list of A's member (platform role participant) and open to enrol; B's
    member with the same platform role does not see it, its page and enrolment answer as for no study, and
    nothing is stored."""
    from benger.study import open_study, save_expertise

    store, ids, _ = world
    competence = {"Zivilrecht": 3, "Strafrecht": 3, "Öffentliches Recht": 3}
    for org, owner, name in (("a", "boss", "a-teil"), ("b", "bea", "b-teil")):
        uid = _member(store, ids[org], ids[owner], name, "participant")
        save_expertise(store, uid, "law_student", competence, None)
    study = OrgScope(store, *_owner_of(store, ids["a"], ids["boss"])).create_study("Offen A", "mini", 4, 600)
    open_study(store, study)
    mine, theirs = _client(store, "a-teil"), _client(store, "b-teil")
    assert f"/studies/{study}" in mine.get("/studies").text
    assert f"/studies/{study}" not in theirs.get("/studies").text
    assert theirs.get(f"/studies/{study}").status_code == 422
    before = dump(store)
    token = csrf_of(theirs, "/studies")
    resp = theirs.post(f"/studies/{study}/enrol", data={"csrf_token": token, "consent": "yes"}, follow_redirects=False)
    assert resp.status_code == 422
    assert dump(store) == before
    token = csrf_of(mine, "/studies")
    resp = mine.post(f"/studies/{study}/enrol", data={"csrf_token": token, "consent": "yes"}, follow_redirects=False)
    assert resp.status_code == 303


def _owner_of(store: Store, org_id: int, owner: int) -> tuple[OrgInfo, Member]:
    from benger.store._orgs import Organisation

    with store.session() as session:
        org = session.get(Organisation, org_id)
        assert org is not None
        return OrgInfo(org.id, org.name, org.slug), Member(owner, "", OrgRole.OWNER)
