"""The organiser's view: progress dashboard, CSV/JSON downloads, the inter-rater agreement of blind reviews."""

from __future__ import annotations

import csv
import io
import json
import re
import statistics

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from study_helpers import HALF_MARKS, user
from web_helpers import World, csrf_of, login, opened

from benger.study import enrol, save_review, skip, start, submit
from benger.study._models import Attempt, Pick, ReviewAssignment, StudyUser

NOTES = dict.fromkeys(HALF_MARKS, "passt")


def _cells(page: str, table: str) -> list[list[str]]:
    body = re.search(rf'<table id="{table}">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert body is not None
    rows = re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
    return [[re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", r, re.S)] for r in rows]


def test_progress_dashboard_counts_participants_and_graders(world: World, app: FastAPI) -> None:
    pid = world.ids["participant"]
    start(world.store, world.live, pid, "mini-t1")
    skip(world.store, world.live, pid, "mini-t2", "kenne den Fall")
    admin = login(TestClient(app), "admin")
    live = admin.get(f"/admin/studies/{world.live}").text
    [row] = _cells(live, "participant-progress")
    # 6 tasks: 4 open, 1 started (about an hour left), 0 submitted, 1 skipped in its arm
    assert row[:4] == ["participant", "6", "4", "1"]
    assert re.fullmatch(r"0:59:\d\d|1:00:00", row[4])
    assert row[5:7] == ["0", "0"] and row[7].startswith("1 (")
    # the reviewed study: g0 saves one draft; every grader's row counts assigned / drafted / submitted
    with world.store.session() as session:
        aid = session.scalar(select(ReviewAssignment.id).filter_by(grader_id=world.ids["g0"]).limit(1))
    assert aid is not None
    save_review(world.store, aid, world.ids["g0"], {"sprache": 2}, {}, submit=False)
    graders = {r[0]: r[1:] for r in _cells(admin.get(f"/admin/studies/{world.study}").text, "grader-progress")}
    assert graders["g0"][1:] == ["1", "0"]
    assert sum(int(r[0]) for r in graders.values()) == 72  # 18 picks x 4 reviews


def test_downloads_hold_every_attempt_and_assignment(world: World, app: FastAPI) -> None:
    admin = login(TestClient(app), "admin")
    resp = admin.get(f"/admin/studies/{world.study}/export/submissions.csv")
    assert resp.headers["content-disposition"] == 'attachment; filename="submissions.csv"'
    rows = list(csv.DictReader(io.StringIO(resp.text)))
    assert len(rows) == 24  # p0..p3 x 6 tasks, all submitted
    assert {r["status"] for r in rows} == {"submitted"} and all(float(r["duration_s"]) >= 0 for r in rows)
    assert sum(bool(r["pick"]) for r in rows) == 12  # 6 tasks x 2 arms of human picks
    assert all(r["participant"].startswith("u-") and r["competence_in_area"] in "12345" for r in rows)
    reviews = list(csv.DictReader(io.StringIO(admin.get(f"/admin/studies/{world.study}/export/reviews.csv").text)))
    assert len(reviews) == 72
    data = json.loads(admin.get(f"/admin/studies/{world.study}/export/study.json").text)
    assert (len(data["submissions"]), len(data["picks"]), len(data["reviews"])) == (24, 18, 72)
    assert "p0" not in json.dumps(data)  # pseudonyms only
    assert admin.get(f"/admin/studies/{world.study}/export/x.txt").status_code == 422


def test_agreement_view_shows_spread_per_pick(world: World, app: FastAPI) -> None:
    with world.store.session() as session:
        code = session.scalar(select(Pick.code).filter_by(study_id=world.study, code="P03"))
        rows = session.scalars(
            select(ReviewAssignment)
            .join(Pick, Pick.id == ReviewAssignment.pick_id)
            .where(Pick.code == code, Pick.study_id == world.study, ReviewAssignment.role == "blind")
        ).all()
    # three blind totals: HALF_MARKS (50) with ergebnisrichtigkeit 10 -> 10, 14, 20: 50, 54, 60
    for a, first in zip(rows, (10, 14, 20), strict=True):
        save_review(world.store, a.id, a.grader_id, {**HALF_MARKS, "ergebnisrichtigkeit": first}, NOTES, submit=True)
    page = login(TestClient(app), "admin").get(f"/admin/studies/{world.study}").text
    cells = {r[0]: r for r in _cells(page, "agreement")}
    # mean 164/3 = 54.67 -> "54,7"; SD sqrt((4.67^2 + 0.67^2 + 5.33^2) / 2) = 5.03 -> "5" (German, 1 decimal)
    assert round(statistics.stdev([50, 54, 60]), 1) == 5.0
    assert sorted(cells[code][2].split("; ")) == ["50", "54", "60"]
    assert cells[code][3:] == ["54,7", "5", "10"]
    summary = re.search(r'<p id="agreement-summary">(.*?)</p>', page, re.S)
    assert summary is not None  # one pick reviewed: alpha and ICC(2,1) are undefined, shown as –
    assert summary.group(1).count("<strong>–</strong>") == 2


def test_grader_reports_a_problem_and_the_organiser_sees_it(world: World, app: FastAPI) -> None:
    with world.store.session() as session:
        mine = session.scalar(select(ReviewAssignment.id).filter_by(grader_id=world.ids["g1"]).limit(1))
        other = session.scalar(select(ReviewAssignment.id).filter_by(grader_id=world.ids["g2"]).limit(1))
    grader = login(TestClient(app), "g1")
    token = csrf_of(grader, "/reviews")
    resp = grader.post(
        f"/reviews/{mine}/problem", data={"text": "Die Lösung bricht mitten im Satz ab", "csrf_token": token}
    )
    assert resp.status_code == 200 and 'id="problem-reported"' in resp.text
    assert grader.post(f"/reviews/{mine}/problem", data={"text": "  ", "csrf_token": token}).status_code == 422
    assert grader.post(f"/reviews/{other}/problem", data={"text": "fremd", "csrf_token": token}).status_code == 403
    page = login(TestClient(app), "admin").get(f"/admin/studies/{world.study}").text
    assert [row[1:] for row in _cells(page, "problems")] == [["g1", "Die Lösung bricht mitten im Satz ab"]]


def test_study_visible_only_to_its_groups(world: World, app: FastAPI) -> None:
    admin = login(TestClient(app), "admin")
    token = csrf_of(admin, "/admin")
    study = opened(world.store, "Nur Kurs A", seed=21)
    admin.post(f"/admin/studies/{study}/groups", data={"groups": "kurs-a", "csrf_token": token})
    admin.post(
        f"/admin/users/{world.ids['p2']}/roles", data={"roles": "participant", "groups": "kurs-a", "csrf_token": token}
    )
    member, outsider = login(TestClient(app), "p2"), login(TestClient(app), "p1")
    assert f'href="/studies/{study}"' in member.get("/studies").text
    assert f'href="/studies/{study}"' not in outsider.get("/studies").text
    assert "Die Studie" in outsider.get(f"/studies/{study}").text  # not shown: as if it did not exist
    refused = outsider.post(
        f"/studies/{study}/enrol", data={"consent": "yes", "csrf_token": csrf_of(outsider, "/studies")}
    )
    assert refused.status_code == 422
    joined = member.post(f"/studies/{study}/enrol", data={"consent": "yes", "csrf_token": csrf_of(member, "/studies")})
    assert joined.status_code == 200 and "Fall 1" in joined.text
    bad = admin.post(f"/admin/studies/{study}/groups", data={"groups": "kurs a!", "csrf_token": token})
    assert bad.status_code == 422 and "Ungültiger Gruppenname a!" in bad.text


def test_formula_cells_in_the_downloads_are_neutralised(world: World, app: FastAPI) -> None:
    """Issue 25, observation 5: skip reasons and "AI tools used" went verbatim into submissions.csv."""

    from benger.study import skip, start

    pid = user(world.store, "formel", "participant")
    enrol(world.store, world.live, pid)
    with world.store.session() as session:
        arms = {a.task_id: a.arm for a in session.scalars(select(Attempt).filter_by(study_id=world.live, user_id=pid))}
        pseudonym = session.get(StudyUser, pid).pseudonym  # type: ignore[union-attr]
    co = next(t for t, arm in arms.items() if arm == "co_creation")
    other = next(t for t in arms if t != co)
    start(world.store, world.live, pid, co)
    submit(world.store, world.live, pid, co, "Lösung", ai_tools='=HYPERLINK("http://böse.example","KI")')
    skip(world.store, world.live, pid, other, "@SUM(1+1)*cmd|' /C calc'!A0")
    admin = login(TestClient(app), "admin")
    text = admin.get(f"/admin/studies/{world.live}/export/submissions.csv").text
    mine = [r for r in csv.DictReader(io.StringIO(text)) if r["participant"] == pseudonym]
    assert {r["ai_tools"] for r in mine if r["ai_tools"]} == {'\'=HYPERLINK("http://böse.example","KI")'}
    assert {r["skip_reason"] for r in mine if r["skip_reason"]} == {"'@SUM(1+1)*cmd|' /C calc'!A0"}
    assert len(mine) == 6
    for row in csv.reader(io.StringIO(text)):
        assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in row)
