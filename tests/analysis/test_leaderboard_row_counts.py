"""A row's generation counts (attack finding 9): a judge with a case's own Bewertungsbogen has one row per rubric,
and each generation of the system x corpus is counted once per judge configuration, in the row of the rubric that
scored it, else (unjudged, failed, excluded) in the row of the corpus's main rubric, so that a judge's Unjdg column
and its rows' ``generations`` sum to the system's. Hand-computed counts, the store path and the records path."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from benger.analysis.leaderboard import Leaderboard, leaderboard, leaderboard_from_store, render
from benger.schema import Corpus, FalloesungTask, Generation, Judgement
from benger.store import open_store

U, B = "umlaut@1", "bogen-mm-03@1"  # the corpus rubric; case t3's own Bewertungsbogen
TASKS = [
    FalloesungTask(task_id=f"t{i}", corpus="faelle", area="Zivilrecht", facts="S", reference="R") for i in range(4)
]
# g0, g1 (t0, t1) scored by J under U; g2 (t2) judged by nobody; g3 (t3) scored by J under B; g4 failed, g5 excluded
GENERATIONS = [
    Generation(generation_id="g0", task_id="t0", system="S", config_hash="c", text="x"),
    Generation(generation_id="g1", task_id="t1", system="S", config_hash="c", text="x"),
    Generation(generation_id="g2", task_id="t2", system="S", config_hash="c", text="x"),
    Generation(generation_id="g3", task_id="t3", system="S", config_hash="c", text="x"),
    Generation(generation_id="g4", task_id="t0", system="S", config_hash="c", status="failed", reason="e", run_index=1),
    Generation(
        generation_id="g5", task_id="t1", system="S", config_hash="c", status="excluded", reason="r", run_index=1
    ),
]


def _judgements(status: str, with_k: bool) -> list[Judgement]:
    judged = [("J", "g0", U), ("J", "g1", U), ("J", "g3", B), *([("K", "g0", U), ("K", "g1", U)] if with_k else [])]
    return [
        Judgement(judgement_id=f"j{i}", target_kind="generation", target_id=gid, judge=judge,
                  judge_config_hash=f"h{judge}", rubric_id=rubric, status=status,
                  total=10.0 if status == "scored" else None, reason=None if status == "scored" else "unparseable")
        for i, (judge, gid, rubric) in enumerate(judged)
    ]  # fmt: skip


def _from_records(tmp_path: Path, judgements: list[Judgement]) -> Leaderboard:
    return leaderboard(GENERATIONS, judgements, {t.task_id: t for t in TASKS}, ci="normal")


def _from_store(tmp_path: Path, judgements: list[Judgement]) -> Leaderboard:
    store = open_store(tmp_path / "s.db")
    try:
        store.add_corpus(Corpus(name="faelle", tasks=TASKS))
        for g in GENERATIONS:
            store.save_generation(g)
        for j in judgements:
            store.save_judgement(j)
        return leaderboard_from_store(store, ci="normal")
    finally:
        store.close()


PATHS: dict[str, Callable[[Path, list[Judgement]], Leaderboard]] = {"records": _from_records, "store": _from_store}
# (judge, rubric) -> (n, generations, failed, excluded, unjudged)
CASES = {
    # J: U scored 2 of the 4 ok, B 1 -> U is main: unjudged 4 - 3 = 1 (g2), generations 6 - 1 (g3, in B's row) = 5
    "one-judge": ("scored", False, {("J", U): (2, 5, 1, 1, 1), ("J", B): (1, 1, 0, 0, 0)}),
    # K scored g0, g1 under U only: its one row holds all 6 generations, 2 of the 4 ok ones unjudged
    "two-judges": (
        "scored",
        True,
        {("J", U): (2, 5, 1, 1, 1), ("J", B): (1, 1, 0, 0, 0), ("K", U): (2, 6, 1, 1, 2)},
    ),
    # every judgement unscored (the attack's g.db): U has the more unscored judgements, so it holds all 4 ok ones
    "all-unscored": ("unscored", False, {("J", U): (0, 6, 1, 1, 4), ("J", B): (0, 0, 0, 0, 0)}),
}


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize("case", sorted(CASES))
def test_each_generation_is_counted_once_per_judge_configuration(tmp_path: Path, path: str, case: str) -> None:
    status, with_k, expected = CASES[case]
    board = PATHS[path](tmp_path, _judgements(status, with_k))
    got = {(r.judge, r.rubric): (r.n, r.generations, r.failed, r.excluded, r.unjudged) for r in board.rows}
    assert got == expected
    for judge in {j for j, _ in expected}:
        mine = [r for r in board.rows if r.judge == judge]
        assert sum(r.generations for r in mine) == len(GENERATIONS)
        assert sum(r.unjudged for r in mine) == 4 - sum(r.n for r in mine)  # ok generations it scored under none
    assert any(line.startswith("Fail, Excl, Unjdg (JSON: generations)") for line in render.provenance_lines(board))


def test_one_rubric_keeps_the_system_x_corpus_counts(tmp_path: Path) -> None:
    judgements = [j for j in _judgements("scored", True) if j.judge == "K"]
    board = _from_store(tmp_path, judgements)
    assert [(r.judge, r.generations, r.failed, r.excluded, r.unjudged) for r in board.rows] == [("K", 6, 1, 1, 2)]
    assert not any(line.startswith("Fail, Excl, Unjdg") for line in render.provenance_lines(board))
