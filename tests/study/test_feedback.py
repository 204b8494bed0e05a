"""Formative feedback after closing (issue 25, item 7): the organiser's switch and who may read what."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from study_helpers import HALF_MARKS, new_store, open_new_study, scored_judgement, user

from benger.judge import falloesung_rubric
from benger.store import Store
from benger.study import (
    WrongState,
    close_study,
    enrol,
    open_study,
    own_feedback,
    run_picks,
    set_feedback,
    start,
    submit,
)
from benger.study._feedback import feedback_shown, feedback_submissions, judged_submissions, setting_key
from benger.study._models import Study, StudySetting, Submission


def _submitted(store: Store, study: int, uid: int, task: str = "mini-t1") -> str:
    start(store, study, uid, task)
    return submit(store, study, uid, task, f"Lösung von {uid}").id


@pytest.fixture
def closed(tmp_path: Path) -> tuple[Store, int, int, int, str, str]:
    """A closed study; p0 and p1 each submitted mini-t1: (store, study, p0, p1, p0's submission, p1's)."""
    store = new_store(tmp_path)
    study = open_new_study(store, "Rückmeldung", seed=1)
    p0, p1 = user(store, "p0", "participant"), user(store, "p1", "participant")
    for uid in (p0, p1):
        enrol(store, study, uid)
    s0, s1 = _submitted(store, study, p0), _submitted(store, study, p1)
    close_study(store, study)
    return store, study, p0, p1, s0, s1


def test_the_switch_goes_on_only_after_closing(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    study = open_new_study(store, "Offen", seed=1)
    with pytest.raises(WrongState):
        set_feedback(store, study, True)
    with store.session() as session:
        assert session.get(StudySetting, setting_key(study)) is None
    set_feedback(store, study, False)  # switching off is always allowed (and idempotent)
    close_study(store, study)
    set_feedback(store, study, True)
    set_feedback(store, study, True)
    with store.session() as session:
        assert session.get(StudySetting, setting_key(study)).value == "on"  # type: ignore[union-attr]
        assert feedback_shown(session, session.get(Study, study))  # type: ignore[arg-type]


def test_reopening_switches_feedback_off(closed: tuple[Store, int, int, int, str, str]) -> None:
    store, study, p0, _p1, s0, _s1 = closed
    store.save_judgement(scored_judgement(s0, "richter", HALF_MARKS))
    set_feedback(store, study, True)
    assert own_feedback(store, study, p0, s0) is not None
    open_study(store, study)  # no picks yet: the study may be reopened
    assert own_feedback(store, study, p0, s0) is None
    close_study(store, study)  # closing again does not bring it back by itself
    assert own_feedback(store, study, p0, s0) is None
    with store.session() as session:
        assert session.get(StudySetting, setting_key(study)) is None


def test_a_switch_left_on_an_open_study_shows_nothing(tmp_path: Path) -> None:
    store = new_store(tmp_path)
    study = open_new_study(store, "Offen", seed=1)
    p0 = user(store, "p0", "participant")
    enrol(store, study, p0)
    s0 = _submitted(store, study, p0)
    store.save_judgement(scored_judgement(s0, "richter", HALF_MARKS))
    with store.session() as session:  # a row written by hand (or an older version): the state still decides
        session.add(StudySetting(key=setting_key(study), value="on"))
    assert own_feedback(store, study, p0, s0) is None
    with store.session() as session:
        assert feedback_submissions(session, study, p0) == {}


@pytest.mark.parametrize(
    ("whose", "which_study", "on", "shown"),
    [
        ("own", "same", True, True),
        ("own", "same", False, False),
        ("other", "same", True, False),
        ("other", "same", False, False),
        ("own", "wrong", True, False),
        ("missing", "same", True, False),
    ],
)
def test_only_the_own_submission_of_this_study_with_the_switch_on(
    closed: tuple[Store, int, int, int, str, str], whose: str, which_study: str, on: bool, shown: bool
) -> None:
    store, study, p0, _p1, s0, s1 = closed
    for sid in (s0, s1):
        store.save_judgement(scored_judgement(sid, "richter", HALF_MARKS))
    set_feedback(store, study, on)
    sid = {"own": s0, "other": s1, "missing": "0" * 32}[whose]
    asked = study if which_study == "same" else study + 1
    assert (own_feedback(store, asked, p0, sid) is not None) is shown


def test_the_feedback_carries_the_latest_scored_judgement_with_its_provenance(
    closed: tuple[Store, int, int, int, str, str],
) -> None:
    store, study, p0, _p1, s0, _s1 = closed
    set_feedback(store, study, True)
    none_yet = own_feedback(store, study, p0, s0)
    assert none_yet is not None and none_yet.judgement is None and none_yet.dimensions == ()
    store.save_judgement(scored_judgement(s0, "alt", HALF_MARKS))
    full = {k: float(v * 2) for k, v in HALF_MARKS.items()}  # 100 points
    later = scored_judgement(s0, "neu", full)
    store.save_judgement(later)
    unscored = scored_judgement(s0, "kaputt", HALF_MARKS).model_copy(
        update={"status": "unscored", "dimensions": None, "total": None, "grade_points": None, "passed": None}
    )
    store.save_judgement(unscored)  # stored last, but unscored: never shown
    from benger.store._models import JudgementRow

    with store.session() as session:  # make the order of the stored times certain
        for judge, minutes in (("alt", 1), ("neu", 2), ("kaputt", 3)):
            row = session.scalar(select(JudgementRow).filter_by(judge=judge))
            row.updated_at = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=minutes)  # type: ignore[union-attr]
    fb = own_feedback(store, study, p0, s0)
    assert fb is not None and fb.judgement is not None
    assert (fb.judgement.judge, fb.judgement.total, fb.judgement.grade_points, fb.judgement.passed) == (
        "neu",
        100.0,
        18,
        True,
    )
    rubric = falloesung_rubric()
    assert [d.key for d in fb.dimensions] == rubric.keys
    first = fb.dimensions[0]
    assert (first.label, first.points, first.max, first.justification) == (
        rubric.dimensions[0].label,
        20.0,
        20.0,
        "Begründung ergebnisrichtigkeit",
    )
    assert fb.rubric_total == 100 and fb.task_id == "mini-t1" and fb.text == f"Lösung von {p0}"


def test_the_organiser_sees_how_many_submissions_are_judged(closed: tuple[Store, int, int, int, str, str]) -> None:
    store, study, _p0, _p1, s0, _s1 = closed
    with store.session() as session:
        assert judged_submissions(session, study) == (0, 2)
    store.save_judgement(scored_judgement(s0, "a", HALF_MARKS))
    store.save_judgement(scored_judgement(s0, "b", HALF_MARKS))
    with store.session() as session:
        assert judged_submissions(session, study) == (1, 2)


def test_feedback_stays_on_through_picks(closed: tuple[Store, int, int, int, str, str]) -> None:
    store, study, p0, _p1, s0, _s1 = closed
    set_feedback(store, study, True)
    run_picks(store, study)
    with store.session() as session:
        assert session.get(Study, study).state == "picked"  # type: ignore[union-attr]
        assert set(feedback_submissions(session, study, p0).values()) == {s0}
        assert session.scalar(select(Submission.user_id).filter_by(id=s0)) == p0


def test_the_cli_switch(store: Store, tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from benger.cli import _web

    app = typer.Typer()
    _web.register(app)
    study = open_new_study(store, "CLI-Rückmeldung", seed=3)
    runner, db = CliRunner(), str(tmp_path / "benger.db")  # the store fixture's file
    early = runner.invoke(app, ["study", "feedback", "--study", str(study), "--on", "--db", db])
    assert early.exit_code != 0 and isinstance(early.exception, WrongState)
    close_study(store, study)
    done = runner.invoke(app, ["study", "feedback", "--study", str(study), "--on", "--db", db])
    assert done.exit_code == 0 and "feedback for participants on" in done.output
    with store.session() as session:
        assert feedback_shown(session, session.get(Study, study))  # type: ignore[arg-type]
    off = runner.invoke(app, ["study", "feedback", "--study", str(study), "--off", "--db", db])
    assert off.exit_code == 0 and "off" in off.output
    with store.session() as session:
        assert session.get(StudySetting, setting_key(study)) is None


@pytest.mark.parametrize("flags", [["--on", "--off"], ["--off", "--on"], ["--on", "--on", "--off"], []])
def test_the_cli_switch_refuses_both_flags_or_none(store: Store, tmp_path: Path, flags: list[str]) -> None:
    from typer.testing import CliRunner

    from benger.cli import app

    study = open_new_study(store, "CLI-Schalter", seed=3)
    close_study(store, study)
    result = CliRunner().invoke(
        app, ["study", "feedback", "--study", str(study), *flags, "--db", str(tmp_path / "benger.db")]
    )
    # both: refused as every flag pair is (tests/cli/test_flag_pairs.py); neither: the command asks for one
    expected = "'--on' / '--off': opposite flags" if flags else "give exactly one of --on and --off"
    assert result.exit_code == 2 and expected in result.output
    with store.session() as session:
        assert session.get(StudySetting, setting_key(study)) is None  # feedback stays off
