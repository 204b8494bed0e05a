"""A small hand-written results dict that follows docs/results-schema.md (values are made up, not the paper's):
every block the top-level model ``Results`` requires is there, so ``typed(make_results())`` validates."""

from __future__ import annotations

from typing import Any

import pytest

from benger.analysis.results import Results


def _alt(omega: float, passes: bool, rho: float) -> dict[str, Any]:
    return {
        "method": "alt-test at ε=0.15, Wilcoxon per annotator, BY at q=0.05",
        "inputs": {"annotators": 2},
        "epsilon": 0.15,
        "m_annotators": 2,
        "n_instances_total": 30,
        "n_rejected": 1,
        "omega": omega,
        "omega_ci95": [0.01, 0.99],
        "rho": rho,
        "passes": passes,
        "pearson_judge_vs_mean_blind": 0.7,
        "per_annotator": [
            {
                "grader": "grader_01",
                "n_j": 14,
                "rho_f": 0.57,
                "rho_h": 0.43,
                "d_bar": -0.143,
                "test": "wilcoxon",
                "statistic": 12.0,
                "p_value": 0.0247,
                "rejected_BY": False,
            },
            {
                "grader": "grader_02",
                "n_j": 19,
                "rho_f": 0.68,
                "rho_h": 0.32,
                "d_bar": -0.368,
                "test": "wilcoxon",
                "statistic": 3.0,
                "p_value": 0.00008,
                "rejected_BY": True,
            },
        ],
    }


