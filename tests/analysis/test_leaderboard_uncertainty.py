"""Issue 24 on the leaderboard: the task is the resampling unit, no interval below n = 3, proportions get Wilson
intervals, a row without a score is never ranked, every CI method is selectable."""

from __future__ import annotations

import pytest

from benger.analysis.leaderboard import LeaderboardContext, leaderboard
from benger.schema import FalloesungTask, Generation, Judgement, PrincipleItem
from benger.stats import best_method, proportion_ci, t_mean_ci

SCORES = [40.0, 55.0, 62.0, 70.0, 48.0, 81.0, 66.0, 59.0, 73.0, 52.0, 45.0, 68.0, 77.0, 61.0, 57.0]


def _tasks(n: int = 15) -> dict[str, FalloesungTask | PrincipleItem]:
    return {f"t{i:02d}": FalloesungTask(task_id=f"t{i:02d}", corpus="fall", area="Zivilrecht", facts="SV",
                                        reference="ML") for i in range(n)}  # fmt: skip


def _records(repetitions: int, scores: list[float] = SCORES) -> tuple[list[Generation], list[Judgement]]:
    """Each task's ``repetitions`` generations get the same score (identical outputs)."""
    gens, judgements = [], []
    for i, score in enumerate(scores):
        for r in range(repetitions):
            gid = f"g{i:02d}-{r}"
            gens.append(Generation(generation_id=gid, task_id=f"t{i:02d}", system="S", config_hash="h", text="x"))
            judgements.append(Judgement(judgement_id=f"{gid}-j", target_kind="generation", target_id=gid, judge="J",
                                        judge_config_hash="jh", rubric_id="r@1", repeat_index=0, status="scored",
                                        total=score, grade_points=int(score // 6), passed=score >= 50))  # fmt: skip
    return gens, judgements


@pytest.mark.parametrize("ci", ["t", "normal", "percentile", "bca", "auto"])
def test_four_identical_repetitions_give_the_interval_of_one(ci: str) -> None:
    """Before: with repetitions: 4 the 95 % interval shrank from ±4.1 to ±1.7 points (each repetition a task)."""
    one = leaderboard(*_records(1), _tasks(), ci=ci, seed=3).rows[0]
    four = leaderboard(*_records(4), _tasks(), ci=ci, seed=3).rows[0]
    assert (one.n, four.n, one.tasks, four.tasks) == (15, 60, 15, 15)
    assert four.mean == pytest.approx(one.mean)
    assert one.ci_low is not None and one.ci_high is not None and four.ci_low is not None
    tolerance = 1e-9 if ci in ("t", "normal") else 1.0  # resampling: the same up to Monte-Carlo (task order)
    assert four.ci_low == pytest.approx(one.ci_low, abs=tolerance)
    assert four.ci_high == pytest.approx(one.ci_high, abs=tolerance)
    # the Wilson interval of the pass rate is over the 15 tasks, not the 60 generations
    assert (four.pass_ci_low, four.pass_ci_high) == pytest.approx((one.pass_ci_low, one.pass_ci_high))


def test_t_interval_by_hand_and_the_per_generation_rule() -> None:
    row = leaderboard(*_records(1), _tasks(), ci="t").rows[0]
    expected = t_mean_ci(SCORES, bounds=(0.0, 100.0))
    assert (row.ci_low, row.ci_high, row.ci_kind) == (pytest.approx(expected.low), pytest.approx(expected.high), "t")
    # the paper's rule (every generation a unit) is still there, and named
    board = leaderboard(*_records(4), _tasks(), LeaderboardContext.of(ci="t", unit="generation"))
    narrow = t_mean_ci([s for s in SCORES for _ in range(4)], bounds=(0.0, 100.0))
    assert board.rows[0].ci_low == pytest.approx(narrow.low) and "the generation (the paper's rule)" in board.ci_method
    assert "the task" in leaderboard(*_records(1), _tasks()).ci_method


def test_auto_picks_the_method_closest_to_95_percent() -> None:
    row = leaderboard(*_records(1), _tasks()).rows[0]
    assert row.ci_kind == best_method(15) == "t"  # benchmarks/ci_coverage.py: t covers 0.943 at n = 15
    assert best_method(600) == "bca" and best_method(12) == "t"


def test_no_interval_below_three_and_no_zero_width_interval() -> None:
    """Before: two equal scores printed "[95.0, 95.0]"."""
    gens, judgements = _records(1, [95.0, 95.0])
    row = leaderboard(gens, judgements, _tasks(2), ci="percentile").rows[0]
    assert (row.mean, row.ci_low, row.ci_high, row.pass_ci_low) == (95.0, None, None, None)
    assert "| 95.0 | no interval (n < 3) |" in leaderboard(gens, judgements, _tasks(2)).to_markdown()


@pytest.mark.parametrize("ci", ["t", "normal", "percentile", "bca", "auto"])
@pytest.mark.parametrize(
    ("scores", "repetitions", "interval"),
    [([95.0], 1, False), ([40.0, 65.0], 1, False), ([40.0, 65.0], 4, False), ([40.0, 65.0, 70.0], 1, True)],
)
def test_a_row_without_an_interval_names_no_method(
    ci: str, scores: list[float], repetitions: int, interval: bool
) -> None:
    """Issue 24: fewer than 3 units (tasks; 2 tasks x 4 repetitions is 2 units) compute no interval, so the CSV's
    ci_method and the Markdown cell say "no interval (n < 3)" instead of the method that did not run."""
    import csv
    import io

    board = leaderboard(*_records(repetitions, scores), _tasks(len(scores)), ci=ci)
    (row,) = list(csv.DictReader(io.StringIO(board.to_csv())))
    markdown = board.to_markdown()
    if interval:
        assert row["ci_low"] != "" and row["ci_method"] == board.ci_method and "no interval (n < 3) |" not in markdown
        assert row["ci_kind"] in ("t", "normal", "percentile", "bca")
    else:
        assert (row["ci_low"], row["ci_high"], row["ci_kind"]) == ("", "", "")
        assert row["ci_method"] == "no interval (n < 3)"
        for method in ("bootstrap", "interval mean", "Student", "BCa"):
            assert method not in row["ci_method"]
        assert "| no interval (n < 3) |" in markdown


def test_accuracy_of_ten_items_has_its_binomial_interval() -> None:
    """Before: 70 % on 10 Ja/Nein items was printed without an interval (Wilson 95 %: [39.7 %, 89.2 %])."""
    tasks: dict[str, FalloesungTask | PrincipleItem] = {
        f"p{i}": PrincipleItem(task_id=f"p{i}", corpus="gp", area="Strafrecht", case="Fall", question="Frage?",
                               gold_answer="Ja", gold_reasoning="weil") for i in range(10)
    }  # fmt: skip
    gens = [Generation(generation_id=f"g{i}", task_id=f"p{i}", system="S", config_hash="h", text="x",
                       answer="Ja" if i < 7 else "Nein") for i in range(10)]  # fmt: skip
    row = leaderboard(gens, [], tasks).rows[0]
    assert row.accuracy == pytest.approx(0.7)
    assert (row.accuracy_ci_low, row.accuracy_ci_high) == pytest.approx((0.39678, 0.89221), abs=1e-5)
    cp = proportion_ci(7, 10, method="clopper-pearson")
    assert (cp.low, cp.high) == pytest.approx((0.34755, 0.93326), abs=1e-5)  # scipy binomtest(7, 10) "exact"


def test_a_row_without_a_score_is_never_ranked() -> None:
    """Before: a judge whose every judgement was unscored gave an n = 0 row ranked 1."""
    gens, _ = _records(1, [50.0, 60.0, 70.0])
    unscored = [Judgement(judgement_id=f"{g.generation_id}-u", target_kind="generation", target_id=g.generation_id,
                          judge="J", judge_config_hash="jh", rubric_id="r@1", repeat_index=0, status="unscored",
                          reason="no JSON") for g in gens]  # fmt: skip
    board = leaderboard(gens, unscored, _tasks(3))
    (row,) = board.rows
    assert (row.n, row.rank, row.unscored) == (0, None, 3) and board.ranking == []


def test_unknown_leaderboard_option_is_refused() -> None:
    with pytest.raises(TypeError, match="unknown leaderboard option"):
        LeaderboardContext.of(sed=1)
    assert LeaderboardContext.of(ci="bca", seed=4, corpora=[]).model_dump()["ci"]["seed"] == 4
