"""analyze at 256k generations (issue 26): the one-pass judgement views, the board computed before the study's
rows and Appendix A's cells bootstrapped in threads give the numbers of the straightforward computation."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from tests.analysis.test_study_data import _store_with_two_signatures_and_repeats, _synthetic

from benger.analysis import StudyData, leaderboard_from_store
from benger.analysis import _appendix_a as appendix
from benger.analysis._from_store_judgements import judgement_views, primary_config, repeat_means
from benger.store._aggregate import JudgementColumns

KEY = ("J", "jh", "r@1")


def _judgements() -> list[JudgementColumns]:
    """Repeats (a mean of three, one of -0.0), another configuration and judge, a validation-only
    configuration, a reviewed generation and a human solution, in the store's order (target, judge, repeat)."""
    j = JudgementColumns
    return [
        j("generation", "g1", "J", "jh", "r@1", 0, 40.1),
        j("generation", "g1", "J", "jh", "r@1", 1, 60.2),
        j("generation", "g1", "J", "jh", "r@1", 2, 70.3),
        j("generation", "g1", "J", "other", "r@1", 0, 0.0),
        j("generation", "g1", "K", "kh", "r@1", 0, 55.0),
        j("generation", "g2", "J", "jh", "r@1", 0, -0.0),
        j("generation", "g2", "V", "vh", "r@1", 0, 90.0),
        j("generation", "g3", "J", "jh", "r@1", 1, 30.0),  # a repeat without a first pass
        j("generation", "x9", "J", "jh", "r@1", 0, 10.0),  # another corpus's generation
        j("human_solution", "h1", "J", "jh", "r@1", 0, 66.0),
        j("human_solution", "h2", "J", "jh", "r@1", 0, 33.0),
        j("human_solution", "h2", "K", "kh", "own@1", 0, 44.0),
    ]


def _views_by_loop(judgements: list[JudgementColumns], gens: set[str], solutions: set[str]) -> dict[str, Any]:
    """Each view in its own loop, as study_from_store computed them before issue 26."""
    means = repeat_means(judgements, KEY)
    first, repeats = set(), defaultdict(list)
    for j in judgements:
        if (j.judge, j.judge_config_hash, j.rubric_id) == KEY and j.target_id in gens:
            (first.add(j.target_id) if j.repeat_index == 0 else repeats[j.target_id].append(float(j.total or 0.0)))
    judge_scores: dict[str, dict[str, float]] = defaultdict(dict)
    per_generation: dict[str, dict[str, float]] = defaultdict(dict)
    for j in judgements:
        if j.repeat_index == 0 and j.target_id in solutions:
            judge_scores[j.judge][j.target_id] = float(j.total or 0.0)
        if (
            j.repeat_index == 0
            and j.target_id in gens
            and (j.judge, j.judge_config_hash, j.rubric_id) != ("V", "vh", "r@1")
        ):
            per_generation[j.judge][j.target_id] = float(j.total or 0.0)
    judged: dict[str, set[str]] = defaultdict(set)
    for j in judgements:
        if j.target_id in solutions:
            judged[j.target_id].add(j.rubric_id)
    return {
        "means": {t: means[t] for t in gens if t in means},
        "first": first,
        "repeats": dict(repeats),
        "judge_scores": dict(judge_scores),
        "per_generation": dict(per_generation),
        "primary_human": {
            j.target_id: float(j.total or 0.0)
            for j in judgements
            if j.judge == "J" and j.repeat_index == 0 and j.target_kind == "human_solution"
        },
        "judged_rubrics": dict(judged),
        "n_judgements": sum(1 for j in judgements if j.target_id in gens or j.target_id in solutions),
    }


def test_one_pass_views_are_the_views_of_one_loop_each() -> None:
    judgements, gens, solutions = _judgements(), {"g1", "g2", "g3"}, {"g1", "h2"}
    assert primary_config(judgements, gens, None) == KEY
    views = judgement_views(judgements, KEY, "J", gens, solutions, {("V", "vh", "r@1")})
    expected = _views_by_loop(judgements, gens, solutions)
    got = {name: getattr(views, name) for name in expected}
    got = {k: dict(v) if isinstance(v, defaultdict) else v for k, v in got.items()}
    assert got == expected
    # the same bits and key order: sum / len of three repeats, -0.0 as sum() gives it (0.0)
    assert repr(views.means["g1"]) == repr(sum([40.1, 60.2, 70.3]) / 3)
    assert repr(views.means["g2"]) == "0.0" and repr(repeat_means(judgements, KEY)["g2"]) == "0.0"
    assert list(views.per_generation) == ["J", "K"] and list(views.judge_scores) == ["J", "K"]
    assert views.n_judgements == 10 and "x9" not in views.means


def test_the_board_computed_first_is_the_board_asked_for(tmp_path: Path) -> None:
    store = _store_with_two_signatures_and_repeats(tmp_path / "lb.db")
    options = {"ci": "auto", "seed": 7, "n_resamples": 300}
    data = StudyData.from_store(store, leaderboard_options=options)
    plain = StudyData.from_store(store)
    assert data.leaderboard is not None and plain.leaderboard is not None
    board = data.leaderboard(**options)
    assert board is data.leaderboard(**options)  # computed once, before the rows
    assert board == plain.leaderboard(**options) == leaderboard_from_store(store, **options)
    other = data.leaderboard(ci="normal", seed=7, n_resamples=300)  # any other call computes its own
    assert other is not board and other.ci_method != board.ci_method
    assert data.generations == plain.generations and data.generation_judge_scores == plain.generation_judge_scores
    store.close()


@pytest.mark.parametrize("workers", [1, 2, 4])
def test_appendix_a_cells_in_threads_are_the_serial_numbers(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    data = _synthetic()
    monkeypatch.setattr(appendix, "MAX_WORKERS", 1)
    serial = appendix.appendix_a(data, seed=3, n_boot=400)
    monkeypatch.setattr(appendix, "MAX_WORKERS", workers)
    monkeypatch.setattr(appendix.os, "cpu_count", lambda: 8)
    memo: appendix.CellMemo = {}
    threaded = appendix.appendix_a(data, seed=3, n_boot=400, memo=memo)
    assert threaded == serial and repr(threaded) == repr(serial)
    again = appendix.appendix_a(data, seed=3, n_boot=400, memo=memo)  # every cell from the memo
    assert again == serial and memo
    cells = [c for row in serial["table2"] for c in row.values() if isinstance(c, dict)]
    assert cells and all(c["low"] is None or c["low"] <= c["mean"] <= c["high"] for c in cells)
