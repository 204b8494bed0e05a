"""The study lifecycle draft -> open -> closed -> picked -> in_review -> done, its guards, re-picking until
reviews start, and the self-review exclusion on a real store (an account that participates and grades)."""

from __future__ import annotations

import pytest
from sqlalchemy import select
from study_helpers import HALF_MARKS, user

from benger.store import Store
from benger.study import (
    WrongState,
    close_study,
    create_study,
    design_violations,
    enrol,
    finish_study,
    open_study,
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
from benger.study._assign import PickSpec, ReviewSlot
from benger.study._models import Attempt, Pick, ReviewAssignment, Study, Submission

COMPETENCE = {"Zivilrecht": 3, "Strafrecht": 3, "Öffentliches Recht": 3}
NOTES = dict.fromkeys(HALF_MARKS, "passt")


def _state(store: Store, study: int) -> str:
    with store.session() as session:
        row = session.get(Study, study)
        assert row is not None
        return row.state


def _participant(store: Store, name: str, *extra: str, competence: int = 3) -> int:
    pid = user(store, name, "participant", *extra)
    save_expertise(store, pid, "law_student", dict.fromkeys(COMPETENCE, competence), None)
    return pid


def _staff(store: Store, study: int) -> None:
    creators = [user(store, f"c{i}", "creator") for i in range(3)]
    for t in range(1, 7):
        set_author(store, study, f"mini-t{t}", creators[(t - 1) // 2])
    for i in range(3):
        user(store, f"g{i}", "grader")


def test_a_study_moves_through_its_lifecycle_with_guards(store: Store) -> None:
    study = create_study(store, "Ablauf", "mini", seed=1, time_limit_s=3600)
    anna, ben = _participant(store, "anna"), _participant(store, "ben")
    assert _state(store, study) == "draft"
    with pytest.raises(WrongState):  # a draft takes no participants
        enrol(store, study, anna)
    with pytest.raises(WrongState):  # picks only after the close
        run_picks(store, study)
    open_study(store, study)
    for pid in (anna, ben):
        enrol(store, study, pid)
    start(store, study, anna, "mini-t1")
    submit(store, study, anna, "mini-t1", "Anna fertig")
    start(store, study, ben, "mini-t1")
    save_draft(store, study, ben, "mini-t1", "Bens Entwurf")
    with pytest.raises(WrongState):
        run_picks(store, study)
    # closing ends submissions: Ben's running draft is submitted automatically, nothing else starts
    assert close_study(store, study) == 1
    assert _state(store, study) == "closed"
    with store.session() as session:
        ben_sub = session.scalar(select(Submission).filter_by(user_id=ben, task_id="mini-t1"))
        assert ben_sub is not None and (ben_sub.text, ben_sub.auto_submitted) == ("Bens Entwurf", True)
    for step in (
        lambda: start(store, study, anna, "mini-t2"),
        lambda: submit(store, study, anna, "mini-t2", "zu spät"),
        lambda: skip(store, study, anna, "mini-t3", "keine Zeit"),
        lambda: enrol(store, study, _participant(store, "carla")),
        lambda: run_assignment(store, study),
    ):
        with pytest.raises(WrongState):
            step()
    _staff(store, study)
    n = run_picks(store, study)
    assert _state(store, study) == "picked"
    with pytest.raises(WrongState):  # picks exist: no reopening
        open_study(store, study)
    assert run_picks(store, study) == n  # re-picking is allowed until reviews start
    assigned = run_assignment(store, study)
    assert _state(store, study) == "in_review" and assigned == 4 * n
    assert run_picks(store, study) == n and _state(store, study) == "picked"  # still no review: allowed
    run_assignment(store, study)
    with store.session() as session:
        first = session.scalars(select(ReviewAssignment).filter_by(study_id=study).order_by(ReviewAssignment.id))
        assignment = next(iter(first))
    save_review(store, assignment.id, assignment.grader_id, {"sprache": 2}, {}, submit=False)
    with pytest.raises(WrongState, match="Bewertungen haben begonnen"):
        run_picks(store, study)
    with pytest.raises(WrongState):
        run_assignment(store, study)
    finish_study(store, study)
    assert _state(store, study) == "done"
    with pytest.raises(WrongState):  # no reviews after the end
        save_review(store, assignment.id, assignment.grader_id, HALF_MARKS, NOTES, submit=True)


def test_submissions_made_after_a_reopen_are_picked(store: Store) -> None:
    # a study closed too early (one submission in) and reopened: picks see every later submission
    study = create_study(store, "Wieder offen", "mini", seed=2, time_limit_s=3600)
    open_study(store, study)
    people = [_participant(store, f"p{i}") for i in range(4)]
    enrol(store, study, people[0])
    start(store, study, people[0], "mini-t1")
    submit(store, study, people[0], "mini-t1", "früh")
    close_study(store, study)
    open_study(store, study)  # no picks yet: reopening is allowed
    for pid in people[1:]:
        enrol(store, study, pid)
    for pid in people[1:]:
        start(store, study, pid, "mini-t1")
        submit(store, study, pid, "mini-t1", f"später {pid}")
    close_study(store, study)
    run_picks(store, study)
    with store.session() as session:
        human = session.scalars(select(Pick).where(Pick.study_id == study, Pick.target_kind == "human_solution"))
        arms = sorted(p.provenance for p in human)
        skipped = session.scalars(select(Attempt).filter_by(study_id=study, status="skipped")).all()
    assert arms == ["co_creation", "traditional"]  # 4 participants on task 1 cover both arms
    assert skipped == []


def test_participant_who_grades_never_reviews_their_own_submission(store: Store) -> None:
    study = create_study(store, "Doppelrolle", "mini", seed=3, time_limit_s=3600)
    open_study(store, study)
    # p0 also grades; with p0 there are 4 blind graders, so every pick still gets 3 distinct blind reviews
    # competence 3, 1, 4, 5: the median is 3.5, so p0 is the pick wherever it shares a task and arm with p1 or p3
    people = [_participant(store, "p0", "grader")]
    people += [_participant(store, f"p{i}", competence=c) for i, c in ((1, 1), (2, 4), (3, 5))]
    for pid in people:
        enrol(store, study, pid)
        for t in range(1, 7):
            start(store, study, pid, f"mini-t{t}")
            submit(store, study, pid, f"mini-t{t}", f"Lösung {pid}-{t}")
    close_study(store, study)
    _staff(store, study)
    run_picks(store, study)
    run_assignment(store, study)
    with store.session() as session:
        picks = {p.id: p for p in session.scalars(select(Pick).filter_by(study_id=study))}
        subs = {s.id: s.user_id for s in session.scalars(select(Submission).filter_by(study_id=study))}
        rows = list(session.scalars(select(ReviewAssignment).filter_by(study_id=study)))
    own = [r for r in rows if r.role == "blind" and subs.get(picks[r.pick_id].target_id) == r.grader_id]
    assert own == []
    assert any(subs.get(p.target_id) == people[0] for p in picks.values())  # p0's work was picked
    assert any(r.grader_id == people[0] for r in rows)  # and p0 does grade other picks
    # design_violations sees the same: the stored design has no self-review
    specs = [PickSpec(str(p.id), p.task_id, "x", p.provenance) for p in picks.values()]
    slots = [ReviewSlot(str(r.pick_id), str(r.grader_id), r.role, r.slot) for r in rows]
    submitters = {str(p.id): str(subs[p.target_id]) for p in picks.values() if p.target_id in subs}
    creators = {s.grader for s in slots if s.role == "creator"}
    authors = {
        p.task_id: next(s.grader for s in slots if s.pick_id == str(p.id) and s.role == "creator")
        for p in picks.values()
    }
    graders = sorted({s.grader for s in slots if s.role == "blind"})
    assert design_violations(slots, specs, authors, graders, submitters=submitters) == []
    assert creators.isdisjoint(graders)
