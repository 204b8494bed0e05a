"""The web app on PostgreSQL: a participant submits and a blind grader reviews through HTTP."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select
from study_helpers import add_generations, mini_corpus, user
from web_helpers import csrf_of, login, populate

from benger.store import Store, open_store
from benger.study._models import Attempt, Submission
from benger.web import create_app

pytestmark = pytest.mark.postgres
FULL = {
    "ergebnisrichtigkeit": 12,
    "vollstaendigkeit": 6,
    "rechtsgrundlagen": 6,
    "rechtskenntnis": 9,
    "subsumtion": 9,
    "schwerpunktsetzung": 6,
    "methodischer_stil": 6,
    "gliederung": 3,
    "sprache": 2,
    "formalia": 1,
}


@pytest.fixture
def pg_store(pg_database: Callable[[str], AbstractContextManager[str]]) -> Iterator[Store]:
    with pg_database("benger_web") as url:
        store = open_store(url)
        try:
            yield store
        finally:
            store.close()


def test_participant_and_grader_over_http_on_postgres(pg_store: Store) -> None:
    corpus = mini_corpus()
    pg_store.add_corpus(corpus)
    add_generations(pg_store, corpus)
    world = populate(pg_store)
    app = create_app(pg_store)
    participant = login(TestClient(app), "participant")
    token = csrf_of(participant, "/studies")
    base = f"/studies/{world.live}/tasks/0"
    assert participant.post(f"{base}/start", data={"csrf_token": token}, follow_redirects=False).status_code == 303
    draft = participant.post(f"{base}/draft", data={"text": "Entwurf", "version": "0"}, headers={"X-CSRF-Token": token})
    assert (draft.json()["status"], draft.json()["version"]) == ("saved", 1)
    pasted = "Aus dem PDF:\x00 Entwurf"  # a NUL on PostgreSQL: was HTTP 500 and nothing saved
    draft = participant.post(f"{base}/draft", data={"text": pasted, "version": "1"}, headers={"X-CSRF-Token": token})
    assert (draft.status_code, draft.json()["status"]) == (200, "saved")
    with pg_store.session() as session:
        assert (
            session.scalar(
                select(Attempt.draft).filter_by(
                    user_id=world.ids["participant"], study_id=world.live, task_id="mini-t1"
                )
            )
            == pasted
        )
    page = participant.post(f"{base}/submit", data={"text": "Endfassung", "csrf_token": token})
    assert "Endfassung" in page.text
    assert participant.post(f"{base}/submit", data={"text": "nochmal", "csrf_token": token}).status_code == 409
    with pg_store.session() as session:
        texts = session.scalars(select(Submission.text).filter_by(user_id=world.ids["participant"])).all()
    assert texts == ["Endfassung"]

    grader = login(TestClient(app), "g0")
    aid = re.search(r'href="/reviews/(\d+)"', grader.get("/reviews").text)
    assert aid is not None
    form = {f"dim_{k}": str(v) for k, v in FULL.items()} | {f"just_{k}": "passt" for k in FULL}
    resp = grader.post(f"/reviews/{aid.group(1)}/submit", data={**form, "csrf_token": csrf_of(grader, "/reviews")})
    assert "Abgegeben (Version 1)" in resp.text
    # 12+6+6+9+9+6+6+3+2+1 = 60 raw -> 7 grade points (60..63)
    assert [(r.raw_score, r.grade_points) for r in pg_store.human_reviews()] == [(60.0, 7)]


def test_100_parallel_wrong_logins_over_http_on_postgres(pg_store: Store) -> None:
    corpus = mini_corpus()
    pg_store.add_corpus(corpus)
    user(pg_store, "ziel", "participant")
    app = create_app(pg_store)

    def attempt(_: int) -> int:
        client = TestClient(app)
        token = csrf_of(client)
        return client.post(
            "/login", data={"username": "ziel", "password": "falsch-falsch", "csrf_token": token}
        ).status_code

    with ThreadPoolExecutor(32) as pool:
        codes = list(pool.map(attempt, range(100)))
    # one client address (the test client's): 5 passwords are checked (401), the other 95 refused unchecked
    assert (codes.count(401), codes.count(429)) == (5, 95)
