"""Helpers of the web tests: a populated study on a real SQLite store, and logging in test clients."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))

from study_helpers import PASSWORD, user

from benger.store import Store
from benger.study import (
    close_study,
    create_study,
    enrol,
    open_study,
    run_assignment,
    run_picks,
    save_expertise,
    set_author,
    start,
    submit,
)

COMPETENCE = {"Zivilrecht": 3, "Strafrecht": 3, "Öffentliches Recht": 3}
XSS = "<script>alert('xss')</script>"


@dataclass
class World:
    """``study``: closed, picked and in review; ``live``: open, with "participant" enrolled and not started."""

    store: Store
    study: int
    live: int
    ids: dict[str, int]


def submit_all(store: Store, study: int, ids: dict[str, int]) -> None:
    """p0..p3 enrol in ``study`` and submit every task."""
    for i in range(4):
        pid = ids[f"p{i}"]
        enrol(store, study, pid)
        for t in range(1, 7):
            start(store, study, pid, f"mini-t{t}")
            submit(store, study, pid, f"mini-t{t}", f"Lösung P{i}-{t} {XSS}")


def set_authors(store: Store, study: int, ids: dict[str, int]) -> None:
    for t in range(1, 7):
        set_author(store, study, f"mini-t{t}", ids[f"c{(t - 1) // 2}"])


def opened(store: Store, name: str, seed: int, time_limit_s: int = 3600) -> int:
    """A new study over the mini corpus, opened for participants."""
    study = create_study(store, name, "mini", seed=seed, time_limit_s=time_limit_s)
    open_study(store, study)
    return study


def populate(store: Store) -> World:
    """A study over the mini corpus: 4 participants who submitted everything, 3 creators, 3 graders, the
    study closed, picks and review assignments; plus an open study "Live" where the participant
    "participant" is enrolled but has not started."""
    study = opened(store, "Benchathon", seed=9)
    ids = {"admin": user(store, "admin", "admin")}
    for i, comp in enumerate((1, 3, 5, 2)):
        ids[f"p{i}"] = user(store, f"p{i}", "participant")
        save_expertise(store, ids[f"p{i}"], "law_student", dict.fromkeys(COMPETENCE, comp), 8.0 + i)
    submit_all(store, study, ids)
    ids["participant"] = user(store, "participant", "participant")
    save_expertise(store, ids["participant"], "referendar", COMPETENCE, None)
    live = opened(store, "Live", seed=10)
    enrol(store, live, ids["participant"])
    for i in range(3):
        ids[f"c{i}"] = user(store, f"c{i}", "creator")
    for i in range(3):
        ids[f"g{i}"] = user(store, f"g{i}", "grader")
    set_authors(store, study, ids)
    close_study(store, study)
    run_picks(store, study)
    run_assignment(store, study)
    return World(store, study, live, ids)


def login(client: TestClient, username: str) -> TestClient:
    page = client.get("/login")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert token is not None
    resp = client.post(
        "/login",
        data={"username": username, "password": PASSWORD, "csrf_token": token.group(1)},
        follow_redirects=False,
    )
    assert resp.status_code == 303, resp.text
    return client


def csrf_of(client: TestClient, path: str = "/login") -> str:
    match = re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text)
    assert match is not None
    return match.group(1)
