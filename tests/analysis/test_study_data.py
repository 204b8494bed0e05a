"""StudyData from a store and from hand-made records: the analyses follow the data, not the release's names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benger.analysis import StudyData, compute_all
from benger.analysis._data import GenScore, ReviewRow, Solution, SystemMeta
from benger.analysis._rq5 import alt_tests, human_irr, inter_judge_rank, judge_vs_pool

DIMS = {"ergebnisrichtigkeit": 10.0}


def _review(sid: str, grader: str, raw: float, pos: int, role: str = "blind") -> ReviewRow:
    from benger.judge import grade_points

    gp = grade_points(raw)
    return ReviewRow(sid, grader, role, raw, gp, gp >= 4, dict(DIMS), pos)


def _synthetic() -> StudyData:
    """6 LLM solutions reviewed by raters r1..r3 (blind) and c1 (creator); two judges named j-a and j-b."""
    blind = {
        "s1": (40, 50, 60),
        "s2": (60, 70, 80),
        "s3": (20, 30, 40),
        "s4": (70, 70, 70),
        "s5": (50, 55, 60),
        "s6": (80, 85, 90),
    }
    reviews, pos = [], 0
    for sid, scores in blind.items():
        for grader, raw in zip(("r1", "r2", "r3"), scores, strict=True):
            reviews.append(_review(sid, grader, raw, pos))
            pos += 1
        reviews.append(_review(sid, "c1", float(sum(scores)) / 3 + 1, pos, "creator"))
        pos += 1
    means = {sid: sum(v) / 3 for sid, v in blind.items()}
    gens = [
        GenScore(sid, ("sys-x", "sys-y", "sys-z")[i % 3], f"t{i // 3}", means[sid], dict(DIMS))
        for i, sid in enumerate(blind)
    ]
    return StudyData(
        systems={
            "sys-x": SystemMeta("sys-x", "X", "flagship", "P1", "closed"),
            "sys-y": SystemMeta("sys-y", "Y", "open_reference", "P2", "open"),
            "sys-z": SystemMeta("sys-z", "Z", "efficiency", "P1", "closed"),
        },
        task_areas={"t0": "Zivilrecht", "t1": "Strafrecht", "t2": "Zivilrecht"},
        generations=gens,
        solutions={sid: Solution(sid, "llm", "llm_system", "t0", "Zivilrecht", "sys-x") for sid in blind},
        reviews=reviews,
        judge_scores={"j-a": dict(means), "j-b": {sid: m + 10 for sid, m in means.items()}},
        judge_labels={"j-a": "Judge A", "j-b": "Judge B"},
        primary_judge="j-a",
    )


def test_judge_equal_to_pool_mean() -> None:
    data = _synthetic()
    exact = judge_vs_pool(data, "j-a", "llm")
    assert exact is not None
    assert (exact["n"], exact["mae_raw"], exact["offset_raw"], exact["pearson"]) == (6, 0.0, 0.0, pytest.approx(1.0))
    shifted = judge_vs_pool(data, "j-b", "llm")
    assert shifted is not None
    # judge B = mean + 10 everywhere: offset 10, MAE 10, bias-corrected MAE 0, correlation still 1
    assert (shifted["offset_raw"], shifted["mae_raw"], shifted["mae_bias_corrected"]) == pytest.approx((10, 10, 0))
    assert human_irr(data)["pooled"]["n"] == 6


def test_compute_all_covers_every_judge_and_is_json() -> None:
    data = _synthetic()
    results = compute_all(data, seed=1, n_boot=100, n_stacked=10)
    json.dumps(results, allow_nan=False)
    assert set(results["rq5"]["alt_test"]) == {"j-a", "j-b"} == set(results["rq5"]["judge_vs_pool"])
    assert results["meta"]["judges"] == ["j-a", "j-b"]
    assert {r["judge"] for r in results["rq5"]["calibration"]["rows"]} == {"j-a", "j-b"}
    assert results["rq4"]["source"] == "unavailable"  # no human solutions in this data
    assert set(results["rq2"]["benchathon"]["by_tier"]) == {"flagship", "open_reference", "efficiency"}
    # every annotator has 6 instances (>= 5): m = 3 for both judges
    assert all(results["rq5"]["alt_test"][j]["llm"]["m_annotators"] == 3 for j in ("j-a", "j-b"))
    assert alt_tests(data)["j-a"]["llm"]["n_instances_total"] == 6


@pytest.mark.release
def test_from_store_matches_from_release(release_dir: Path, tmp_path: Path) -> None:
    from benger.corpora import load_release
    from benger.store import open_store

    store = open_store(tmp_path / "study.db")
    store.import_release(load_release(release_dir))
    data = StudyData.from_store(store)
    assert data.primary_judge == "gpt-5.4-mini"
    assert len(data.final_generations()) == 180 and len(data.reviews) == 180
    # the positional ICC needs the review order the store kept: the paper's 0.632677
    assert human_irr(data)["pooled"]["icc_2_1_raw"] == pytest.approx(0.632677, abs=5e-7)
    # the LLM picks' judge scores come from the stored primary-judge judgements (paper: r = 0.64 on LLM picks)
    llm = judge_vs_pool(data, "gpt-5.4-mini", "llm")
    assert llm is not None and llm["n"] == 15 and round(llm["pearson"], 2) == 0.64


def test_inter_judge_agreement_from_per_generation_scores() -> None:
    data = _synthetic()
    primary = {g.generation_id: g.raw for g in data.generations}
    # judge B = primary + 10 on every generation; judge C reverses the order of the per-system means
    data.generation_judge_scores = {
        "j-a": primary,
        "j-b": {k: v + 10 for k, v in primary.items()},
        "j-c": {k: 100 - v for k, v in primary.items()},
    }
    res = inter_judge_rank(data)
    assert res["source"] == "per_annotation" and res["n_cells"] == 6
    assert res["judges"]["j-b"]["spearman"] == pytest.approx(1.0)
    assert res["judges"]["j-c"]["spearman"] == pytest.approx(-1.0)
    assert res["judges"]["j-c"]["kendall"] == pytest.approx(-1.0)
    pair = res["pairwise"]["j-a__j-b"]
    assert (pair["n"], pair["mae"], pair["pearson"]) == (6, pytest.approx(10.0), pytest.approx(1.0))
