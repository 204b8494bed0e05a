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
    uid = user(store, name, "participant")
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
        ({"name": "K", "seed": "1", "time_limit_s": "0"}, "time_limit_s", "mindestens eine Sekunde"),
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
