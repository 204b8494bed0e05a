"""Validation-only judge configurations (issue 27): a judge that scored only reviewed generations (validation
picks) makes no leaderboard rows, on the store path and on the records path alike, and none of RQ5's
per-generation scores; its scores of the picks still validate it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from benger.analysis import StudyData
from benger.analysis.leaderboard import leaderboard, leaderboard_from_store
from benger.analysis.leaderboard.records import validation_only
from benger.schema import Corpus, FalloesungTask, Generation, HumanReview, Judgement
from benger.store import Store, open_store
from benger.store._aggregate_items import validation_only_judges

RUBRIC = "falloesung@1"
#: judge A scores every generation; judge B only g0, the reviewed one (a validation pick)
A_TOTALS = {"g0": 40.0, "g1": 60.0, "g2": 80.0}


def _judgement(gid: str, judge: str, total: float) -> Judgement:
    return Judgement(
        judgement_id=f"{gid}:{judge}",
        target_kind="generation",
        target_id=gid,
        judge=judge,
        judge_config_hash=f"h{judge}",
        rubric_id=RUBRIC,
        status="scored",
        total=total,
    )


def _review(gid: str, task_id: str) -> HumanReview:
    return HumanReview(
        review_id=f"r-{gid}",
        target_kind="generation",
        target_id=gid,
        task_id=task_id,
        grader_id="grader_01",
        role="blind",
        dimensions={"gesamt": 50.0},
        raw_score=50.0,
        grade_points=None,
        passed=None,
        position=0,
    )


def _store(path: Path | str, reviewed: tuple[str, ...]) -> Store:
    store = open_store(path)
    tasks = [
        FalloesungTask(task_id=f"t{i}", corpus="fall", area="Zivilrecht", facts="S", reference="R") for i in range(3)
    ]
    store.add_corpus(Corpus(name="fall", tasks=tasks))
    for i, (gid, total) in enumerate(A_TOTALS.items()):
        store.save_generation(Generation(generation_id=gid, task_id=f"t{i}", system="m", config_hash="c"))
        store.save_judgement(_judgement(gid, "A", total))
    store.save_judgement(_judgement("g0", "B", 90.0))
    for gid in reviewed:
        store.add_human_review(_review(gid, f"t{gid[1:]}"))
    return store


@pytest.fixture
def one_pick(tmp_path: Path) -> Iterator[Store]:
    store = _store(tmp_path / "pick.db", reviewed=("g0",))
    yield store
    store.close()


def _rows(board: object) -> list[tuple[str | None, int, float | None]]:
    return [(r.judge, r.n, r.mean) for r in board.rows]  # type: ignore[attr-defined]


def test_a_judge_of_the_reviewed_pick_only_makes_no_rows(one_pick: Store) -> None:
    assert validation_only_judges(one_pick) == {("B", "hB", RUBRIC)}
    # A's row: (40 + 60 + 80) / 3 = 60 over its 3 generations; B's 90 of g0 would be a row of n = 1
    assert _rows(leaderboard_from_store(one_pick, ci="normal")) == [("A", 3, 60.0)]
    assert _rows(leaderboard_from_store(one_pick, ci="percentile", seed=0, n_resamples=50)) == [("A", 3, 60.0)]
    # named, it is shown
    assert _rows(leaderboard_from_store(one_pick, ci="normal", judges=["B"])) == [("B", 1, 90.0)]


def test_the_records_path_applies_the_same_rule(one_pick: Store) -> None:
    gens = one_pick.generations()
    judgements = one_pick.judgements(target_kind="generation")
    tasks = {t.task_id: t for t in one_pick.load_corpus("fall").tasks}
    assert validation_only(judgements, {"g0"}) == {("B", "hB", RUBRIC)}
    board = leaderboard(gens, judgements, tasks, ci="normal", reviewed={"g0"})
    assert _rows(board) == _rows(leaderboard_from_store(one_pick, ci="normal")) == [("A", 3, 60.0)]
    # without the reviewed ids nothing is validation-only: B is a group of its own
    assert sorted(_rows(leaderboard(gens, judgements, tasks, ci="normal"))) == [("A", 3, 60.0), ("B", 1, 90.0)]


def test_a_store_whose_every_generation_is_reviewed_keeps_every_judge(tmp_path: Path) -> None:
    store = _store(tmp_path / "all.db", reviewed=("g0", "g1", "g2"))
    try:
        assert validation_only_judges(store) == set()  # no judge scored an unreviewed generation
        assert sorted(_rows(leaderboard_from_store(store, ci="normal"))) == [("A", 3, 60.0), ("B", 1, 90.0)]
    finally:
        store.close()


def test_its_pick_scores_validate_it_but_are_no_per_generation_scores(one_pick: Store) -> None:
    data = StudyData.from_store(one_pick, corpus="fall")
    assert data.primary_judge == "A"
    assert data.judge_scores == {"A": {"g0": 40.0}, "B": {"g0": 90.0}}  # both validated on the pick
    assert data.generation_judge_scores == {"A": A_TOTALS}  # RQ5's inter-judge rank: A only


def test_the_rule_on_postgresql(pg_database: Callable[[str], AbstractContextManager[str]]) -> None:
    with pg_database("benger_valonly") as url:
        store = _store(url, reviewed=("g0",))
        try:
            assert validation_only_judges(store) == {("B", "hB", RUBRIC)}
            assert _rows(leaderboard_from_store(store, ci="normal")) == [("A", 3, 60.0)]
            assert _rows(leaderboard_from_store(store, ci="normal", judges=["B"])) == [("B", 1, 90.0)]
        finally:
            store.close()
