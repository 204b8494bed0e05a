"""Reviews under a rubric without a grade table (grade points and pass None) in the analysis: the raw statistics
are computed, every grade-point and pass statistic is None (never a 0 or False read in its place). Hand values."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from benger.analysis._data import HumanAnnotation, ReviewRow, Solution, StudyData, SystemMeta
from benger.analysis._rq5 import human_irr, judge_vs_pool
from benger.analysis._rq12 import _human_rows
from benger.analysis.results._builtin import _krippendorff

# three LLM solutions, two blind reviewers each (raw points); the judge's raw totals
BLIND = {"s1": (40.0, 50.0), "s2": (60.0, 80.0), "s3": (20.0, 30.0)}
JUDGE = {"s1": 50.0, "s2": 60.0, "s3": 40.0}


def _study(graded: bool) -> StudyData:
    solutions = {s: Solution(s, "llm", "llm_system", "t1", "Zivilrecht", "sys") for s in BLIND}
    reviews, pos = [], 0
    for sid, raws in BLIND.items():
        for k, raw in enumerate(raws):
            grade, passed = (int(raw // 10), raw >= 50) if graded else (None, None)
            reviews.append(ReviewRow(sid, f"g{k + 1}", "blind", raw, grade, passed, {"a": raw}, pos))
            pos += 1
    return StudyData(
        systems={"sys": SystemMeta("sys", "SYS", None, None, None)},
        task_areas={"t1": "Zivilrecht"},
        generations=[],
        solutions=solutions,
        reviews=reviews,
        judge_scores={"j": dict(JUDGE)},
        judge_labels={"j": "J"},
        primary_judge="j",
    )


def test_judge_vs_pool_has_raw_statistics_and_no_grade_or_pass_ones() -> None:
    block = judge_vs_pool(_study(graded=False), "j", "llm")
    assert block is not None and block["n"] == 3
    # blind means 45, 70, 25; judge 50, 60, 40: differences 5, -10, 15
    assert block["mae_raw"] == pytest.approx(10.0)
    assert block["offset_raw"] == pytest.approx(10 / 3)
    assert block["mae_grade_points"] is None and block["offset_grade_points"] is None and block["kappa"] is None
    graded = judge_vs_pool(_study(graded=True), "j", "llm")
    assert graded is not None and graded["mae_grade_points"] is not None and graded["kappa"] is not None


def test_human_irr_grade_point_icc_is_none_raw_icc_is_computed() -> None:
    pooled = human_irr(_study(graded=False))["pooled"]
    assert pooled["icc_2_1_gp"] is None and pooled["icc_2_k_gp"] is None and pooled["spread_gp"] is None
    assert pooled["icc_2_1_raw"] is not None
    assert pooled["spread_raw"] == pytest.approx(np.mean([10.0, 20.0, 10.0]))
    assert human_irr(_study(graded=True))["pooled"]["icc_2_1_gp"] is not None


def test_krippendorff_grade_points_none_without_grades() -> None:
    ctx: Any = SimpleNamespace(data=_study(graded=False))
    out = _krippendorff(ctx)
    assert out["raw"] is not None and out["grade_points"] is None


@pytest.mark.parametrize(
    ("passes", "rate"),
    [((None, None), None), ((True, None), 1.0), ((True, False), 0.5)],
)
def test_human_pass_rate_counts_only_reviews_with_a_pass(passes: tuple[bool | None, ...], rate: float | None) -> None:
    solutions = {f"h{i}": Solution(f"h{i}", "human", "human_traditional", "t1", "Zivilrecht", f"p{i}") for i in (1, 2)}
    reviews = [ReviewRow(f"h{i + 1}", "g1", "blind", 50.0, None, p, {"a": 50.0}, i) for i, p in enumerate(passes)]
    anns = [HumanAnnotation(f"h{i}", "traditional", f"p{i}", "t1", "Zivilrecht", 50.0) for i in (1, 2)]
    data = StudyData(systems={}, task_areas={"t1": "Zivilrecht"}, generations=[], solutions=solutions,
                     reviews=reviews, judge_scores={"j": {}}, judge_labels={"j": "J"}, primary_judge="j",
                     annotations=anns)  # fmt: skip
    rows = {r["system"]: r["bench"] for r in _human_rows(data, np.random.default_rng(0), 50)}
    assert rows["human_traditional"]["human_pass_rate"] == rate
    assert rows["human_traditional"]["human_n_reviews"] == 2
