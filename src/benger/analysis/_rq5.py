"""RQ5: is the rubric judge a valid stand-in for human graders? (agreement, IRR, alt-test, calibration)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from benger.analysis._data import POOLS, StudyData
from benger.judge import grade_points, passed
from benger.stats import (
    alt_test,
    blind_pool_outcomes,
    calibration_offsets,
    cohen_kappa,
    icc2,
    kendall_tau_b,
    krippendorff_alpha_interval,
    mae,
    pearson,
    single_expert_outcomes,
    spearman,
)

EPSILONS = (0.15, 0.2)


def _blind_by_solution(data: StudyData, pool: str | None = None) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for r in data.blind_reviews(pool):
        out.setdefault(r.solution_id, []).append(r)
    return out


def judge_vs_pool(data: StudyData, judge: str, pool: str) -> dict[str, Any] | None:
    """Judge score vs the mean blind pool per solution: r, rho, tau, MAE (raw, grade points), kappa, offsets."""
    scores = data.judge_scores.get(judge, {})
    blind = _blind_by_solution(data, pool)
    ids = [s for s in data.pool_solutions(pool) if s in scores and s in blind]
    if len(ids) < 3:
        return None
    j = np.asarray([scores[s] for s in ids])
    h = np.asarray([np.mean([r.raw for r in blind[s]]) for s in ids])
    # reviews under a rubric without a grade table carry raw points only: no grade-point or pass statistic then
    graded = all(r.grade_points is not None for s in ids for r in blind[s])
    with_pass = all(r.passed is not None for s in ids for r in blind[s])
    h_gp = np.asarray([np.mean([r.grade_points for r in blind[s]]) for s in ids]) if graded else None
    j_gp = np.asarray([grade_points(x) for x in j], dtype=float)
    majority = [sum(bool(r.passed) for r in blind[s]) > len(blind[s]) / 2 for s in ids]
    diff = j - h
    return {
        "method": "judge raw vs mean of the blind reviews per solution; kappa on pass (grade points >= 4) vs "
        "strict blind majority; grade-point MAE uses the judge's integer grade points vs the mean blind grade points",
        "inputs": {"judge": judge, "pool": pool, "n_solutions": len(ids)},
        "n": len(ids),
        "pearson": pearson(j, h),
        "spearman": spearman(j, h),
        "kendall": kendall_tau_b(j, h),
        "mae_raw": mae(j, h),
        "mae_grade_points": mae(j_gp, h_gp) if h_gp is not None else None,
        "kappa": cohen_kappa([passed(x) for x in j], majority) if with_pass else None,
        "offset_raw": float(diff.mean()),
        "offset_grade_points": float((j_gp - h_gp).mean()) if h_gp is not None else None,
        "mae_bias_corrected": float(np.mean(np.abs(diff - diff.mean()))),
        "mean_judge": float(j.mean()),
        "mean_pool": float(h.mean()),
    }


def _icc_block(rows: list[list[Any]]) -> dict[str, Any]:
    raw = np.asarray([[r.raw for r in row] for row in rows])
    graded = all(r.grade_points is not None for row in rows for r in row)  # else raw points only (no grade table)
    gp = np.asarray([[r.grade_points for r in row] for row in rows], dtype=float) if graded else None
    a, b = icc2(raw), (icc2(gp) if gp is not None else None)
    return {
        "n": a.n,
        "k": a.k,
        "icc_2_1_raw": a.icc_2_1,
        "icc_2_k_raw": a.icc_2_k,
        "icc_2_1_gp": b.icc_2_1 if b is not None else None,
        "icc_2_k_gp": b.icc_2_k if b is not None else None,
        "spread_raw": float(np.mean(np.ptp(raw, axis=1))),
        "spread_gp": float(np.mean(np.ptp(gp, axis=1))) if gp is not None else None,
        "krippendorff_alpha_raw": krippendorff_alpha_interval(raw.tolist()),
    }


def human_irr(data: StudyData) -> dict[str, Any]:
    """ICC(2,1)/ICC(2,k) of the blind reviews: positional (file order) and by rater identity (modal triplet)."""
    blind = _blind_by_solution(data)
    sizes = Counter(len(v) for v in blind.values() if len(v) >= 2).most_common(1)
    rows = {s: v for s, v in blind.items() if sizes and len(v) == sizes[0][0]}
    if len(rows) < 2:
        return {
            "method": "two-way random, absolute agreement (Shrout & Fleiss ICC(2,1), ICC(2,k)) of the blind reviews",
            "inputs": {"n_blind_reviews": sum(len(v) for v in blind.values()), "k": None},
            "source": "unavailable",
            "reason": "fewer than 2 solutions with the same number (>= 2) of blind reviews",
            "k": None,
            "pooled": None,
            "by_solution_type": {},
            "by_pool": {},
        }
    k = sizes[0][0]
    out: dict[str, Any] = {
        "method": "two-way random, absolute agreement (Shrout & Fleiss ICC(2,1), ICC(2,k)); positional columns = "
        "j-th blind review of a solution in source order; balanced subset = modal rater set with rater-id columns",
        "inputs": {"n_blind_reviews": sum(len(v) for v in blind.values()), "k": k},
        "k": k,
        "pooled": _icc_block(list(rows.values())),
        "by_solution_type": {},
        "by_pool": {},
    }
    for attr, key in (("solution_type", "by_solution_type"), ("pool", "by_pool")):
        groups: dict[str, list[list[Any]]] = {}
        for s, v in rows.items():
            groups.setdefault(getattr(data.solutions[s], attr), []).append(v)
        out[key] = {g: _icc_block(v) for g, v in sorted(groups.items()) if len(v) >= 2}
    triplets = Counter(tuple(sorted(r.grader for r in v)) for v in rows.values())
    modal, count = triplets.most_common(1)[0]
    if count >= 2:
        sub = [sorted(v, key=lambda r: r.grader) for v in rows.values() if tuple(sorted(r.grader for r in v)) == modal]
        block = _icc_block(sub)
        out["balanced_subset"] = {
            "raters": list(modal),
            "n": block["n"],
            "raw": {"icc_2_1": block["icc_2_1_raw"], "icc_2_k": block["icc_2_k_raw"]},
            "grade_points": {"icc_2_1": block["icc_2_1_gp"], "icc_2_k": block["icc_2_k_gp"]},
        }
    return out


def _review_tuples(data: StudyData, pool: str) -> list[tuple[str, str, float]]:
    return [(r.solution_id, r.grader, r.raw) for r in data.blind_reviews(pool)]


def alt_tests(data: StudyData, epsilon: float = 0.15) -> dict[str, dict[str, Any]]:
    """Blind-pool alt-test for every judge and pool, with Pearson(judge, mean blind)."""
    out: dict[str, dict[str, Any]] = {}
    for judge in data.judges():
        scores = data.judge_scores[judge]
        for pool in POOLS:
            outcomes, n_inst = blind_pool_outcomes(scores, _review_tuples(data, pool))
            if not outcomes:
                continue
            res = alt_test(outcomes, epsilon=epsilon, n_instances_total=n_inst).to_dict()
            blind = _blind_by_solution(data, pool)
            ids = [s for s in blind if s in scores]
            res["pearson_judge_vs_mean_blind"] = pearson(
                [scores[s] for s in ids], [float(np.mean([r.raw for r in blind[s]])) for s in ids]
            )
            res["n_pearson"] = len(ids)
            res["method"] = "Calderon alt-test, blind pool: S = -RMSE to the other blind reviewers; ties count for both"
            res["inputs"] = {"judge": judge, "pool": pool}
            out.setdefault(judge, {})[pool] = res
    return out


def single_expert_tests(data: StudyData) -> dict[str, dict[str, dict[str, Any]]]:
    """Single-expert alt-test (reference = the creator grade, S = -|x - creator|) at every epsilon."""
    creator = data.creator_scores()
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for judge in data.judges():
        for pool in POOLS:
            outcomes, n_inst = single_expert_outcomes(data.judge_scores[judge], _review_tuples(data, pool), creator)
            if not outcomes:
                continue
            for eps in EPSILONS:
                res = alt_test(outcomes, epsilon=eps, n_instances_total=n_inst).to_dict()
                res["method"] = (
                    "Calderon alt-test, single expert: S = -|x - creator grade| for judge and blind reviewer"
                )
                res["inputs"] = {"judge": judge, "pool": pool, "epsilon": eps}
                out.setdefault(judge, {}).setdefault(pool, {})[str(eps)] = res
    return out


def _calibration_row(data: StudyData, name: str, scores: dict[str, float], pool: str) -> dict[str, Any] | None:
    blind = _blind_by_solution(data, pool)
    ids = [s for s in data.pool_solutions(pool) if s in scores and s in blind]
    if len(ids) < 3:
        return None
    judge = np.asarray([scores[s] for s in ids])
    full = np.asarray([np.mean([r.raw for r in blind[s]]) for s in ids])
    sub = []
    for s in ids:
        rows = blind[s]
        last = max(r.grader for r in rows)
        kept = [r.raw for r in rows if r.grader != last]
        sub.append((sum(kept) + scores[s]) / len(rows))
    row = calibration_offsets(judge, full, np.asarray(sub))
    return {"judge": name, "pool": pool, "label": f"{data.judge_labels.get(name, name)} ({pool})", **row}


def calibration_table(data: StudyData) -> dict[str, Any]:
    """Delta_dir / Delta_sub per judge and pool, plus each repeat pass of the primary judge where available."""
    rows = []
    candidates: list[tuple[str, dict[str, float]]] = [(j, data.judge_scores[j]) for j in data.judges()]
    reps = {sid: data.repeats[sid] for sid in data.solutions if sid in data.repeats}
    if reps:
        width = min(len(v) for v in reps.values())
        for i in range(width):
            candidates.append((f"{data.primary_judge}_pass{i + 1}", {s: v[i] for s, v in reps.items()}))
        candidates.append(
            (f"{data.primary_judge}_mean{width}", {s: float(np.mean(v[:width])) for s, v in reps.items()})
        )
    for name, scores in candidates:
        for pool in POOLS:
            row = _calibration_row(data, name, scores, pool)
            if row is not None:
                rows.append(row)
    return {
        "method": "Delta_dir = judge - mean blind (paired t, Wilcoxon); Delta_sub = (blind without the alphabetically "
        "last grader + judge)/k - mean blind (Shapiro-Wilk, paired t, Wilcoxon)",
        "inputs": {"judges": [c[0] for c in candidates]},
        "rows": rows,
    }


def per_dimension(data: StudyData) -> dict[str, Any]:
    """Primary-judge dimension scores vs the mean blind dimension scores, all rubric dimensions, per pool (paper
    Figure 4). A pool whose picks have no judge dimension scores is listed under ``unavailable`` with the reason."""
    dims_of = {g.generation_id: g.dims for g in data.generations}
    out: dict[str, Any] = {
        "method": "per dimension: Pearson, Spearman and MAE of the primary judge's points vs the mean of the blind "
        "reviewers' points on that dimension",
        "inputs": {"judge": data.primary_judge},
        "pools": {},
        "unavailable": {},
    }
    for pool in POOLS:
        blind = _blind_by_solution(data, pool)
        ids = [s for s in blind if s in dims_of]
        if len(ids) < 3:
            out["unavailable"][pool] = (
                f"judge dimension scores exist for {len(ids)} of {len(blind)} reviewed {pool} picks (the release "
                "has per-dimension judge scores for generations only)"
            )
            continue
        table = {}
        for dim in dims_of[ids[0]]:
            j = [dims_of[s][dim] for s in ids]
            h = [float(np.mean([r.dims[dim] for r in blind[s]])) for s in ids]
            table[dim] = {
                "n": len(ids),
                "pearson": pearson(j, h),
                "spearman": spearman(j, h),
                "mae": mae(j, h),
                "mean_judge": float(np.mean(j)),
                "mean_blind": float(np.mean(h)),
            }
        out["pools"][pool] = table
    return out


def _creator_agreement(creator: dict[str, float], blind: dict[str, list[Any]], ids: list[str]) -> dict[str, Any]:
    c = [creator[s] for s in ids]
    h = [float(np.mean([r.raw for r in blind[s]])) for s in ids]
    return {
        "n": len(ids),
        "pearson": pearson(c, h),
        "spearman": spearman(c, h),
        "mae_raw": mae(c, h),
        "offset_raw": float(np.mean(np.subtract(c, h))) if ids else None,
    }


def creator_vs_blind(data: StudyData) -> dict[str, Any]:
    """Creator raw vs mean blind raw per solution: all picks, and per pick type (traditional, co-creation, LLM)."""
    creator, blind = data.creator_scores(), _blind_by_solution(data)
    ids = [s for s in blind if s in creator]
    by_type: dict[str, list[str]] = {}
    for s in ids:
        by_type.setdefault(data.solutions[s].solution_type, []).append(s)
    return {
        "method": "creator raw vs mean blind raw per solution",
        "inputs": {"solutions_with_creator_and_blind": len(ids)},
        **_creator_agreement(creator, blind, ids),
        "by_solution_type": {t: _creator_agreement(creator, blind, v) for t, v in sorted(by_type.items())},
    }


def intra_judge(data: StudyData) -> dict[str, Any]:
    sds = np.asarray([np.std(v) for v in data.repeats.values() if len(v) >= 2])
    return {
        "method": "population sd (ddof 0) of the repeated primary-judge raw scores per generation, averaged",
        "inputs": {"judge": data.primary_judge, "generations_with_repeats": int(sds.size)},
        "n_generations": int(sds.size),
        "mean_within_sd": float(sds.mean()) if sds.size else None,
        "median_within_sd": float(np.median(sds)) if sds.size else None,
        "max_within_sd": float(sds.max()) if sds.size else None,
    }


def _inter_judge_from_cells(data: StudyData) -> dict[str, Any]:
    scores = data.generation_judge_scores
    primary = data.primary_judge if data.primary_judge in scores else next(iter(scores))
    cells = sorted(set.intersection(*(set(v) for v in scores.values())))
    system_of = {g.generation_id: g.system for g in data.generations}
    systems = sorted({system_of[c] for c in cells if c in system_of})

    def means(judge: str) -> list[float | None]:
        out: list[float | None] = []
        for s in systems:
            vals = [scores[judge][c] for c in cells if system_of.get(c) == s]
            out.append(float(np.mean(vals)) if vals else None)
        return out

    ref = means(primary)
    judges = {
        j: {"spearman": spearman(means(j), ref), "kendall": kendall_tau_b(means(j), ref), "n_systems": len(systems)}
        for j in scores
    }
    names = sorted(scores)
    pairwise = {
        f"{a}__{b}": {
            "n": len(cells),
            "pearson": pearson([scores[a][c] for c in cells], [scores[b][c] for c in cells]),
            "spearman": spearman([scores[a][c] for c in cells], [scores[b][c] for c in cells]),
            "mae": mae([scores[a][c] for c in cells], [scores[b][c] for c in cells]),
        }
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    }
    return {
        "method": "per-system mean raw of each judge vs the primary judge's (Spearman, Kendall tau-b) and pairwise "
        "per-generation agreement, on the generations scored by every judge",
        "inputs": {"judges": names, "cells": len(cells), "systems": len(systems)},
        "source": "per_annotation",
        "primary": primary,
        "n_cells": len(cells),
        "judges": judges,
        "pairwise": pairwise,
    }


def inter_judge_rank(data: StudyData) -> dict[str, Any]:
    """Spearman / Kendall tau-b of each judge's per-system means vs the primary judge's: from per-generation
    scores of several judges when present, else from released per-judge per-system aggregates."""
    if len(data.generation_judge_scores) >= 2:
        return _inter_judge_from_cells(data)
    swap = data.judge_swap.get("per_judge_per_system") or {}
    primary = (data.judge_swap.get("_meta") or {}).get("primary_judge")
    if not swap or primary not in swap:
        return {
            "method": "rank agreement of per-system mean raw scores against the primary judge",
            "inputs": {"judges": len(data.generation_judge_scores)},
            "source": "unavailable",
            "reason": "no per-judge per-system aggregates",
            "judges": {},
        }
    systems = sorted(swap[primary])
    ref = [swap[primary][s]["mean_raw"] for s in systems]
    judges = {}
    for judge, table in swap.items():
        vals = [table.get(s, {}).get("mean_raw") for s in systems]
        judges[judge] = {
            "spearman": spearman(vals, ref),
            "kendall": kendall_tau_b(vals, ref),
            "n_systems": len(systems),
        }
    return {
        "method": "rank agreement of per-system mean raw scores against the primary judge on shared cells",
        "inputs": {"judges": len(judges), "systems": len(systems)},
        "source": "released_aggregates",
        "primary": primary,
        "judges": judges,
    }
