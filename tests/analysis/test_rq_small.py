"""RQ3 / RQ4 on hand-made StudyData (issue 14 items 4-5, issue 10 obs. 6): hand-computed expected values."""

from __future__ import annotations

from typing import Any

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


def test_judge_swap_block_by_hand() -> None:
    from benger.analysis._release_tables import judge_swap_block

    # primary P, cross-judge Q; systems s1..s3. Q's means (60, 50, 70) vs P's (40, 50, 60): ranks (2, 1, 3) vs
    # (1, 2, 3): rho = 1 - 6 * (1 + 1) / (3 * 8) = 0.5; tau-b = (2 concordant - 1 discordant) / 3 = 1/3
    swap = {
        "_meta": {
            "primary_judge": "P",
            "offset_source": {
                "calibration_labels": {"P": "Big P  (LLM)", "Q": "Q-judge  (LLM)"},
                "offsets": {"P": -2.0},
            },
        },
        "coverage": {"s1": 2, "s2": 2, "s3": 2},
        "per_judge_per_system": {
            "P": {
                "s1": {"n": 2, "mean_raw": 40.0, "pass_rate": 0.0},
                "s2": {"n": 2, "mean_raw": 50.0, "pass_rate": 0.5},
                "s3": {"n": 2, "mean_raw": 60.0, "pass_rate": 1.0},
            },
            "Q": {
                "s1": {"n": 2, "mean_raw": 60.0, "pass_rate": 1.0},
                "s2": {"n": 2, "mean_raw": 50.0, "pass_rate": 0.5},
                "s3": {"n": 2, "mean_raw": 70.0, "pass_rate": 1.0},
            },
        },
        "pass_rate_offset_corrected": {"P": {"s1": 0.0, "s2": 0.5, "s3": 1.0}},
    }
    # primary raws: s1 (39, 41), s2 (48, 52), s3 (60, 60); s3 has 3 generations for 2 cells -> not identifiable
    raws = {"s1": [39.0, 41.0], "s2": [48.0, 52.0], "s3": [55.0, 60.0, 65.0]}
    out = judge_swap_block(swap, raws, {"p": "P", "q": "Q-judge"}, {"p": -2.0, "q": 5.0})
    q = out["judges"]["Q"]
    assert (q["judge_key"], q["spearman"], q["kendall"], q["offset_raw"]) == ("q", 0.5, pytest.approx(1 / 3), 5.0)
    assert out["judges"]["P"]["offset_matches_release"] is True and q["offset_matches_release"] is None
    # s2 recomputed: mean 50, pass (raw >= 50) 1 of 2; corrected raw - (-2) = (50, 54) -> 2 of 2 != released 0.5
    s2 = out["primary_recomputed"]["s2"]
    assert (s2["mean_raw"], s2["pass_rate"], s2["pass_rate_offset_corrected"]) == (50.0, 0.5, 1.0)
    assert s2["matches_release"] is False and out["primary_recomputed"]["s1"]["matches_release"] is True
    assert out["primary_recomputed"]["s3"]["source"] == "unavailable"


def test_operational_block_by_hand() -> None:
    from benger.analysis._release_tables import operational_block

    systems: dict[str, dict[str, Any]] = {
        "a": {
            "provider_family": "X",
            "tier": "flagship",
            "weights": "closed",
            "temperature": 1.0,
            "max_output_tokens": 8000,
            "n_truncated": 2,
            "mean_output_words": 150.0,
        },
        "b": {
            "provider_family": "Y",
            "tier": None,
            "weights": "open",
            "temperature": 0.6,
            "max_output_tokens": 16000,
            "n_truncated": 0,
            "mean_output_words": 99.0,
        },
    }
    per_call = {"a": {"mean_latency_s": 12.5, "median_latency_s": 11.0, "truncated": 2, "total_cost_usd": 0.3}}
    words = [("a", 100), ("a", 200), ("b", 100), ("b", 101)]
    out = operational_block(systems, {"a": (4, 2), "b": (2, 2)}, words, per_call, {"a": {"temperature": [1.0]}})
    a, b = out["rows"]
    assert (a["generations"], a["generations_final"], a["truncated"], a["mean_latency_s"]) == (4, 2, 2, 12.5)
    assert (a["mean_words"], a["mean_words_matches_release"]) == (150.0, True)
    assert (b["mean_words"], b["mean_words_matches_release"], b["mean_latency_s"]) == (100.5, False, None)
    assert out["inputs"] == {"systems": 2, "generations": 6}


