"""20 parallel "Korrektur" clicks on PostgreSQL (issue 25, observation 7): before, 5 of them ended in HTTP 500
(the unique (assignment, version) refused the losers); now one correction is opened and every click succeeds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager

import pytest
from sqlalchemy import select
from study_helpers import HALF_MARKS, add_generations, mini_corpus, open_new_study, user

from benger.store import Store, open_store
from benger.study import (
    close_study,
    enrol,
    open_correction,
    run_assignment,
    run_picks,
    save_expertise,
    save_review,
    set_author,
    start,
    submit,
)
from benger.study._models import Review, ReviewAssignment

COMPETENCE = dict.fromkeys(("Zivilrecht", "Strafrecht", "Öffentliches Recht"), 3)


@pytest.fixture
def pg_store(pg_database: Callable[[str], AbstractContextManager[str]]) -> Iterator[Store]:
    with pg_database("benger_korrektur") as url:
        store = open_store(url)
        try:
            corpus = mini_corpus()
            store.add_corpus(corpus)
            add_generations(store, corpus)
            yield store
        finally:
            store.close()


def _submitted_review(store: Store) -> tuple[int, int]:
    study = open_new_study(store, "Korrektur", seed=6, time_limit_s=3600)
    for i in range(4):
        pid = user(store, f"p{i}", "participant")
        save_expertise(store, pid, "law_student", COMPETENCE, None)
        enrol(store, study, pid)
        for t in range(1, 7):
            start(store, study, pid, f"mini-t{t}")
            submit(store, study, pid, f"mini-t{t}", f"Lösung {i}-{t}")
    creators = [user(store, f"c{i}", "creator") for i in range(3)]
    grader = user(store, "g0", "grader")
    for i in range(1, 3):
        user(store, f"g{i}", "grader")
    for t in range(1, 7):
        set_author(store, study, f"mini-t{t}", creators[(t - 1) // 2])
    close_study(store, study)
    run_picks(store, study)
    run_assignment(store, study)
    with store.session() as session:
        aid = session.scalars(select(ReviewAssignment.id).filter_by(grader_id=grader)).first()
    assert aid is not None
    save_review(store, aid, grader, HALF_MARKS, dict.fromkeys(HALF_MARKS, "begründet"), submit=True)
    return aid, grader


@pytest.mark.postgres
def test_20_parallel_correction_clicks_open_one_correction(pg_store: Store) -> None:
    aid, grader = _submitted_review(pg_store)
    with ThreadPoolExecutor(20) as pool:
        outcomes = list(pool.map(lambda _: open_correction(pg_store, aid, grader), range(20)))
    assert outcomes == [None] * 20  # no click raised
    with pg_store.session() as session:
        versions = [
            (r.version, r.status)
            for r in session.scalars(select(Review).filter_by(assignment_id=aid).order_by(Review.version))
        ]
    assert versions == [(1, "submitted"), (2, "draft")]


def test_a_second_click_is_a_no_op(store: Store) -> None:
    aid, grader = _submitted_review(store)
    open_correction(store, aid, grader)
    open_correction(store, aid, grader)
    with store.session() as session:
        assert len(session.scalars(select(Review).filter_by(assignment_id=aid)).all()) == 2
