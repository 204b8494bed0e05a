"""The timed Benchathon flow on a real SQLite store: start, autosave, submit once, expiry, skip."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select
from study_helpers import open_new_study, user

from benger.errors import InputError
from benger.store import Store
from benger.study import (
    AlreadySubmitted,
    create_study,
    enrol,
    expire_overdue,
    save_draft,
    save_expertise,
    skip,
    start,
    submit,
)
from benger.study._models import Attempt, Submission

T0 = datetime(2026, 3, 15, 10, 0, tzinfo=UTC)
COMPETENCE = {"Zivilrecht": 4, "Strafrecht": 2, "Öffentliches Recht": 3}


def _setup(store: Store, limit_s: int = 60) -> tuple[int, int]:
    study = open_new_study(store, "Benchathon Test", seed=7, time_limit_s=limit_s)
    pid = user(store, "anna", "participant")
    save_expertise(store, pid, "law_student", COMPETENCE, 9.5)
    enrol(store, study, pid)
    return study, pid


def test_submit_once_and_mirror_into_store(store: Store) -> None:
    study, pid = _setup(store)
    start(store, study, pid, "mini-t1", now=T0)
    assert save_draft(store, study, pid, "mini-t1", "Entwurf", now=T0 + timedelta(seconds=10)).status == "saved"
    sub = submit(store, study, pid, "mini-t1", "Endfassung", now=T0 + timedelta(seconds=20))
    assert (sub.text, sub.auto_submitted) == ("Endfassung", False)
    with pytest.raises(AlreadySubmitted):
        submit(store, study, pid, "mini-t1", "noch einmal", now=T0 + timedelta(seconds=21))
    late = save_draft(store, study, pid, "mini-t1", "später", now=T0 + timedelta(seconds=22))
    assert (late.status, late.text) == ("submitted", "Endfassung")  # what counts, not the late text
    [solution] = store.human_solutions(task_id="mini-t1")
    with store.session() as session:
        arm = session.scalar(select(Attempt.arm).filter_by(user_id=pid, task_id="mini-t1"))
    assert (solution.solution_id, solution.text, solution.condition) == (sub.id, "Endfassung", arm)
    assert solution.participant_id.startswith("u-")  # the pseudonym, not the user name


def test_expiry_submits_last_draft(store: Store) -> None:
    study, pid = _setup(store, limit_s=60)
    start(store, study, pid, "mini-t2", now=T0)
    save_draft(store, study, pid, "mini-t2", "letzter Stand", now=T0 + timedelta(seconds=30))
    # 63 s > 60 s limit + 2 s grace: the late text is ignored and the draft is submitted.
    late = save_draft(store, study, pid, "mini-t2", "zu spät", now=T0 + timedelta(seconds=63))
    assert (late.status, late.text, late.auto, late.saved_at) == (
        "submitted",
        "letzter Stand",
        True,
        T0 + timedelta(seconds=30),
    )
    with store.session() as session:
        sub = session.scalar(select(Submission).filter_by(user_id=pid, task_id="mini-t2"))
        assert sub is not None and (sub.text, sub.auto_submitted) == ("letzter Stand", True)
    with pytest.raises(AlreadySubmitted):  # the timer already submitted
        submit(store, study, pid, "mini-t2", "zu spät", now=T0 + timedelta(seconds=64))


def test_sweep_and_late_submit(store: Store) -> None:
    study, pid = _setup(store, limit_s=60)
    start(store, study, pid, "mini-t3", now=T0)
    start(store, study, pid, "mini-t4", now=T0 + timedelta(seconds=30))
    save_draft(store, study, pid, "mini-t3", "Entwurf drei", now=T0 + timedelta(seconds=5))
    # at T0+70: t3 is overdue (deadline T0+60, +2 grace), t4 (deadline T0+90) is not
    assert expire_overdue(store, now=T0 + timedelta(seconds=70)) == 1
    assert expire_overdue(store, now=T0 + timedelta(seconds=70)) == 0
    # a submit that arrives after t4's deadline submits the stored draft (empty), not the posted text
    sub = submit(store, study, pid, "mini-t4", "nach Ablauf", now=T0 + timedelta(seconds=100))
    assert (sub.text, sub.auto_submitted) == ("", True)


def test_skip_and_not_started(store: Store) -> None:
    study, pid = _setup(store)
    with pytest.raises(InputError, match="noch nicht gestartet"):
        submit(store, study, pid, "mini-t5", "x", now=T0)
    skip(store, study, pid, "mini-t5")
    with store.session() as session:
        assert session.scalar(select(Attempt.status).filter_by(user_id=pid, task_id="mini-t5")) == "skipped"
    start(store, study, pid, "mini-t5", now=T0)  # a skipped task does not start again
    with pytest.raises(AlreadySubmitted, match="übersprungen"):
        submit(store, study, pid, "mini-t5", "x", now=T0)


def test_started_task_cannot_be_skipped(store: Store) -> None:
    study, pid = _setup(store)
    start(store, study, pid, "mini-t6", now=T0)
    with pytest.raises(AlreadySubmitted, match="gestartet"):
        skip(store, study, pid, "mini-t6")


def test_enrolment_is_balanced(store: Store) -> None:
    study = open_new_study(store, "Balance", seed=3)
    ids = [user(store, f"p{i}", "participant") for i in range(4)]
    for pid in ids:
        enrol(store, study, pid)
        enrol(store, study, pid)  # idempotent
    with store.session() as session:
        rows = list(session.scalars(select(Attempt).filter_by(study_id=study)))
    assert len(rows) == 4 * 6
    for pid in ids:  # 6 tasks: 3 per arm for every participant
        assert sum(r.arm == "traditional" for r in rows if r.user_id == pid) == 3
    for task in {r.task_id for r in rows}:  # 4 participants: 2 per arm for every task
        assert sum(r.arm == "traditional" for r in rows if r.task_id == task) == 2


def test_bad_inputs_are_clear(store: Store) -> None:
    with pytest.raises(InputError, match="Den Korpus nope gibt es im Speicher nicht"):
        create_study(store, "X", "nope", seed=1)
    pid = user(store, "bob", "participant")
    with pytest.raises(InputError, match="Kompetenz in Strafrecht"):
        save_expertise(store, pid, "graduate", {"Zivilrecht": 3, "Strafrecht": 6, "Öffentliches Recht": 1}, None)
    with pytest.raises(InputError, match="Examensnote"):
        save_expertise(store, pid, "graduate", COMPETENCE, 19.0)
