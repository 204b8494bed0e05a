"""Picks, review assignment and versioned reviews on a real store; the migration matches the models."""

from __future__ import annotations

from collections import Counter

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select
from study_helpers import open_new_study, user

from benger.errors import InputError
from benger.judge import falloesung_rubric
from benger.store import Base, Store
from benger.study import (
    AlreadySubmitted,
    close_study,
    enrol,
    open_correction,
    run_assignment,
    run_picks,
    save_expertise,
    save_review,
    score,
    set_author,
    start,
    submit,
)
from benger.study._models import STUDY_TABLES, Pick, Review, ReviewAssignment

FULL = {
    "ergebnisrichtigkeit": 15,
    "vollstaendigkeit": 8,
    "rechtsgrundlagen": 7.5,
    "rechtskenntnis": 11,
    "subsumtion": 10,
    "schwerpunktsetzung": 6,
    "methodischer_stil": 7,
    "gliederung": 4,
    "sprache": 2.5,
    "formalia": 1.5,
}
NOTES = {k: "begründet" for k in FULL}


def test_score_validates_and_computes() -> None:
    rubric = falloesung_rubric()
    scored = score(rubric, FULL, NOTES, complete=True)
    # 15+8+7.5+11+10+6+7+4+2.5+1.5 = 72.5 -> rounds to 73 -> 10 grade points (70..73), passed
    assert (scored.total, scored.grade_points, scored.passed) == (72.5, 10, True)
    with pytest.raises(InputError, match="Schritten von 0,5"):
        score(rubric, {**FULL, "sprache": 2.3}, NOTES, complete=True)
    with pytest.raises(InputError, match="zwischen 0 und 2 "):
        score(rubric, {**FULL, "formalia": 3}, NOTES, complete=True)
    with pytest.raises(InputError, match="Begründung fehlt"):
        score(rubric, FULL, {}, complete=True)
    draft = score(rubric, {"sprache": "2,5"}, {}, complete=False)
    assert (draft.total, draft.grade_points) == (2.5, None)


def _study_with_submissions(store: Store) -> tuple[int, dict[str, int]]:
    study = open_new_study(store, "Validierung", seed=5, time_limit_s=3600)
    people = {}
    for i, comp in enumerate((1, 3, 5, 2)):
        pid = user(store, f"p{i}", "participant")
        save_expertise(
            store, pid, "law_student", dict.fromkeys(("Zivilrecht", "Strafrecht", "Öffentliches Recht"), comp), None
        )
        enrol(store, study, pid)
        for t in range(1, 7):
            start(store, study, pid, f"mini-t{t}")
            submit(store, study, pid, f"mini-t{t}", f"Lösung von p{i} zu Fall {t}")
        people[f"p{i}"] = pid
    creators = [user(store, f"c{i}", "creator", "grader") for i in range(3)]
    graders = [user(store, f"g{i}", "grader") for i in range(3)]
    for t in range(1, 7):  # c0 authors Zivilrecht (t1, t2), c1 Strafrecht, c2 Öffentliches Recht
        set_author(store, study, f"mini-t{t}", creators[(t - 1) // 2])
    close_study(store, study)
    people.update({f"c{i}": c for i, c in enumerate(creators)} | {f"g{i}": g for i, g in enumerate(graders)})
    return study, people


def test_picks_assignment_and_versioned_reviews(store: Store) -> None:
    study, people = _study_with_submissions(store)
    # 6 tasks x (traditional + co_creation + llm): 4 participants in balanced arms cover both arms of every task
    assert run_picks(store, study) == 18
    assert run_picks(store, study) == 18  # re-picking is allowed until the reviews start
    assert run_assignment(store, study) == 18 * 4
    with store.session() as session:
        picks = list(session.scalars(select(Pick).filter_by(study_id=study)))
        rows = list(session.scalars(select(ReviewAssignment).filter_by(study_id=study)))
    assert Counter(p.provenance for p in picks) == {"traditional": 6, "co_creation": 6, "llm": 6}
    # LLM rotation over 6 tasks: flagship, efficiency, open, flagship, efficiency, open
    assert [p.meta["tier"] for p in sorted(picks, key=lambda p: p.code) if p.provenance == "llm"] == [
        "flagship",
        "efficiency",
        "open_reference",
    ] * 2
    # blind: 18 x 3 = 54 over 6 graders; each creator is barred from their own area (6 picks), so 9 each
    blind = Counter(r.grader_id for r in rows if r.role == "blind")
    assert sorted(blind.values()) == [9] * 6
    mine = next(r for r in rows if r.grader_id == people["g0"])
    save_review(store, mine.id, people["g0"], {"sprache": 2}, {}, submit=False)
    save_review(store, mine.id, people["g0"], FULL, NOTES, submit=True)
    with pytest.raises(AlreadySubmitted):
        save_review(store, mine.id, people["g0"], FULL, NOTES, submit=False)
    with pytest.raises(PermissionError):
        save_review(store, mine.id, people["g1"], FULL, NOTES, submit=False)
    open_correction(store, mine.id, people["g0"])
    save_review(store, mine.id, people["g0"], {**FULL, "formalia": 2}, NOTES, submit=True)
    with store.session() as session:
        versions = list(session.scalars(select(Review).filter_by(assignment_id=mine.id).order_by(Review.version)))
    assert [(v.version, v.status, v.total) for v in versions] == [(1, "submitted", 72.5), (2, "submitted", 73.0)]
    assert versions[1].supersedes == versions[0].id
    [mirrored] = store.human_reviews()  # the correction replaced version 1 in the core store
    assert (mirrored.review_id, mirrored.raw_score, mirrored.meta["version"]) == (versions[0].id, 73.0, 2)
    assert mirrored.role == "blind" and mirrored.grader_id.startswith("u-")


def test_migration_matches_models(store: Store) -> None:
    with store.engine.connect() as connection:
        diffs = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    ours = [d for d in diffs if any(t in repr(d) for t in STUDY_TABLES)]
    assert ours == []


def test_a_legacy_admin_grader_account_gets_no_blind_slot(store: Store) -> None:
    """An account that holds admin and grader from before the rule (roles written directly) is no blind grader:
    the organiser's downloads show every pick's provenance."""
    study, _people = _study_with_submissions(store)
    orga = user(store, "orga", "admin", "grader")  # written directly, as an older store may hold it
    run_picks(store, study)
    run_assignment(store, study)
    with store.session() as session:
        mine = session.scalars(select(ReviewAssignment).filter_by(study_id=study, grader_id=orga)).all()
        others = session.scalars(select(ReviewAssignment).filter_by(study_id=study, role="blind")).all()
    assert mine == [] and len(others) == 18 * 3
