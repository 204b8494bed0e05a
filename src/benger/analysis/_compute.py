"""compute_all: every research question's statistics as one JSON-serialisable dict (results.json)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from benger.analysis import _rq5
from benger.analysis._appendix_a import appendix_a
from benger.analysis._creator import creator_calibration
from benger.analysis._data import POOLS, StudyData
from benger.analysis._departures import departures
from benger.analysis._release_tables import judge_swap_block, operational_block
from benger.analysis._rq12 import group_aggregates, leaderboard, task_system
from benger.analysis._rq34 import cocreation, metric_validity
from benger.stats import krippendorff_alpha_interval, paired_system_comparisons


def _jsonable(value: Any) -> Any:
    """Plain JSON types: numpy scalars to Python, tuples to lists, non-finite floats to None."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        f = float(value)
        return f if math.isfinite(f) else None
    return value


def _extras(data: StudyData, seed: int, n_boot: int) -> dict[str, Any]:
    scores: dict[str, dict[str, float]] = {}
    for g in data.final_generations():
        scores.setdefault(g.system, {})[g.task_id] = g.raw
    pairs = paired_system_comparisons(scores, n_resamples=n_boot, seed=seed + 16)
    by_solution: dict[str, list[float | None]] = {}
    by_solution_gp: dict[str, list[float | None]] = {}
    for r in data.blind_reviews():
        by_solution.setdefault(r.solution_id, []).append(r.raw)
        by_solution_gp.setdefault(r.solution_id, []).append(float(r.grade_points))
    return {
        "paired_systems": {
            "method": "paired percentile bootstrap of the mean per-task score difference over shared tasks; "
            "two-sided bootstrap p, Holm-corrected over all pairs",
            "inputs": {"systems": len(scores), "n_boot": n_boot},
            "pairs": [p._asdict() for p in pairs],
        },
        "krippendorff_alpha": {
            "method": "Krippendorff's alpha (interval metric) over the blind reviews per solution",
            "raw": krippendorff_alpha_interval(list(by_solution.values())),
            "grade_points": krippendorff_alpha_interval(list(by_solution_gp.values())),
        },
    }


def _judge_swap(data: StudyData, calibration: dict[str, Any]) -> dict[str, Any]:
    raws: dict[str, list[float]] = {}
    for g in data.generations:  # the swap subset includes the superseded April generations
        raws.setdefault(g.system, []).append(g.raw)
    offsets = {r["judge"]: r["judge_minus_pool_mean"] for r in calibration["rows"] if r["pool"] == "llm"}
    return judge_swap_block(data.judge_swap, raws, data.judge_labels, offsets)


def _operational(data: StudyData) -> dict[str, Any]:
    op = getattr(data, "operational", None)
    if not op:
        return {"source": "unavailable", "reason": "per-system settings and the per-call log come with the release"}
    return operational_block(op["systems"], op["generation_counts"], op["words"], op["per_call"], op["observed"])


def _appendix_a(data: StudyData, seed: int, n_boot: int) -> dict[str, Any]:
    human = getattr(data, "human_metrics", None) or None
    every = getattr(data, "metrics_all", None) or None
    return {
        "final": appendix_a(data, seed=seed, n_boot=n_boot, human_metrics=human),
        "with_superseded": appendix_a(
            data, seed=seed, n_boot=n_boot, include_superseded=True, metrics_all=every, human_metrics=human
        ),
    }


def with_superseded(data: StudyData) -> StudyData:
    """The same data with the superseded generations (and their metric values, where the data hold them) counted
    as final: the numbers the paper prints for Benchathon (Table 1 GPT-5.4 n = 30, Table 12 n = 208, ...)."""
    every = getattr(data, "metrics_all", None) or data.metrics
    gens = [replace(g, superseded=False) for g in data.generations]
    return replace(data, generations=gens, metrics={k: dict(v) for k, v in every.items()})


def compute_all(
    data: StudyData, *, seed: int = 0, n_boot: int = 2000, n_stacked: int = 500, include_superseded: bool = False
) -> dict[str, Any]:
    """All RQ1-RQ5 statistics (see docs/results-schema.md). Seeded: equal inputs and seed give equal output.

    ``include_superseded`` counts the superseded generations as final (:func:`with_superseded`), as the paper prints.
    """
    from benger import __version__

    if include_superseded:
        data = with_superseded(data)

    judge_vs_pool = {
        judge: {pool: res for pool in POOLS if (res := _rq5.judge_vs_pool(data, judge, pool)) is not None}
        for judge in data.judges()
    }
    irr = _rq5.human_irr(data)
    primary_human = judge_vs_pool.get(data.primary_judge, {}).get("human")
    spread = irr["pooled"]["spread_raw"] if irr.get("pooled") else None
    irr["judge_mae_over_half_spread_ratio"] = (
        primary_human["mae_raw"] / (spread / 2)
        if primary_human and primary_human["mae_raw"] is not None and spread
        else None
    )
    calibration = _rq5.calibration_table(data)
    results = {
        "meta": {
            "benger_version": __version__,
            "seed": seed,
            "include_superseded": include_superseded,
            "n_boot": n_boot,
            "n_stacked": n_stacked,
            "primary_judge": data.primary_judge,
            "judges": data.judges(),
            "judge_labels": data.judge_labels,
            "pools": list(POOLS),
            "inputs": data.inputs,
        },
        "rq1": {
            "leaderboard": leaderboard(data, seed=seed, n_boot=n_boot),
            "task_system": task_system(data),
            "operational": _operational(data),
            "appendix_a": _appendix_a(data, seed, n_boot),
        },
        "rq2": group_aggregates(data, seed=seed, n_boot=n_boot),
        "rq3": metric_validity(data, seed=seed, n_boot=n_boot),
        "rq4": cocreation(data, seed=seed, n_boot=n_boot),
        "rq5": {
            "judge_vs_pool": judge_vs_pool,
            "irr": irr,
            "alt_test": _rq5.alt_tests(data),
            "single_expert": _rq5.single_expert_tests(data),
            "calibration": calibration,
            "per_dimension": _rq5.per_dimension(data),
            "creator_vs_blind": _rq5.creator_vs_blind(data),
            "intra_judge": _rq5.intra_judge(data),
            "inter_judge_rank": _rq5.inter_judge_rank(data),
            "judge_swap": _judge_swap(data, calibration),
            "creator_calibration": creator_calibration(data, seed=seed, n_reps=n_stacked),
        },
        "extras": _extras(data, seed, n_boot),
    }
    results["departures"] = departures(results, getattr(data, "zjs_superseded_dropped", None) or {})
    return dict(_jsonable(results))
