"""Issue 24 item 2 for RQ3 and RQ4 (and RQ2's pooled groups): a new study (a store) resamples whole tasks, as the
leaderboard does; ``reproduce`` (release data) keeps the paper's per-generation rule and says so in each block's
``method``.

The data repeat each task's generation (identical outputs): per-generation resampling then counts every
repetition as new evidence and its interval shrinks; the task-level interval is the one of the distinct tasks,
checked against the exact bootstrap distribution enumerated over every resample of the tasks.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from benger.analysis._data import GenScore, HumanAnnotation, ReviewRow, Solution, StudyData, SystemMeta
from benger.analysis._rq34 import cocreation, metric_validity, metric_vs_human
from benger.stats import bootstrap_diff_ci, bootstrap_pearson_ci, bootstrap_tost, cluster_bootstrap_mean_ci, named_rng

DIMS = {"ergebnisrichtigkeit": 10.0}
# five tasks: one metric value and one judge raw each
METRIC = [0.10, 0.25, 0.30, 0.55, 0.60]
RAW = [35.0, 30.0, 52.0, 48.0, 71.0]
REPS = 4


def _exact_percentiles(stat: object, points: int) -> tuple[float, float]:
    """The 2.5 / 97.5 percentiles of a statistic over all ``points ** points`` resamples of the tasks (each
    equally likely: the exact bootstrap distribution), resamples where it is undefined (None) left out."""
    values = [v for idx in itertools.product(range(points), repeat=points) if (v := stat(list(idx))) is not None]  # type: ignore[operator]
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


def _r(idx: list[int]) -> float | None:
    x, y = np.array(METRIC)[idx], np.array(RAW)[idx]
    return None if np.ptp(x) == 0 or np.ptp(y) == 0 else float(np.corrcoef(x, y)[0, 1])


def _width(low: float | None, high: float | None) -> float:
    assert low is not None and high is not None
    return high - low


def test_task_level_pearson_interval_is_the_exact_one_and_per_generation_is_too_narrow() -> None:
    x, y = [v for v in METRIC for _ in range(REPS)], [v for v in RAW for _ in range(REPS)]
    tasks = [f"t{i}" for i in range(len(METRIC)) for _ in range(REPS)]
    exact = _exact_percentiles(_r, len(METRIC))
    r, low, high = bootstrap_pearson_ci(x, y, clusters=tasks, n_resamples=40_000, seed=5)
    assert r == pytest.approx(float(np.corrcoef(METRIC, RAW)[0, 1]))
    assert (low, high) == pytest.approx(exact, abs=0.02)
    # the repetitions add nothing: the same interval as one generation per task, to the last digits
    one = bootstrap_pearson_ci(METRIC, RAW, clusters=[f"t{i}" for i in range(5)], n_resamples=40_000, seed=5)
    assert (low, high) == pytest.approx(one[1:], abs=1e-12)
    _, iid_low, iid_high = bootstrap_pearson_ci(x, y, n_resamples=40_000, seed=5)
    assert _width(iid_low, iid_high) < 0.6 * (exact[1] - exact[0])  # per generation: visibly too narrow


def _study(unit: str, **kwargs: object) -> StudyData:
    base: dict[str, object] = {
        "systems": {"a": SystemMeta("a", "A", "flagship", None, None)},
        "task_areas": {f"t{i}": "Zivilrecht" for i in range(5)},
        "generations": [],
        "solutions": {},
        "reviews": [],
        "judge_scores": {"j": {}},
        "judge_labels": {"j": "J"},
        "primary_judge": "j",
        "resampling_unit": unit,
    }
    base.update(kwargs)
    return StudyData(**base)  # type: ignore[arg-type]


def _repeated_generations() -> tuple[list[GenScore], dict[str, dict[str, float]]]:
    gens, metric = [], {}
    for i, (m, raw) in enumerate(zip(METRIC, RAW, strict=True)):
        for k in range(REPS):
            gid = f"g{i}-{k}"
            gens.append(GenScore(gid, "a", f"t{i}", raw, dict(DIMS)))
            metric[gid] = m
    return gens, {"coherence": metric}


def test_rq3_per_generation_r_has_a_task_interval_in_a_new_study_only() -> None:
    gens, metrics = _repeated_generations()
    new = metric_validity(_study("task", generations=gens, metrics=metrics), seed=2, n_boot=4000)["per_generation"]
    cell = new["metrics"]["coherence"]
    x, y = [metrics["coherence"][g.generation_id] for g in gens], [g.raw for g in gens]
    tasks = [g.task_id for g in gens]
    expected = bootstrap_pearson_ci(x, y, clusters=tasks, n_resamples=4000, seed=named_rng(2, "rq3.per_generation",
                                                                                           "coherence"))  # fmt: skip
    assert (cell["n"], cell["n_tasks"], cell["low"], cell["high"]) == (20, 5, expected[1], expected[2])
    assert (cell["low"], cell["high"]) == pytest.approx(_exact_percentiles(_r, 5), abs=0.03)
    assert "the task" in new["method"] and new["inputs"]["resampling_unit"] == "task"
    paper = metric_validity(_study("generation", generations=gens, metrics=metrics), n_boot=100)["per_generation"]
    assert "low" not in paper["metrics"]["coherence"] and "no interval, as the paper" in paper["method"]
    assert paper["metrics"]["coherence"]["pearson"] == cell["pearson"]


def _reviewed(unit: str) -> StudyData:
    """Each task has REPS solutions with the same metric value and the same blind raw (30, 35, 40 by grader)."""
    sols, reviews, metric, pos = {}, [], {}, 0
    for i, (m, raw) in enumerate(zip(METRIC, RAW, strict=True)):
        for k in range(REPS):
            sid = f"h{i}-{k}"
            sols[sid] = Solution(sid, "human", "human_traditional", f"t{i}", "Zivilrecht", f"p{k}")
            metric[sid] = m
            for g, shift in (("g1", -5.0), ("g2", 0.0), ("g3", 5.0)):
                reviews.append(ReviewRow(sid, g, "blind", raw + shift, 4, True, dict(DIMS), pos))
                pos += 1
    return _study(unit, solutions=sols, reviews=reviews, solution_metrics={"coherence": metric})


def test_rq3_metric_vs_human_resamples_tasks_in_a_new_study_and_solutions_in_reproduce() -> None:
    exact = _exact_percentiles(_r, 5)
    new = metric_vs_human(_reviewed("task"), seed=1, n_boot=20_000)
    cell = new["metrics"]["coherence"]["human_authored"]
    assert (cell["low"], cell["high"]) == pytest.approx(exact, abs=0.03)
    assert "the task" in new["method"] and new["inputs"]["resampling_unit"] == "task"
    paper = metric_vs_human(_reviewed("generation"), seed=1, n_boot=20_000)
    per_solution = paper["metrics"]["coherence"]["human_authored"]
    assert _width(per_solution["low"], per_solution["high"]) < 0.6 * (exact[1] - exact[0])
    assert "the paper's rule" in paper["method"] and paper["inputs"]["resampling_unit"] == "solution"


def _mean(idx: list[int]) -> float:
    return float(np.mean(np.array(RAW)[idx]))


def test_rq4_ai_groups_and_arms_resample_tasks_in_a_new_study() -> None:
    gens, _ = _repeated_generations()
    anns = [
        HumanAnnotation(f"x{i}-{k}", cond, f"p{k}", f"t{i}", "Zivilrecht", raw + (10.0 if cond == "co_creation" else 0))
        for i, raw in enumerate(RAW)
        for k in range(REPS)
        for cond in ("traditional", "co_creation")
    ]
    exact = _exact_percentiles(_mean, 5)
    new = cocreation(_study("task", generations=gens, annotations=anns), seed=3, n_boot=20_000)
    pooled = new["ai"]["pooled"]
    assert (pooled["n"], pooled["n_tasks"], pooled["mean"]) == (20, 5, pytest.approx(float(np.mean(RAW))))
    assert (pooled["low"], pooled["high"]) == pytest.approx(exact, abs=0.5)
    trad = new["judge"]["arms"]["traditional"]
    assert (trad["low"], trad["high"]) == pytest.approx(exact, abs=0.5)  # the same five task means
    co = new["judge"]["arms"]["co_creation"]
    assert (co["low"], co["high"]) == pytest.approx((exact[0] + 10, exact[1] + 10), abs=0.5)
    assert "the task" in new["method"] and new["inputs"]["resampling_unit"] == "task"
    paper = cocreation(_study("generation", generations=gens, annotations=anns), seed=3, n_boot=20_000)
    narrow = paper["ai"]["pooled"]
    assert "n_tasks" not in narrow and _width(narrow["low"], narrow["high"]) < 0.6 * (exact[1] - exact[0])
    assert "the paper's rule" in paper["method"]


def test_rq4_tost_and_areas_resample_tasks_in_a_new_study() -> None:
    gens, _ = _repeated_generations()
    anns = [
        HumanAnnotation(f"x{i}-{k}", cond, f"p{k}", f"t{i}", "Zivilrecht", raw + (3.0 if cond == "co_creation" else 0))
        for i, raw in enumerate(RAW)
        for k in range(REPS)
        for cond in ("traditional", "co_creation")
    ]
    new = cocreation(_study("task", generations=gens, annotations=anns), seed=4, n_boot=20_000)["judge"]
    tost = new["tost_vs_flagship"]
    assert (tost["a_n"], tost["b_n"], tost["delta"]) == (20, 20, pytest.approx(3.0))
    # exact: co-creation's task means are RAW + 3, the flagship's RAW; each arm's 5 ** 5 task resamples are
    # equally likely and independent, so the difference's distribution is every pair of the two arms' means
    means = np.array([_mean(list(idx)) for idx in itertools.product(range(5), repeat=5)])
    exact = np.percentile(np.subtract.outer(means + 3.0, means).ravel(), [5, 95])
    assert (tost["low90"], tost["high90"]) == pytest.approx(tuple(exact), abs=0.6)
    co = [a for a in anns if a.condition == "co_creation"]
    iid = bootstrap_tost([a.judge_raw or 0.0 for a in co], [g.raw for g in gens], margin=5.0, seed=0)
    assert _width(iid.low, iid.high) < 0.6 * float(exact[1] - exact[0])  # per value: visibly too narrow
    area = new["by_area"]["Zivilrecht"]  # every task in one area: the same two arms, 95 % over whole tasks
    assert area["delta"] == pytest.approx(3.0)
    assert new["iid"] is None  # not computed in a new study: the headline is the task cluster
    trad = [a.judge_raw or 0.0 for a in anns if a.condition == "traditional"]
    iid_delta = bootstrap_diff_ci([a.judge_raw or 0.0 for a in co], trad, seed=0)
    assert _width(area["low"], area["high"]) > 1.5 * _width(iid_delta.low, iid_delta.high)


def _two_arm_study(unit: str) -> StudyData:
    """5 tasks x 4 participants per arm (co-creation = traditional + 10 raw), and per task one blind-reviewed
    solution per arm (co-creation +6 raw, three graders at -5 / 0 / +5)."""
    gens, _ = _repeated_generations()
    anns = [
        HumanAnnotation(f"x{i}-{k}-{c}", c, f"p{k}", f"t{i}", "Zivilrecht", raw + (10.0 if c == "co_creation" else 0))
        for i, raw in enumerate(RAW)
        for k in range(REPS)
        for c in ("traditional", "co_creation")
    ]
    sols, reviews = {}, []
    for i, raw in enumerate(RAW):
        for kind, shift in (("traditional", 0.0), ("co_creation", 6.0)):
            sid = f"h{i}-{kind}"
            sols[sid] = Solution(sid, "human", f"human_{kind}", f"t{i}", "Zivilrecht", f"q{i}")
            for g, d in (("g1", -5.0), ("g2", 0.0), ("g3", 5.0)):
                reviews.append(ReviewRow(sid, g, "blind", raw + shift + d, 4, True, dict(DIMS), len(reviews)))
    return _study(unit, generations=gens, annotations=anns, solutions=sols, reviews=reviews)


@pytest.mark.parametrize(
    ("unit", "headline", "labels"),
    [
        # a new study (a store): the task cluster is quoted; no iid interval is computed
        ("task", "task_cluster", ["Participant cluster (robustness)", "Task cluster (headline)"]),
        # reproduce: the paper's body and Table 10 quote the participant cluster; iid is a robustness row
        ("generation", "participant_cluster",
         ["i.i.d. annotation (robustness)", "Participant cluster (headline)", "Task cluster (robustness)"]),
    ],
)  # fmt: skip
def test_rq4_names_its_headline_interval_per_block(unit: str, headline: str, labels: list[str]) -> None:
    from benger.analysis.results._models import CoCreation
    from benger.report._model import Table
    from benger.report._tables import rq4_table

    rq4 = cocreation(_two_arm_study(unit), seed=6, n_boot=2000)
    assert rq4["source"] == "per_annotation" and rq4["judge_picks"] is None
    judge, blind = rq4["judge"], rq4["blind_human"]
    assert (judge["delta"], blind["delta"]) == (pytest.approx(10.0), pytest.approx(6.0))
    for effect in (judge, blind):
        assert effect["headline"] == headline
        low, high = effect[headline]["low"], effect[headline]["high"]
        assert low is not None and high is not None and low <= effect["delta"] <= high
        assert (effect["iid"] is None) == (unit == "task")
    assert f"headline interval: the {headline.replace('_', '-')} one" in rq4["method"]
    table = rq4_table(CoCreation.model_validate(rq4))
    assert isinstance(table, Table)
    judge_rows = [r[0] for r in table.rows[: len(labels)]]  # the judge block's rows, paired last
    assert judge_rows == labels
    assert table.group_rows == {0: "LLM judge (all human annotations)", len(labels) + 1: "Blind human reviewers "
                                "(validation picks)"}  # fmt: skip
    assert sum("(headline)" in str(r[0]) for r in table.rows) == 2  # one per block


def test_cluster_mean_interval_of_repeated_tasks_equals_one_per_task() -> None:
    """The cluster bootstrap the RQ4 groups use: 4 identical repetitions give the interval of 1 (same seed)."""
    four = cluster_bootstrap_mean_ci([v for v in RAW for _ in range(REPS)],
                                     [f"t{i}" for i in range(5) for _ in range(REPS)], seed=9)  # fmt: skip
    one = cluster_bootstrap_mean_ci(RAW, [f"t{i}" for i in range(5)], seed=9)
    assert (four.low, four.high) == pytest.approx((one.low, one.high), abs=1e-9)


def test_rq2_group_means_and_gaps_resample_tasks_in_a_new_study() -> None:
    """RQ2's Benchathon groups pool generations: in a new study whole tasks are resampled (the same five task
    means whatever the repetitions), in reproduce each generation (the paper's rule)."""
    from benger.analysis._rq12 import group_aggregates

    flagship, _ = _repeated_generations()
    open_ref = [GenScore(f"b{g.generation_id}", "b", g.task_id, g.raw - 10.0, dict(DIMS)) for g in flagship]
    systems = {"a": SystemMeta("a", "A", "flagship", "P", "closed"), "b": SystemMeta("b", "B", "open_reference", "Q",
                                                                                     "open")}  # fmt: skip
    exact = _exact_percentiles(_mean, 5)
    means = np.array([_mean(list(idx)) for idx in itertools.product(range(5), repeat=5)])
    exact_gap = np.percentile(np.subtract.outer(means, means).ravel() + 10.0, [2.5, 97.5])
    new = group_aggregates(_study("task", systems=systems, generations=flagship + open_ref), seed=1, n_boot=20_000)
    cell = new["benchathon"]["by_tier"]["flagship"]
    assert (cell["n"], cell["mean"]) == (20, pytest.approx(float(np.mean(RAW))))
    assert (cell["low"], cell["high"]) == pytest.approx(exact, abs=0.5)
    gap = new["gap_ci"]["benchathon"]["flagship_minus_open_reference"]
    assert gap["estimate"] == pytest.approx(10.0)
    assert (gap["low"], gap["high"]) == pytest.approx(tuple(exact_gap), abs=0.6)
    assert "whole tasks" in new["method"] and new["inputs"]["resampling_unit"] == "task"
    paper = group_aggregates(_study("generation", systems=systems, generations=flagship + open_ref), n_boot=20_000)
    narrow = paper["benchathon"]["by_tier"]["flagship"]
    assert _width(narrow["low"], narrow["high"]) < 0.6 * (exact[1] - exact[0]) and "paper's rule" in paper["method"]
