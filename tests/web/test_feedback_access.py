"""Who reads formative feedback (issue 25, item 7), as a matrix: the switch (off/on) x the study (open/closed) x
whose submission (own/another participant's) x role. Only a participant, on its own submission of a closed study
with the switch on, gets the page; any other participant's request is 404; other roles 403; anonymous the login."""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))

from study_helpers import HALF_MARKS, new_store, open_new_study, scored_judgement, user
from web_helpers import COMPETENCE, csrf_of, login

from benger.store import Store
from benger.study import close_study, enrol, save_expertise, set_feedback, start, submit
from benger.study._feedback import setting_key
from benger.study._models import StudySetting
from benger.web import create_app

ROLES = {"participant": "p0", "grader": "g0", "creator": "c0", "admin": "admin", "anonymous": None}


@dataclass
class Site:
    store: Store
    client: dict[str, TestClient]
    studies: dict[str, int]  # "open" / "closed" -> study id
    submissions: dict[tuple[str, str], str]  # (state, "own"/"other") -> submission id


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    store = new_store(tmp_path_factory.mktemp("feedback"))
    ids = {
        "admin": user(store, "admin", "admin"),
        "g0": user(store, "g0", "grader"),
        "c0": user(store, "c0", "creator"),
    }
    for name in ("p0", "p1"):
        ids[name] = user(store, name, "participant")
        save_expertise(store, ids[name], "law_student", COMPETENCE, None)
    studies = {"closed": open_new_study(store, "Geschlossen", seed=1), "open": open_new_study(store, "Offen", seed=2)}
    submissions = {}
    for state, study in studies.items():
        for whose, name in (("own", "p0"), ("other", "p1")):
            enrol(store, study, ids[name])
            start(store, study, ids[name], "mini-t1")
            sid = submit(store, study, ids[name], "mini-t1", f"Text {whose} {state} ZEICHEN-{name}").id
            store.save_judgement(scored_judgement(sid, "richter", HALF_MARKS))
            submissions[(state, whose)] = sid
    close_study(store, studies["closed"])
    app = create_app(store)
    clients = {role: TestClient(app) for role in ROLES}
    for role, name in ROLES.items():
        if name is not None:
            login(clients[role], name)
    yield Site(store, clients, studies, submissions)
    store.close()


def _switch(site: Site, state: str, on: bool) -> None:
    study = site.studies[state]
    if state == "closed":
        set_feedback(site.store, study, on)
        return
    # an open study cannot be switched on (set_feedback refuses): the row is written by hand, as an older
    # version or a direct database edit could have left it, to show that the state still decides
    with site.store.session() as session:
        row = session.get(StudySetting, setting_key(study))
        if on and row is None:
            session.add(StudySetting(key=setting_key(study), value="on"))
        elif not on and row is not None:
            session.delete(row)


CELLS = list(itertools.product((False, True), ("open", "closed"), ("own", "other"), ROLES))


def _expected(on: bool, state: str, whose: str, role: str) -> int:
    if role == "anonymous":
        return 303
    if role != "participant":
        return 403
    return 200 if (on, state, whose) == (True, "closed", "own") else 404


@pytest.mark.parametrize(("on", "state", "whose", "role"), CELLS)
def test_feedback_matrix(site: Site, on: bool, state: str, whose: str, role: str) -> None:
    _switch(site, state, on)
    sid = site.submissions[(state, whose)]
    resp = site.client[role].get(f"/studies/{site.studies[state]}/feedback/{sid}", follow_redirects=False)
    expected = _expected(on, state, whose, role)
    assert resp.status_code == expected, (on, state, whose, role, resp.status_code)
    if expected == 303:
        assert resp.headers["location"] == "/login"
    if expected == 200:
        page = resp.text
        assert "Text own closed ZEICHEN-p0" in page and "ZEICHEN-p1" not in page
        # HALF_MARKS: 50 raw points -> 4 grade points (the paper's table), passed
        summary = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page.split('id="feedback-summary"')[1].split("</p>")[0]))
        assert "Summe: 50 / 100 · Notenpunkte: 4 · bestanden" in summary
        assert page.count('<th scope="row">') == 10 and "Begründung ergebnisrichtigkeit" in page
        assert "7,5 / 15" in page  # rechtskenntnis, in the German number format
        assert "richter" in page and "falloesung@" in page  # the judge and the rubric id: where the numbers came from
    else:
        assert "ZEICHEN" not in resp.text


@pytest.mark.parametrize("on", [False, True])
def test_the_study_page_links_only_the_own_feedback_when_shown(site: Site, on: bool) -> None:
    for state in ("open", "closed"):
        _switch(site, state, on)
    closed = site.client["participant"].get(f"/studies/{site.studies['closed']}").text
    opened = site.client["participant"].get(f"/studies/{site.studies['open']}").text
    link = f"/studies/{site.studies['closed']}/feedback/{site.submissions[('closed', 'own')]}"
    assert (link in closed) is on
    assert "/feedback/" not in opened
    assert site.submissions[("closed", "other")] not in closed


def test_a_submission_id_of_another_study_or_none_at_all_is_404(site: Site) -> None:
    _switch(site, "closed", True)
    client = site.client["participant"]
    own_closed = site.submissions[("closed", "own")]
    assert client.get(f"/studies/{site.studies['open']}/feedback/{own_closed}").status_code == 404
    assert client.get(f"/studies/{site.studies['closed']}/feedback/{'0' * 32}").status_code == 404
    assert client.get(f"/studies/{2**62}/feedback/{own_closed}").status_code == 404


def test_the_organiser_switches_feedback_only_after_closing(site: Site) -> None:
    admin = site.client["admin"]
    token = csrf_of(admin, "/admin")
    _switch(site, "open", False)
    _switch(site, "closed", False)
    page = admin.get(f"/admin/studies/{site.studies['open']}").text
    assert 'id="feedback-wait"' in page and 'id="feedback-on"' not in page
    refused = admin.post(
        f"/admin/studies/{site.studies['open']}/feedback", data={"on": "1", "csrf_token": token}, follow_redirects=False
    )
    assert refused.status_code == 409
    with site.store.session() as session:
        assert session.get(StudySetting, setting_key(site.studies["open"])) is None
    closed = site.studies["closed"]
    page = admin.get(f"/admin/studies/{closed}").text
    assert 'id="feedback-on"' in page and "Bewertet: 2 von 2 Abgaben" in re.sub(r"\s+", " ", page)
    done = admin.post(
        f"/admin/studies/{closed}/feedback", data={"on": "1", "csrf_token": token}, follow_redirects=False
    )
    assert done.status_code == 303
    sid = site.submissions[("closed", "own")]
    assert site.client["participant"].get(f"/studies/{closed}/feedback/{sid}").status_code == 200
    assert 'id="feedback-off"' in admin.get(f"/admin/studies/{closed}").text
    admin.post(f"/admin/studies/{closed}/feedback", data={"on": "0", "csrf_token": token})
    assert site.client["participant"].get(f"/studies/{closed}/feedback/{sid}").status_code == 404