def test_creator_vs_blind_per_pick_type() -> None:
    from benger.analysis._rq5 import creator_vs_blind

    # traditional picks: creator (50, 60, 70) vs blind means (40, 60, 80): r = 1, MAE (10 + 0 + 10) / 3, offset 0
    # LLM picks: creator (30, 30, 90) vs blind means (20, 40, 60): MAE (10 + 10 + 30) / 3, offset (10 - 10 + 30) / 3
    plan = {
        "h1": ("human_traditional", 50.0, (40.0, 40.0, 40.0)),
        "h2": ("human_traditional", 60.0, (50.0, 60.0, 70.0)),
        "h3": ("human_traditional", 70.0, (80.0, 80.0, 80.0)),
        "l1": ("llm_system", 30.0, (20.0, 20.0, 20.0)),
        "l2": ("llm_system", 30.0, (40.0, 40.0, 40.0)),
        "l3": ("llm_system", 90.0, (60.0, 60.0, 60.0)),
    }
    sols, reviews, pos = {}, [], 0
    for sid, (stype, creator, blind) in plan.items():
        pool = "llm" if stype == "llm_system" else "human"
        sols[sid] = Solution(sid, pool, stype, "t1", "Zivilrecht", "x")
        reviews.append(ReviewRow(sid, "c", "creator", creator, 4, True, dict(DIMS), pos))
        for g, raw in zip(("g1", "g2", "g3"), blind, strict=True):
            pos += 1
            reviews.append(ReviewRow(sid, g, "blind", raw, 4, True, dict(DIMS), pos))
        pos += 1
    out = creator_vs_blind(_study(solutions=sols, reviews=reviews))
    trad, llm = out["by_solution_type"]["human_traditional"], out["by_solution_type"]["llm_system"]
    assert (trad["n"], trad["pearson"], trad["mae_raw"], trad["offset_raw"]) == (3, pytest.approx(1.0), 20 / 3, 0.0)
    assert (llm["mae_raw"], llm["offset_raw"]) == (pytest.approx(50 / 3), pytest.approx(10.0))
    assert out["n"] == 6


