"""Autosave as a protocol (benger.study._drafts): versioned drafts, optimistic concurrency, what counts after
the deadline. Observation 2 of issue 25: a second tab's older autosave replaced 801 characters by 1."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select
from study_helpers import mini_corpus, open_new_study, user

from benger.store import Store, open_store
from benger.study import DraftConflict, enrol, save_draft, start, submit
from benger.study._models import Attempt, Submission

T0 = datetime(2026, 3, 15, 10, 0, tzinfo=UTC)
NEWER = "N" * 801


def _started(store: Store, name: str = "anna", limit_s: int = 600) -> tuple[int, int]:
    study = open_new_study(store, f"Drafts {name}", seed=3, time_limit_s=limit_s)
    pid = user(store, name, "participant")
    enrol(store, study, pid)
    start(store, study, pid, "mini-t1", now=T0)
    return study, pid


def _draft(store: Store, pid: int) -> tuple[str, int]:
    with store.session() as session:
        a = session.scalar(select(Attempt).filter_by(user_id=pid, task_id="mini-t1"))
        assert a is not None
        return a.draft, a.draft_version


def test_a_stale_tab_is_told_and_never_overwrites(store: Store) -> None:
    study, pid = _started(store)
    at = T0 + timedelta(seconds=5)
    # both tabs loaded version 0; tab B saves 801 characters
    newer = save_draft(store, study, pid, "mini-t1", NEWER, base_version=0, now=at)
    assert (newer.status, newer.version) == ("saved", 1)
    # tab A, still on version 0, autosaves one character: refused, told the newer text
    stale = save_draft(store, study, pid, "mini-t1", "x", base_version=0, now=at + timedelta(seconds=1))
    assert (stale.status, stale.version, stale.text, stale.saved_at) == ("conflict", 1, NEWER, at)
    assert _draft(store, pid) == (NEWER, 1)
    # the same stale tab tries to submit its text: refused, nothing submitted
    with pytest.raises(DraftConflict):
        submit(store, study, pid, "mini-t1", "x", now=at + timedelta(seconds=2), base_version=0)
    with store.session() as session:
        assert session.scalar(select(Submission).filter_by(user_id=pid)) is None
    # after the participant chose (keep mine), the save names the version it was shown: accepted
    kept = save_draft(store, study, pid, "mini-t1", "x", base_version=1, now=at + timedelta(seconds=3))
    assert (kept.status, kept.version) == ("saved", 2) and _draft(store, pid) == ("x", 2)


def test_a_repeated_save_whose_answer_was_lost_is_acknowledged(store: Store) -> None:
    study, pid = _started(store, "ben")
    first = save_draft(store, study, pid, "mini-t1", "Stand 1", base_version=0, now=T0 + timedelta(seconds=5))
    again = save_draft(store, study, pid, "mini-t1", "Stand 1", base_version=0, now=T0 + timedelta(seconds=9))
    assert (first.status, again.status, again.version) == ("saved", "saved", 1)
    assert again.saved_at == T0 + timedelta(seconds=5)  # the time the server first acknowledged it


def test_after_the_deadline_the_last_acknowledged_text_counts(store: Store) -> None:
    study, pid = _started(store, "cleo", limit_s=60)
    save_draft(store, study, pid, "mini-t1", "bestätigt", base_version=0, now=T0 + timedelta(seconds=30))
    late = save_draft(
        store, study, pid, "mini-t1", "bestätigt + offline", base_version=1, now=T0 + timedelta(seconds=63)
    )
    assert (late.status, late.text, late.auto, late.saved_at) == (
        "submitted",
        "bestätigt",
        True,
        T0 + timedelta(seconds=30),
    )
    again = save_draft(store, study, pid, "mini-t1", "noch später", base_version=1, now=T0 + timedelta(seconds=70))
    assert (again.status, again.text) == ("submitted", "bestätigt")


_PROP: list[int] = []


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    saves=st.lists(st.tuples(st.integers(0, 4), st.sampled_from(["", "a", "b", "ab", "\\0"])), min_size=1, max_size=10)
)
def test_property_a_save_lands_only_on_the_version_it_read(store: Store, saves: list[tuple[int, str]]) -> None:
    if not _PROP:
        _PROP.append(open_new_study(store, "Drafts property", seed=4, time_limit_s=600))
    study = _PROP[0]
    pid = user(store, f"prop-{id(saves)}-{len(_PROP)}", "participant")
    _PROP.append(pid)
    enrol(store, study, pid)
    start(store, study, pid, "mini-t1", now=T0)
    text, version = "", 0
    for i, (base, new) in enumerate(saves):
        state = save_draft(store, study, pid, "mini-t1", new, base_version=base, now=T0 + timedelta(seconds=i + 1))
        if base == version:
            assert state.status == "saved"
            text, version = new, version + 1
        elif new == text:  # a repeat of what the server holds: acknowledged, nothing changes
            assert (state.status, state.version) == ("saved", version)
        else:
            assert (state.status, state.text, state.version) == ("conflict", text, version)
        assert _draft(store, pid) == (text, version)


@pytest.fixture
def pg_store(pg_database: Callable[[str], AbstractContextManager[str]]) -> Iterator[Store]:
    with pg_database("benger_drafts") as url:
        store = open_store(url)
        try:
            store.add_corpus(mini_corpus())
            yield store
        finally:
            store.close()


@pytest.mark.postgres
def test_20_tabs_saving_on_one_version_on_postgres(pg_store: Store) -> None:
    study, pid = _started(pg_store, "dora")
    now = T0 + timedelta(seconds=10)
    with ThreadPoolExecutor(10) as pool:
        states = list(
            pool.map(
                lambda i: save_draft(pg_store, study, pid, "mini-t1", f"Tab {i}", base_version=0, now=now), range(20)
            )
        )
    saved = [s for s in states if s.status == "saved"]
    assert len(saved) == 1 and {s.status for s in states} == {"saved", "conflict"}
    winner = _draft(pg_store, pid)
    assert winner[1] == 1 and all(s.text == winner[0] for s in states if s.status == "conflict")
