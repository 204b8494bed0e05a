"""A finished review under a task's ungraded Bewertungsbogen reaches the core store with raw points only: the
copy into human_reviews keeps grade points and pass empty instead of grade 0 / failed (issue 31)."""

from __future__ import annotations

from pathlib import Path

import yaml
from sqlalchemy import select
from study_helpers import mini_corpus, new_store, open_new_study, user

from benger.study import close_study, enrol, run_assignment, run_picks, save_review, set_author, start, submit
from benger.study._models import ReviewAssignment

KURZ3 = Path(__file__).resolve().parents[2] / "examples" / "own-study" / "rubrics" / "kurz3.yaml"


def _ungraded_kurz3(pass_total: float | None) -> dict[str, object]:
    data = yaml.safe_load(KURZ3.read_text(encoding="utf-8"))
    for key in ("grades", "pass_grade"):
        data.pop(key)
    data.update({"name": "kurz3-ohne-noten", "graded": False})
    if pass_total is not None:
        data["pass_total"] = pass_total
    return data


def _mirrored(tmp_path: Path, pass_total: float | None) -> tuple[float, int | None, bool | None]:
    corpus = mini_corpus()
    bogen = _ungraded_kurz3(pass_total)
    corpus = corpus.model_copy(update={"tasks": [t.model_copy(update={"rubric": bogen}) for t in corpus.tasks]})
    store = new_store(tmp_path, corpus)
    try:
        study = open_new_study(store, "Ohne Noten", seed=5, time_limit_s=3600)
        for i in range(4):
            pid = user(store, f"p{i}", "participant")
            enrol(store, study, pid)
            for t in range(1, 7):
                start(store, study, pid, f"mini-t{t}")
                submit(store, study, pid, f"mini-t{t}", f"Lösung von p{i} zu Fall {t}")
        creators = [user(store, f"c{i}", "creator", "grader") for i in range(3)]
        graders = [user(store, f"g{i}", "grader") for i in range(3)]
        for t in range(1, 7):
            set_author(store, study, f"mini-t{t}", creators[(t - 1) // 2])
        close_study(store, study)
        run_picks(store, study)
        run_assignment(store, study)
        with store.session() as session:
            mine = session.scalars(select(ReviewAssignment).filter_by(grader_id=graders[0], role="blind")).first()
            assert mine is not None
            assignment = mine.id
        marks = {"ergebnis": 7, "aufbau": 4, "argumentation": 6}  # 17 of 30
        save_review(store, assignment, graders[0], marks, {k: "begründet" for k in marks}, submit=True)
        [review] = store.human_reviews()
        return review.raw_score, review.grade_points, review.passed
    finally:
        store.close()


def test_an_ungraded_bogen_is_mirrored_with_raw_points_only(tmp_path: Path) -> None:
    # before: grade_points=int(None or 0) = 0 and passed=bool(None) = False, a grade nobody gave
    assert _mirrored(tmp_path, None) == (17.0, None, None)


def test_an_ungraded_bogen_with_a_pass_mark_keeps_its_pass(tmp_path: Path) -> None:
    assert _mirrored(tmp_path, 15) == (17.0, None, True)  # 17 >= pass_total 15, still no grade points