def test_appendix_a_tables_by_hand() -> None:
    from benger.analysis._appendix_a import appendix_a

    # system a: raws 48, 62 (+ a superseded 80); system b: raw 30, 40. grade points (half-up table): 48 -> 3,
    # 62 -> 7, 80 -> 13, 30 -> 2, 40 -> 3; pass = grade points >= 4.
    gens = [
        GenScore("a1", "a", "t1", 48.0, dict(DIMS)),
        GenScore("a2", "a", "t2", 62.0, dict(DIMS)),
        GenScore("a3", "a", "t1", 80.0, dict(DIMS), superseded=True),
        GenScore("b1", "b", "t1", 30.0, dict(DIMS)),
        GenScore("b2", "b", "t2", 40.0, dict(DIMS)),
    ]
    # a1 is a picked LLM solution with a creator and two blind reviews (70, 50, 60): h_raw 60, 2 of 3 pass
    sols = {"a1": Solution("a1", "llm", "llm_system", "t1", "Zivilrecht", "a")}
    reviews = [
        ReviewRow("a1", "c", "creator", 70.0, 10, True, dict(DIMS), 0),
        ReviewRow("a1", "g1", "blind", 50.0, 4, True, dict(DIMS), 1),
        ReviewRow("a1", "g2", "blind", 45.0, 3, False, dict(DIMS), 2),
    ]
    anns = [HumanAnnotation("x1", "traditional"), HumanAnnotation("x2", "traditional")]
    metrics = {"bleu": {"a1": 0.1, "a2": 0.3, "b1": 0.2}}
    every = {"bleu": {**metrics["bleu"], "a3": 0.5}}
    human = {"bleu": {"x1": ("traditional", 0.4), "x2": ("traditional", 0.2), "y": ("co_creation", 0.9)}}
    data = _study(generations=gens, solutions=sols, reviews=reviews, annotations=anns, metrics=metrics)
    final = appendix_a(data, n_boot=50, human_metrics=human)
    rows = {r["row"]: r for r in final["table2"]}
    assert [r["row"] for r in final["table2"]] == ["human_traditional", "human_co_creation", "a", "b"]
    a = rows["a"]
    assert (a["n"], a["raw"]["mean"], a["grade_points"]["mean"], a["pass_rate"]["mean"]) == (2, 55.0, 5.0, 0.5)
    assert (a["n_h"], a["h_raw"]["mean"], a["h_grade_points"]["mean"]) == (3, 55.0, pytest.approx(17 / 3))
    assert a["h_pass_rate"]["mean"] == pytest.approx(2 / 3)  # h_pass from the raw: 70 and 50 pass, 45 does not
    assert rows["b"]["h_raw"] is None and rows["human_traditional"]["raw"] is None
    assert rows["human_traditional"]["n"] == 2
    t5 = {r["row"]: r["metrics"]["bleu"] for r in final["table5"]}
    assert (t5["a"]["mean"], t5["b"]["mean"], t5["human_traditional"]["mean"]) == (0.2, 0.2, pytest.approx(0.3))
    assert t5["b"]["low"] is None  # one value: undefined interval
    full = appendix_a(data, n_boot=50, include_superseded=True, metrics_all=every, human_metrics=human)
    a_full = next(r for r in full["table2"] if r["row"] == "a")
    assert (a_full["n"], a_full["raw"]["mean"]) == (3, 190 / 3)
    assert next(r for r in full["table5"] if r["row"] == "a")["metrics"]["bleu"]["mean"] == pytest.approx(0.3)


def test_departures_by_hand() -> None:
    from benger.analysis._departures import departures

    results = {
        "rq1": {"leaderboard": {"rows": [{"system": "a", "zjs": {"n": 100}}, {"system": "b", "zjs": {"n": 50}}]}},
        "rq4": {"source": "unavailable", "reason": "no judge scores", "judge": None},
        "rq5": {"x": [{"row": "r1", "judge_source": "unavailable", "judge_reason": "why"}]},
    }
    out = departures(results, {"a": 7, "b": 0, "c": 3})  # b dropped nothing, c has no leaderboard row
    zjs = [i for i in out["items"] if i["kind"] == "superseded_not_released"]
    assert [(i["item"], i["printed"], i["benger"]) for i in zjs] == [("rq1.leaderboard[a].zjs.n", 107, 100)]
    unavailable = [(i["item"], i["cause"]) for i in out["items"] if i["kind"] == "unavailable"]
    assert unavailable == [("rq4", "no judge scores"), ("rq5.x[r1]", "why")]
    assert out["items"][-1]["kind"] == "monte_carlo" and out["inputs"]["zjs_systems_with_dropped"] == 2
    # ZJS columns come from released summaries: the interval method is a departure of its own (issue 24)
    assert out["counts"] == {"interval_method": 1, "monte_carlo": 1, "superseded_not_released": 1, "unavailable": 2}
    assert "exact" not in " ".join(i["cause"] for i in out["items"])


