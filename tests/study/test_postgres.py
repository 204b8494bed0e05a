"""Integrity under concurrency on PostgreSQL: 50 parallel submissions and reviews (each sent twice)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager

import pytest
from sqlalchemy import func, select, text
from study_helpers import HALF_MARKS as FULL
from study_helpers import add_generations, mini_corpus, open_new_study, user

from benger.errors import InputError
from benger.store import Store, open_store
from benger.study import (
    WrongState,
    close_study,
    enrol,
    run_assignment,
    run_picks,
    save_draft,
    save_expertise,
    save_review,
    set_author,
    start,
    submit,
)
from benger.study._models import Review, ReviewAssignment, Submission

pytestmark = pytest.mark.postgres
N = 50


@pytest.fixture
def pg_store(pg_database: Callable[[str], AbstractContextManager[str]]) -> Iterator[Store]:
    with pg_database("benger_study") as url:
        store = open_store(url)
        try:
            yield store
        finally:
            store.close()


def test_50_concurrent_submissions_and_reviews(pg_store: Store) -> None:
    store = pg_store
    corpus = mini_corpus()
    store.add_corpus(corpus)
    add_generations(store, corpus)
    study = open_new_study(store, "PG", seed=1, time_limit_s=3600)
    people = [user(store, f"p{i}", "participant") for i in range(N)]
    with ThreadPoolExecutor(8) as pool:  # enrolment races for positions; the unique constraint sorts it out
        list(
            pool.map(
                lambda p: (
                    save_expertise(
                        store,
                        p,
                        "law_student",
                        dict.fromkeys(("Zivilrecht", "Strafrecht", "Öffentliches Recht"), 1 + p % 5),
                        None,
                    ),
                    enrol(store, study, p),
                ),
                people,
            )
        )
    for p in people:
        start(store, study, p, "mini-t1")

    def send(p: int) -> str:
        try:
            submit(store, study, p, "mini-t1", f"Lösung {p}")
            return "ok"
        except InputError:
            return "dup"

    with ThreadPoolExecutor(16) as pool:
        outcomes = list(pool.map(send, people + people))  # every submission twice, in parallel
    assert outcomes.count("ok") == N and outcomes.count("dup") == N
    with store.session() as session:
        assert session.scalar(select(func.count()).select_from(Submission)) == N
        positions = session.execute(text("SELECT position FROM study_enrolments ORDER BY position")).scalars().all()
    assert list(positions) == list(range(N))
    assert len(store.human_solutions(task_id="mini-t1")) == N

    creators = [user(store, f"c{i}", "creator") for i in range(3)]
    for t in range(1, 7):
        set_author(store, study, f"mini-t{t}", creators[(t - 1) // 2])
    graders = [user(store, f"g{i}", "grader") for i in range(4)]
    close_study(store, study)
    run_picks(store, study)
    run_assignment(store, study)
    with store.session() as session:
        work = [
            (a.id, a.grader_id)
            for a in session.scalars(select(ReviewAssignment).where(ReviewAssignment.grader_id.in_(graders)))
        ]
    work = (work * 4)[:N]  # 50 review submissions, with repeats of the same assignment racing each other
    notes = {k: "ok" for k in FULL}

    def review(item: tuple[int, int]) -> str:
        try:
            save_review(store, item[0], item[1], FULL, notes, submit=True)
            return "ok"
        except InputError:
            return "dup"

    with ThreadPoolExecutor(16) as pool:
        results = list(pool.map(review, work))
    distinct = len({aid for aid, _ in work})
    assert results.count("ok") == distinct
    with store.session() as session:
        rows = list(session.scalars(select(Review)))
    assert len(rows) == distinct and all(r.status == "submitted" and r.version == 1 for r in rows)
    assert len(store.human_reviews()) == distinct


def test_migration_matches_models_on_postgres(pg_store: Store) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from benger.store import Base
    from benger.study._models import STUDY_TABLES

    with pg_store.engine.connect() as connection:
        diffs = compare_metadata(MigrationContext.configure(connection, opts={"compare_type": True}), Base.metadata)
    assert [d for d in diffs if any(t in repr(d) for t in STUDY_TABLES)] == []


def test_close_races_40_submissions_without_loss_or_late_submission(pg_store: Store) -> None:
    store = pg_store
    corpus = mini_corpus()
    store.add_corpus(corpus)
    study = open_new_study(store, "Schluss", seed=2, time_limit_s=3600)
    people = [user(store, f"q{i}", "participant") for i in range(40)]
    for p in people:
        save_expertise(
            store, p, "law_student", dict.fromkeys(("Zivilrecht", "Strafrecht", "Öffentliches Recht"), 3), None
        )
        enrol(store, study, p)
        start(store, study, p, "mini-t1")
        save_draft(store, study, p, "mini-t1", f"Entwurf {p}")

    def final(p: int) -> str:
        try:
            submit(store, study, p, "mini-t1", f"Endfassung {p}")
            return "submitted"
        except WrongState:
            return "closed"

    with ThreadPoolExecutor(16) as pool:
        futures = [pool.submit(final, p) for p in people[:20]]
        closing = pool.submit(close_study, store, study)
        futures += [pool.submit(final, p) for p in people[20:]]
        outcomes = {p: f.result() for p, f in zip(people, futures, strict=True)}
        auto = closing.result()
    with store.session() as session:
        subs = {s.user_id: s for s in session.scalars(select(Submission).filter_by(study_id=study))}
    # every attempt ends with exactly one submission: the participant's own (if it came before the close)
    # or the last draft, submitted by the close; a refused submit never left a row
    assert len(subs) == 40 and auto == list(outcomes.values()).count("closed")
    for p, outcome in outcomes.items():
        own = outcome == "submitted"
        assert (subs[p].text, subs[p].auto_submitted) == ((f"Endfassung {p}", False) if own else (f"Entwurf {p}", True))
