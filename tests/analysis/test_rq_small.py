"""RQ3 / RQ4 on hand-made StudyData (issue 14 items 4-5, issue 10 obs. 6): hand-computed expected values."""

from __future__ import annotations

import pytest

from benger.analysis._data import GenScore, HumanAnnotation, ReviewRow, Solution, StudyData, SystemMeta
from benger.analysis._rq34 import cocreation, metric_validity, metric_vs_human

DIMS = {"ergebnisrichtigkeit": 10.0}


def _study(**kwargs: object) -> StudyData:
    base: dict[str, object] = {
        "systems": {s: SystemMeta(s, s.upper(), None, None, None) for s in ("a", "b", "c")},
        "task_areas": {"t1": "Zivilrecht", "t2": "Strafrecht"},
        "generations": [],
        "solutions": {},
        "reviews": [],
        "judge_scores": {"j": {}},
        "judge_labels": {"j": "J"},
        "primary_judge": "j",
    }
    base.update(kwargs)
    return StudyData(**base)  # type: ignore[arg-type]


def test_rq3_system_level_judge_mean_uses_all_generations() -> None:
    # a: raws 40, 80 (mean 60), metric only on a1 (0.2); b: 50, 50 / 0.5, 0.5; c: 70, 90 (80) / 0.8, 0.8.
    # metric means (0.2, 0.5, 0.8) vs judge means over ALL generations (60, 50, 80):
    #   dx = (-0.3, 0, 0.3), dy = (-3.333, -13.333, 16.667): sxy = 1 + 5 = 6, sxx = 0.18, syy = 466.667
    #   r = 6 / sqrt(84) = 0.654654; ranks (1, 2, 3) vs (2, 1, 3): rho = 0.5
    # before: the judge mean of a counted only a1 (40): r = 12 / sqrt(156) = 0.960769, rho = 1
    raws = {"a1": ("a", 40.0), "a2": ("a", 80.0), "b1": ("b", 50.0), "b2": ("b", 50.0), "c1": ("c", 70.0)}
    raws["c2"] = ("c", 90.0)
    gens = [GenScore(gid, sys, "t1", raw, dict(DIMS)) for gid, (sys, raw) in raws.items()]
    metric = {"a1": 0.2, "b1": 0.5, "b2": 0.5, "c1": 0.8, "c2": 0.8}
    data = _study(generations=gens, metrics={"coherence": metric})
    out = metric_validity(data, n_boot=50)
    sys_level = out["per_system"]["metrics"]["coherence"]
    assert sys_level["pearson"] == pytest.approx(6 / 84**0.5, abs=1e-9)
    assert sys_level["spearman"] == pytest.approx(0.5)
    assert out["per_generation"]["metrics"]["coherence"]["n"] == 5


def _reviewed_study(metrics: dict[str, dict[str, float]]) -> StudyData:
    sols, reviews, pos = {}, [], 0
    for i in range(6):
        sid = f"h{i}"
        sols[sid] = Solution(sid, "human", "human_traditional", "t1", "Zivilrecht", f"p{i}")
        for g, raw in (("g1", 40.0 + 7 * i), ("g2", 45.0 + 5 * i), ("g3", 30.0 + 9 * (i % 4))):
            reviews.append(ReviewRow(sid, g, "blind", raw, 4, True, dict(DIMS), pos))
            pos += 1
    return _study(solutions=sols, reviews=reviews, solution_metrics=metrics)


def test_rq3_bootstrap_seed_follows_the_metric_name_not_its_position() -> None:
    # before: cell seed = seed + 100 * (position in the sorted metric list): dropping "a_metric" moved "b_metric"
    # to position 0 and changed its interval
    a = {f"h{i}": v for i, v in enumerate([0.1, 0.5, 0.2, 0.9, 0.4, 0.3])}
    b = {f"h{i}": v for i, v in enumerate([0.3, 0.35, 0.5, 0.45, 0.7, 0.8])}
    both = metric_vs_human(_reviewed_study({"a_metric": a, "b_metric": b}), seed=3, n_boot=300)
    alone = metric_vs_human(_reviewed_study({"b_metric": b}), seed=3, n_boot=300)
    assert alone["metrics"]["b_metric"] == both["metrics"]["b_metric"]
    cell = both["metrics"]["b_metric"]["human_authored"]
    assert cell["low"] is not None and cell["low"] < cell["pearson"] < cell["high"]
    # a different run seed changes the stream
    other = metric_vs_human(_reviewed_study({"b_metric": b}), seed=4, n_boot=300)
    assert other["metrics"]["b_metric"]["human_authored"]["low"] != cell["low"]


def test_rq4_per_area_table_has_per_arm_means() -> None:
    # Zivilrecht: traditional 40, 50 (45) vs co-creation 60, 70, 80 (70): delta 25
    # Strafrecht: traditional 30, 34 (32) vs co-creation 50, 52 (51): delta 19
    rows = [
        ("Zivilrecht", "traditional", [40.0, 50.0]),
        ("Zivilrecht", "co_creation", [60.0, 70.0, 80.0]),
        ("Strafrecht", "traditional", [30.0, 34.0]),
        ("Strafrecht", "co_creation", [50.0, 52.0]),
    ]
    anns, k = [], 0
    for area, cond, values in rows:
        for v in values:
            anns.append(HumanAnnotation(f"x{k}", cond, f"p{k % 4}", f"t{k % 3}", area, v))
            k += 1
    out = cocreation(_study(annotations=anns), n_boot=100)
    by_area = out["judge"]["by_area"]
    assert by_area["Zivilrecht"]["mean"] == {"traditional": 45.0, "co_creation": 70.0}
    assert by_area["Strafrecht"]["mean"] == {"traditional": 32.0, "co_creation": 51.0}
    assert (by_area["Zivilrecht"]["delta"], by_area["Strafrecht"]["delta"]) == (25.0, 19.0)