def test_departures_list_superseded_benchathon_rows_and_partial_human_metrics() -> None:
    """Issue 24 item 7: without the superseded generations the Benchathon row differs from the printed Table 1
    (pointing to --include-superseded); a human metric mean from 16 of 65 released values says so."""
    from benger.analysis._departures import departures

    results = {"rq1": {"leaderboard": {"rows": [{"system": "gpt-5.4", "bench": {"n": 15}}]}}}
    out = departures(results, {}, bench_superseded={"gpt-5.4": 15, "other": 0},
                     human_metric_coverage={"moverscore (ai)": (16, 65), "bleu (ai)": (65, 65)})  # fmt: skip
    (sup,) = [i for i in out["items"] if i["kind"] == "superseded_excluded"]
    assert (sup["printed"], sup["benger"]) == (30, 15) and "--include-superseded" in sup["cause"]
    (part,) = [i for i in out["items"] if i["kind"] == "partial_release"]
    assert (part["printed"], part["benger"]) == (65, 16) and "16 of 65" in part["cause"]
    assert out["counts"]["superseded_excluded"] == 1 and "interval_method" not in out["counts"]


def test_departures_list_table_3s_first_evaluation_rule() -> None:
    """Issue 24 item 7: Table 3 takes each ZJS generation's first judge evaluation, benger's Table 3 the released
    summary; the difference is listed (its own kind) whenever the run has Table 3 rows, and only then."""
    from benger.analysis._departures import departures

    with_table3 = {"rq1": {"appendix_a_summaries": {"table3": [{"row": "a"}], "table4": []}}}
    (rule,) = [i for i in departures(with_table3, {})["items"] if i["kind"] == "evaluation_rule"]
    assert rule["item"].startswith("rq1.appendix_a_summaries.table3") and "first judge evaluation" in rule["cause"]
    for without in ({}, {"rq1": {"appendix_a_summaries": {"table3": [], "source": "unavailable"}}}):
        assert "evaluation_rule" not in departures(without, {})["counts"]


def test_every_departure_kind_is_listed_once_in_order() -> None:
    """One hand-built input per kind: the counts name each kind of KINDS once, the items come in KINDS order."""
    from benger.analysis._departures import KINDS, departures

    results = {
        "rq1": {
            "leaderboard": {"rows": [{"system": "a", "zjs": {"n": 100}, "bench": {"n": 15}}]},
            "appendix_a_summaries": {"table3": [{"row": "a"}]},
        },
        "rq4": {"source": "unavailable", "reason": "no judge scores"},
    }
    out = departures(results, {"a": 7}, bench_superseded={"a": 15}, human_metric_coverage={"bleu (ai)": (16, 65)})
    assert out["counts"] == dict.fromkeys(sorted(KINDS), 1)
    assert [i["kind"] for i in out["items"]] == list(KINDS)


def test_paired_systems_average_a_tasks_repetitions_as_sum_over_len() -> None:
    """extras.paired_systems: per system and task the mean of the task's generations (summed as they come, no
    list per task: issue 26), the numbers of ``sum(raws) / len(raws)``."""
    from benger.analysis.results import Context
    from benger.analysis.results._builtin import _paired_systems
    from benger.stats import paired_system_comparisons

    raws = {("a", "t1"): [10.1, 20.2, 30.7], ("a", "t2"): [55.5], ("b", "t1"): [0.3, 0.6], ("b", "t2"): [70.0]}
    raws |= {("c", "t1"): [33.3], ("c", "t2"): [1.1, 2.2, 4.4, 8.8]}
    gens = [GenScore(f"{s}-{t}-{k}", s, t, raw, {}) for (s, t), values in raws.items() for k, raw in enumerate(values)]
    block = _paired_systems(Context(_study(generations=gens), seed=3, n_boot=200))
    scores: dict[str, dict[str, float]] = {}
    for (s, t), values in raws.items():
        scores.setdefault(s, {})[t] = sum(values) / len(values)
    assert block["pairs"] == [p._asdict() for p in paired_system_comparisons(scores, n_resamples=200, seed=19)]
    assert block["pairs"][0]["delta"] == pytest.approx((61.0 / 3 - 0.9 / 2 + 55.5 - 70.0) / 2)  # a - b by hand
