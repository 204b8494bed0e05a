"""Text as users paste it (issue 25, observation 3): a NUL (U+0000, e.g. from a PDF) and the escape's own
characters in drafts, submissions, skip reasons, AI tools, justifications, margin notes and problem reports
are stored and read back unchanged on SQLite and on PostgreSQL (which cannot store NUL in TEXT or JSONB).
Before the Storable* column types, PostgreSQL answered each of these with an error and saved nothing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from study_helpers import HALF_MARKS, add_generations, mini_corpus, open_new_study, user

from benger.store import Store, open_store
from benger.store._text import ESCAPED_PREFIX, from_column, to_column
from benger.study import (
    close_study,
    enrol,
    run_assignment,
    run_picks,
    save_draft,
    save_expertise,
    save_review,
    set_author,
    skip,
    start,
    submit,
)
from benger.study._models import Attempt, ProblemReport, Review, ReviewAssignment, Submission
from benger.study._progress import report_problem

PASTED = "Aus dem PDF:\x00 § 433\\0 BGB \\\\ Ende\x00"
COMPETENCE = dict.fromkeys(("Zivilrecht", "Strafrecht", "Öffentliches Recht"), 3)


@pytest.fixture
def pg_store(pg_database: Callable[[str], AbstractContextManager[str]]) -> Iterator[Store]:
    with pg_database("benger_nul") as url:
        store = open_store(url)
        try:
            corpus = mini_corpus()
            store.add_corpus(corpus)
            add_generations(store, corpus)
            yield store
        finally:
            store.close()


def _every_text(store: Store) -> None:
    study = open_new_study(store, "NUL", seed=5, time_limit_s=3600)
    people = []
    for i in range(4):
        pid = user(store, f"p{i}", "participant")
        save_expertise(store, pid, "law_student", COMPETENCE, None)
        enrol(store, study, pid)
        people.append(pid)
    first = people[0]
    start(store, study, first, "mini-t1")
    assert save_draft(store, study, first, "mini-t1", PASTED, base_version=0).status == "saved"
    with store.session() as session:
        attempt = session.scalar(select(Attempt).filter_by(user_id=first, task_id="mini-t1"))
        assert attempt is not None and attempt.draft == PASTED
        arms = {a.task_id: a.arm for a in session.scalars(select(Attempt).filter_by(user_id=first))}
    for pid in people:
        for t in range(1, 7):
            if (pid, t) == (first, 6):
                skip(store, study, pid, "mini-t6", "Grund:\x00 " + PASTED)
                continue
            start(store, study, pid, f"mini-t{t}")
            submit(store, study, pid, f"mini-t{t}", f"{PASTED} {pid}-{t}", ai_tools="Chat\x00GPT")
    with store.session() as session:
        subs = {(s.user_id, s.task_id): s for s in session.scalars(select(Submission))}
        reason = session.scalar(select(Attempt.skip_reason).filter_by(user_id=first, task_id="mini-t6"))
    assert reason == "Grund:\x00 " + PASTED
    assert subs[(first, "mini-t1")].text == f"{PASTED} {first}-1"
    co = next(t for t, arm in arms.items() if arm == "co_creation" and t != "mini-t6")
    assert subs[(first, co)].ai_tools == "Chat\x00GPT"
    mirrored = {s.solution_id: s.text for s in store.human_solutions()}
    assert mirrored[subs[(first, "mini-t1")].id] == f"{PASTED} {first}-1"
    creators = [user(store, f"c{i}", "creator") for i in range(3)]
    graders = [user(store, f"g{i}", "grader") for i in range(3)]
    for t in range(1, 7):
        set_author(store, study, f"mini-t{t}", creators[(t - 1) // 2])
    close_study(store, study)
    run_picks(store, study)
    run_assignment(store, study)
    with store.session() as session:
        mine = session.scalars(select(ReviewAssignment).filter_by(grader_id=graders[0])).first()
    assert mine is not None
    notes = [{"quote": "§ 433\x00", "note": "Bemerkung\x00 mit \\0"}]
    justifications = dict.fromkeys(HALF_MARKS, PASTED)
    save_review(store, mine.id, graders[0], HALF_MARKS, justifications, submit=False, notes=notes)
    save_review(store, mine.id, graders[0], HALF_MARKS, justifications, submit=True, notes=notes)
    report_problem(store, mine.id, graders[0], "Zeichensalat\x00 " + PASTED)
    with store.session() as session:
        [review] = session.scalars(select(Review).filter_by(assignment_id=mine.id)).all()
        report = session.scalar(select(ProblemReport.text).filter_by(assignment_id=mine.id))
    assert (review.justifications, review.margin_notes, review.status) == (justifications, notes, "submitted")
    assert report == "Zeichensalat\x00 " + PASTED
    [human] = store.human_reviews()
    assert human.meta["margin_notes"] == notes


def test_every_text_on_sqlite(store: Store) -> None:
    _every_text(store)


@pytest.mark.postgres
def test_every_text_on_postgres(pg_store: Store) -> None:
    _every_text(pg_store)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(["\x00", "\\", "0", "a", "\ue000", *ESCAPED_PREFIX])) | st.text())
def test_property_column_form_round_trips(text: str) -> None:
    stored = to_column(text)
    assert "\x00" not in stored and from_column(stored) == text
    if "\x00" not in text and not text.startswith(ESCAPED_PREFIX):
        assert stored == text  # rows without a NUL are written (and read) as they are