def make_results() -> dict[str, Any]:
    """A results dict with every section present; the tests edit copies of it."""
    bench = {
        "n": 15,
        "raw": 69.25,
        "low": 63.7,
        "high": 74.9,
        "halfwidth": 5.6,
        "pass_rate": 14 / 15,
        "grade_points": 9.1,
    }
    return {
        "meta": {
            "benger_version": "0.1.0",
            "seed": 7,
            "include_superseded": False,
            "n_boot": 200,
            "n_stacked": 50,
            "primary_judge": "gpt54mini",
            "judges": ["gpt54mini", "sonnet"],
            "judge_labels": {"gpt54mini": "GPT-5.4-mini (primary)", "sonnet": "Sonnet-4.6"},
            "pools": ["human", "llm"],
            "inputs": {"n_tasks": 15, "n_generations": 30, "n_reviews": 180},
        },
        "rq1": {
            "leaderboard": {
                "method": "mean judge raw score per system; percentile bootstrap CI on Benchathon",
                "inputs": ["generations", "judge_scores:gpt54mini"],
                "rows": [
                    {
                        "system": "sys-a",
                        "display": "System A & Co",
                        "tier": "flagship",
                        "provider": "X",
                        "weights": "closed",
                        "rank": 1,
                        "sort_key": 70.0,
                        "bench": bench,
                        "zjs": {"n": 652, "raw": 58.0, "low": 57.0, "high": 59.0, "halfwidth": 1.0, "pass_rate": 0.74},
                        "gp": {
                            "n": 531,
                            "raw": 83.1,
                            "low": 81.1,
                            "high": 85.1,
                            "halfwidth": 2.0,
                            "pass_rate": 0.86,
                            "acc": 0.81,
                        },
                        "kind": "system",
                    },
                    {
                        "system": "sys-b",
                        "display": "System_B 50%",
                        "tier": "open_reference",
                        "provider": "Y",
                        "weights": "open",
                        "rank": 2,
                        "sort_key": 40.0,
                        "bench": {"n": 15, "raw": 41.3, "low": 37.0, "high": 45.6, "halfwidth": 4.3, "pass_rate": 0.2},
                        "zjs": None,
                        "gp": None,
                        "kind": "system",
                    },
                    {
                        "system": "human_all",
                        "display": "Human (all)",
                        "kind": "human",
                        "bench": {
                            "source": "unavailable",
                            "reason": "judge scores of human annotations not released",
                            "n": None,
                            "raw": None,
                            "human_raw": 58.4,
                            "human_pass_rate": 0.7,
                        },
                    },
                ],
            },
            "operational": {
                "method": "per system: released settings",
                "inputs": {"systems": 0, "generations": 0},
                "source": "unavailable",
                "reason": "per-system settings and the per-call log come with the release",
            },
            "appendix_a": {},
        },
        "rq2": {
            "method": "group means",
            "inputs": ["leaderboard"],
            "benchathon": {
                "by_tier": {
                    "flagship": {
                        "n_systems": 1,
                        "n": 15,
                        "mean": 69.25,
                        "low": 63.7,
                        "high": 74.9,
                        "systems": ["sys-a"],
                    }
                }
            },
            "zjs": {"by_tier": {"flagship": {"n_systems": 1, "mean": 58.0, "min": 58.0, "max": 58.0}}},
            "gaps": {"benchathon": {"flagship_minus_open_reference": 27.95}},
            "gap_ci": {"benchathon": {"flagship_minus_open_reference": None}},
        },
        "rq3": {
            "per_generation": {
                "method": "Pearson and Spearman over generations",
                "inputs": ["metrics"],
                "metrics": {
                    "rouge": {"n": 180, "pearson": 0.68, "spearman": 0.66},
                    "bleu": {"n": 180, "pearson": 0.58, "spearman": None},
                },
            },
            "per_system": {
                "method": "over system means",
                "inputs": ["metrics"],
                "metrics": {"rouge": {"n_systems": 12, "pearson": 0.9, "spearman": 0.89}},
            },
            "metric_vs_human": {"method": "metric vs mean blind raw", "inputs": ["reviews"], "metrics": {}},
        },
        "rq4": {
            "method": "co-creation minus traditional, percentile bootstraps",
            "inputs": {"annotations_with_condition": 220, "with_judge_score": 0},
            "source": "released_aggregates",
            "reason": "per-annotation judge scores are not released",
            "judge": None,
            "judge_picks": None,
            "blind_human": {
                "method": "participant-clustered bootstrap",
                "inputs": {"human_picks_with_blind_reviews": 30},
                "source": "per_annotation",
                "n": {"traditional": 15, "co_creation": 15},
                "mean": {"traditional": 50.0, "co_creation": 63.6},
                "delta": 13.6,
                "headline": "participant_cluster",
                "iid": {"estimate": 13.6, "low": 2.1, "high": 25.0},
                "participant_cluster": {"estimate": 13.6, "low": -1.4, "high": 30.5},
            },
        },
        "rq5": {
            "judge_vs_pool": {
                "gpt54mini": {
                    p: {
                        "method": "judge vs mean of three blind reviewers",
                        "inputs": ["reviews"],
                        "n": n,
                        "pearson": 0.76,
                        "spearman": 0.76,
                        "kendall": 0.6,
                        "mae_raw": 10.8,
                        "mae_grade_points": 2.69,
                        "kappa": 0.6,
                        "offset_raw": -0.01,
                        "offset_grade_points": 0.0,
                        "mae_bias_corrected": 10.7,
                        "mean_judge": 55.0,
                        "mean_pool": 55.0,
                        "mae_over_half_spread": 0.9,
                    }
                    for p, n in (("human", 30), ("llm", 15))
                },
            },
            "irr": {
                "method": "ICC(2,1)/(2,k) by rater position",
                "inputs": {"n_blind_reviews": 135, "k": 3},
                "k": 3,
                "pooled": {
                    "n": 45,
                    "icc_2_1_raw": 0.63,
                    "icc_2_k_raw": 0.84,
                    "icc_2_1_gp": 0.56,
                    "icc_2_k_gp": 0.79,
                    "spread_raw": 24.0,
                    "spread_gp": 4.0,
                    "krippendorff_alpha_raw": 0.62,
                },
                "by_solution_type": {
                    "llm_system": {
                        "n": 15,
                        "icc_2_1_raw": 0.69,
                        "icc_2_k_raw": 0.87,
                        "icc_2_1_gp": 0.6,
                        "icc_2_k_gp": 0.83,
                    }
                },
            },
            "alt_test": {
                "gpt54mini": {"human": _alt(0.6, True, 0.62), "llm": _alt(0.0, False, 0.41)},
                "sonnet": {"human": _alt(0.4, False, 0.55)},
            },
            "single_expert": {"gpt54mini": {"human": {"0.2": {**_alt(0.6, True, 0.55), "epsilon": 0.2}}}},
            "calibration": {
                "method": "paired t-test of judge − mean blind",
                "inputs": ["reviews", "anchors"],
                "rows": [
                    {
                        "judge": "gpt54mini",
                        "pool": "human",
                        "label": "GPT-5.4-mini (primary)",
                        "n": 30,
                        "diff_mean": 0.2,
                        "diff_sd": 4.99,
                        "sw_diff_p": 0.02,
                        "ttest_t": 0.22,
                        "ttest_p": 0.8279,
                        "judge_minus_pool_mean": -0.01,
                        "judge_minus_pool_sd": 13.43,
                        "judge_pool_ttest_t": -0.0,
                        "judge_pool_ttest_p": 0.9964,
                    },
                    {
                        "judge": "sonnet",
                        "pool": "llm",
                        "label": "Sonnet-4.6",
                        "n": 15,
                        "diff_mean": 3.28,
                        "diff_sd": 6.62,
                        "sw_diff_p": 0.85,
                        "ttest_t": 1.92,
                        "ttest_p": 0.0757,
                        "judge_minus_pool_mean": 6.87,
                        "judge_minus_pool_sd": 13.25,
                        "judge_pool_ttest_t": 2.01,
                        "judge_pool_ttest_p": 0.0645,
                    },
                ],
            },
            "per_dimension": {
                "method": "Pearson per dimension",
                "inputs": ["reviews"],
                "pools": {
                    "human": {
                        "ergebnisrichtigkeit": {"n": 30, "pearson": 0.76, "mae": 3.1},
                        "formalia": {"n": 30, "pearson": 0.2, "mae": 0.5},
                    },
                    "llm": {
                        "ergebnisrichtigkeit": {"n": 15, "pearson": 0.62, "mae": 3.9},
                        "formalia": {"n": 15, "pearson": None, "mae": 0.4},
                    },
                },
            },
            "creator_vs_blind": {
                "method": "creator raw vs mean blind raw",
                "inputs": ["reviews"],
                "n": 45,
                "pearson": 0.7,
                "spearman": 0.68,
                "mae_raw": 9.0,
                "offset_raw": 2.0,
                "by_solution_type": {},
            },
            "intra_judge": {
                "method": "sd of repeated scores",
                "inputs": ["judge repeats"],
                "n_generations": 30,
                "mean_within_sd": 1.25,
                "median_within_sd": 1.0,
                "max_within_sd": 4.5,
            },
            "inter_judge_rank": {
                "method": "rank agreement of per-system means",
                "inputs": ["aggregates"],
                "primary": "gpt54mini",
                "judges": {"sonnet": {"spearman": 0.95, "kendall": 0.85, "n_systems": 12}},
            },
            "judge_swap": {
                "method": "swap",
                "inputs": {"judges": 0},
                "source": "unavailable",
                "reason": "released aggregates only",
                "judges": {},
            },
            "creator_calibration": {
                "method": "creator-anchored calibration",
                "inputs": ["creator grades"],
                "pooled_loo": {},
                "gloo": {},
                "pure_creator": {},
            },
        },
        "extras": {
            "paired_systems": {
                "method": "paired bootstrap on shared tasks, Holm",
                "inputs": ["generations"],
                "pairs": [
                    {
                        "a": "sys-a",
                        "b": "sys-b",
                        "n": 15,
                        "delta": 27.9,
                        "low": 20.0,
                        "high": 35.0,
                        "p_value": 0.0001,
                        "p_holm": 0.0001,
                        "significant": True,
                    }
                ],
            },
            "krippendorff_alpha": {"method": "alpha", "inputs": ["reviews"], "raw": 0.61, "grade_points": 0.55},
        },
        "departures": {"method": "printed vs benger", "inputs": {"zjs_systems_with_dropped": 0}, "items": []},
    }


def typed(results: dict[str, Any]) -> Results:
    """The results dict validated into the top-level model (what ``write_report`` hands the table builders)."""
    return Results.model_validate(results)


@pytest.fixture
def results() -> dict[str, Any]:
    return make_results()
