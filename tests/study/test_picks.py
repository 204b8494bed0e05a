"""Validation picks: expertise z-scores, the median-expertise human, the tier-balanced LLM rotation."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from sqlalchemy import select

from benger.corpora import load_release
from benger.store import open_store
from benger.study import (
    Expertise,
    HumanCandidate,
    LlmCandidate,
    close_study,
    create_study,
    expertise_scores,
    open_study,
    pick_humans,
    pick_llm,
    run_picks,
)
from benger.study._models import Pick
from benger.study._review import solution_text


def test_expertise_scores_by_hand() -> None:
    people = [
        Expertise("A", {"Zivilrecht": 1}),
        Expertise("B", {"Zivilrecht": 3}, exam_grade=10.0),
        Expertise("C", {"Zivilrecht": 5}),
    ]
    scores = expertise_scores(people, "Zivilrecht")
    # competence 1, 3, 5: mean 3, population sd sqrt(8/3) = 1.63299 -> z = -1.22474, 0, 1.22474;
    # only B has a grade, so its z is 0 (constant); B = mean(0, 0) = 0
    assert math.isclose(scores["A"], -2 / math.sqrt(8 / 3))
    assert scores["B"] == 0.0
    assert math.isclose(scores["C"], 2 / math.sqrt(8 / 3))


def test_median_participant_is_picked_per_task_and_arm() -> None:
    expertise = {p: Expertise(p, {"Strafrecht": c}) for p, c in (("A", 1), ("B", 2), ("C", 4), ("D", 5))}
    subs = [
        HumanCandidate(f"s-{p}-{t}", p, t, "Strafrecht", arm)
        for p, t, arm in (
            ("A", "t1", "traditional"),
            ("B", "t1", "traditional"),
            ("C", "t1", "traditional"),
            ("D", "t1", "co_creation"),
            ("A", "t2", "co_creation"),
            ("D", "t2", "traditional"),
        )
    ]
    picks = {(p.task_id, p.arm): p.solution_id for p in pick_humans(subs, expertise)}
    # competence 1,2,4,5: mean 3, sd sqrt(2.5) -> z = -1.265, -0.632, 0.632, 1.265.
    # traditional pool {A,B,C,D}: median = (-0.632 + 0.632) / 2 = 0 -> in t1, B and C tie at 0.632: B by id.
    # co_creation pool {D, A}: median 0 -> t1 has only D; t2 only A.
    assert picks == {
        ("t1", "traditional"): "s-B-t1",
        ("t1", "co_creation"): "s-D-t1",
        ("t2", "co_creation"): "s-A-t2",
        ("t2", "traditional"): "s-D-t2",
    }


def test_llm_rotation_with_load_counter_and_token_floor() -> None:
    tasks = ["t1", "t2", "t3", "t4", "t5"]
    cands = []
    for t in tasks:
        for system, tier in (("F1", "flagship"), ("F2", "flagship"), ("E1", "efficiency"), ("O1", "open_reference")):
            tokens = 150 if (system, t) == ("E1", "t2") else 400
            cands.append(LlmCandidate(f"{system}-{t}", t, system, tier, tokens, has_text=True))
    picks = [(p.task_id, p.system) for p in pick_llm(tasks, cands)]
    # t1 -> flagship (F1, F2 both unused: F1 by name); t2 -> efficiency, but E1's t2 has 150 < 200 tokens,
    # so the next tier, open_reference: O1; t3 -> open_reference: O1; t4 -> flagship: F2 (F1 has one pick);
    # t5 -> efficiency: E1
    assert picks == [("t1", "F1"), ("t2", "O1"), ("t3", "O1"), ("t4", "F2"), ("t5", "E1")]


def test_generations_without_text_are_never_picked() -> None:
    # F1 is first by name in the flagship tier, but its t1 generation has 900 tokens and no text
    cands = [
        LlmCandidate("F1-t1", "t1", "F1", "flagship", 900, has_text=False),
        LlmCandidate("F2-t1", "t1", "F2", "flagship", 300, has_text=True),
        LlmCandidate("E1-t2", "t2", "E1", "efficiency", 300, has_text=False),
        LlmCandidate("O1-t2", "t2", "O1", "open_reference", 300, has_text=True),
    ]
    # t1 -> flagship: only F2 has text; t2 -> efficiency has no text, so open_reference: O1
    assert [(p.task_id, p.generation_id) for p in pick_llm(["t1", "t2"], cands)] == [("t1", "F2-t1"), ("t2", "O1-t2")]


@pytest.mark.release
def test_llm_picks_on_the_imported_release_point_at_texts(release_dir: Path, tmp_path: Path) -> None:
    store = open_store(tmp_path / "release.db")
    try:
        release = load_release(release_dir)
        store.import_release(release)
        study = create_study(store, "Release", release.benchathon.name, seed=20260509)
        open_study(store, study)
        close_study(store, study)
        n = run_picks(store, study, llm_only=True)  # no human submissions: one LLM pick per task
        with store.session() as session:
            picks = list(session.scalars(select(Pick).filter_by(study_id=study)))
            texts = {p.code: solution_text(session, store, p) for p in picks}
        # the release ships the text of one generation per Benchathon task (the others carry scores only);
        # task 11's is missing or under 200 tokens, so 14 of the 15 tasks get an LLM pick
        inner = {t.task_id: t.meta["inner_id"] for t in release.benchathon.tasks}
        assert n == len(picks) == 14
        assert sorted(inner[p.task_id] for p in picks) == [i for i in range(1, 16) if i != 11]
        assert all(p.provenance == "llm" for p in picks)
        assert [code for code, text in texts.items() if not text.strip()] == []
    finally:
        store.close()
