"""RQ1 (leaderboard in the Table 1 layout) and RQ2 (tier / provider / weights aggregates and gaps)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np

from benger.analysis._data import CorpusSummary, StudyData
from benger.analysis.leaderboard.table1 import table1_from_study
from benger.judge import grade_points
from benger.stats import (
    bootstrap_diff_ci,
    bootstrap_mean_ci,
    cluster_bootstrap_diff_ci,
    cluster_bootstrap_mean_ci,
    normal_ci_from_summary,
)

RAW_SCALE = (0.0, 100.0)


def _bench_block(raws: list[float], rng: np.random.Generator, n_boot: int) -> dict[str, Any]:
    arr = np.asarray(raws, dtype=float)
    ci = bootstrap_mean_ci(arr, n_resamples=n_boot, seed=rng)
    return {
        "n": int(arr.size),
        "raw": ci.estimate,
        "low": ci.low,
        "high": ci.high,
        "halfwidth": ci.half_width,
        "pass_rate": float(np.mean(arr >= 49.5)),
        "grade_points": float(np.mean([grade_points(x) for x in arr])),
    }


def _summary_block(s: CorpusSummary, *, acc: bool) -> dict[str, Any]:
    ci = normal_ci_from_summary(s.mean, s.sd, s.n, bounds=RAW_SCALE)
    out = {
        "n": s.n_generations,
        "n_judged": s.n,
        "raw": s.mean,
        "low": ci.low,
        "high": ci.high,
        "halfwidth": ci.half_width,
        "pass_rate": s.pass_rate,
        "source": "released_aggregates",
    }
    if acc:
        out["acc"] = s.accuracy
    return out


def _human_rows(data: StudyData, rng: np.random.Generator, n_boot: int) -> list[dict[str, Any]]:
    rows = []
    groups = {"human_all": None, "human_traditional": "traditional", "human_co_creation": "co_creation"}
    for name, cond in groups.items():
        anns = [a for a in data.annotations if a.condition is not None and (cond is None or a.condition == cond)]
        scored = [a.judge_raw for a in anns if a.judge_raw is not None]
        if scored and len(scored) == len(anns) and data.human_sample is None:
            bench: dict[str, Any] = {**_bench_block(scored, rng, n_boot), "source": "per_annotation"}
        else:
            sample = f"; the data hold {data.human_sample}" if data.human_sample else ""
            bench = {
                "source": "unavailable",
                "reason": f"judge scores exist for {len(scored)} of {len(anns)} human solutions{sample}",
                "n_solutions": len(anns),
            }
        reviews = [
            r for r in data.reviews if (c := data.solutions[r.solution_id].condition) and (cond is None or c == cond)
        ]
        if reviews:
            bench["human_raw"] = float(np.mean([r.raw for r in reviews]))
            passes = [r.passed for r in reviews if r.passed is not None]  # None: the rubric has no pass rule
            bench["human_pass_rate"] = float(np.mean(passes)) if passes else None
            bench["human_n_reviews"] = len(reviews)
        rows.append({"system": name, "display": name.replace("_", " ").capitalize(), "kind": "human", "bench": bench})
    return rows


def leaderboard(data: StudyData, *, seed: int = 0, n_boot: int = 2000) -> dict[str, Any]:
    """Table 1: Benchathon (bootstrap CI), ZJS and Grundprinzipien (normal CI from summaries), ranked.

    For a study run from a store this is the one leaderboard of ``benger leaderboard``
    (:func:`benger.analysis.leaderboard.table1.table1_from_study`), plus the human rows.
    """
    rng = np.random.default_rng(seed)
    block = table1_from_study(data, seed=seed, n_boot=n_boot)
    if block is not None:
        return {**block, "rows": block["rows"] + _human_rows(data, rng, n_boot)}
    per_system: dict[str, list[float]] = defaultdict(list)
    for g in data.final_generations():
        per_system[g.system].append(g.raw)
    names = sorted(set(per_system) | set(data.zjs) | set(data.grundprinzipien))
    # every corpus of Table 1 is scored by the primary judge: its validation (the release's) names each row
    status = data.judge_status or {}
    rows = []
    for name in names:
        meta = data.systems.get(name)
        row: dict[str, Any] = {
            "system": name,
            "display": meta.display if meta else name,
            "tier": meta.tier if meta else None,
            "provider": meta.provider if meta else None,
            "weights": meta.weights if meta else None,
            "kind": "system",
            "judge": status.get("judge"),
            "judge_status": status.get("label"),
            "scores_meaningful": status.get("scores_meaningful"),
            "bench": _bench_block(per_system[name], rng, n_boot) if per_system.get(name) else None,
            "zjs": _summary_block(data.zjs[name], acc=False) if name in data.zjs else None,
            "gp": _summary_block(data.grundprinzipien[name], acc=True) if name in data.grundprinzipien else None,
        }
        means = [row[k]["raw"] for k in ("bench", "zjs", "gp") if row[k]]
        row["sort_key"] = float(np.mean(means))
        rows.append(row)
    rows.sort(key=lambda r: -r["sort_key"])
    for i, row in enumerate(rows, 1):
        row["rank"] = i
    return {
        "method": "Benchathon: mean primary-judge raw per generation, 95% percentile bootstrap CI (iid); ZJS and "
        "Grundprinzipien: released per-system summaries, mean ± 1.96·sd/sqrt(n); pass = grade points >= 4; ranked by "
        "the mean of the available per-corpus means",
        "inputs": {
            "generations": len(data.final_generations()),
            "zjs_systems": len(data.zjs),
            "gp_systems": len(data.grundprinzipien),
            "seed": seed,
            "n_boot": n_boot,
        },
        "rows": rows + _human_rows(data, rng, n_boot),
    }


def _cell_mean(values: list[float] | None) -> float | None:
    """np.mean of a heatmap cell (None when empty); a cell of one generation is its value without a numpy call
    (a store has one per system and task unless it repeats generations): ``v + 0.0``, as numpy's sum from 0.0
    gives it (-0.0 becomes 0.0; any other value is itself, so its float object is kept: 6 MiB of results at 256k
    generations)."""
    if not values:
        return None
    if len(values) == 1:
        v = float(values[0])
        return v if v else v + 0.0
    return float(np.mean(values))


def task_system(data: StudyData) -> dict[str, Any]:
    """Mean primary-judge raw per (system, task), systems by overall mean, tasks grouped by area."""
    cells: dict[tuple[str, str], list[float]] = defaultdict(list)
    for g in data.final_generations():
        cells[(g.system, g.task_id)].append(g.raw)
    overall: dict[str, list[float]] = defaultdict(list)
    for (s, _), v in cells.items():
        overall[s] += v
    systems = sorted(overall, key=lambda s: (-float(np.mean(overall[s])), s))
    areas = {a: i for i, a in enumerate(dict.fromkeys(data.task_areas.values()))}  # first-appearance order
    position = {t: i for i, t in enumerate(data.task_areas)}
    tasks = sorted(data.task_areas, key=lambda t: (areas[data.task_areas[t]], position[t]))
    return {
        "method": "mean primary-judge raw score per system and task (final generations)",
        "inputs": {"generations": len(data.final_generations())},
        "systems": [
            {
                "system": s,
                "display": data.systems[s].display if s in data.systems else s,
                "mean": float(np.mean(overall[s])),
            }
            for s in systems
        ],
        "tasks": [{"task_id": t, "label": f"T{i + 1:02d}", "area": data.task_areas[t]} for i, t in enumerate(tasks)],
        "values": [[_cell_mean(cells.get((s, t))) for t in tasks] for s in systems],
        "n": [[len(cells.get((s, t), [])) for t in tasks] for s in systems],
    }


def _ranked_systems(data: StudyData) -> set[str]:
    """The systems RQ2 aggregates: those with final Benchathon generations or a ZJS / Grundprinzipien summary
    (never every stored system: a judge or a system of another corpus is no input)."""
    return {g.system for g in data.final_generations()} | set(data.zjs) | set(data.grundprinzipien)


def group_aggregates(data: StudyData, *, seed: int = 0, n_boot: int = 2000) -> dict[str, Any]:
    """RQ2: per tier / provider / weights. Benchathon pools per-generation raws (bootstrap CI: per generation, the
    paper's rule, or in a new study over whole tasks, ``StudyData.resampling_unit``); the summary-only corpora use
    the unweighted mean of the per-system means (no CI)."""
    rng = np.random.default_rng(seed + 2)
    keys = {"by_tier": "tier", "by_provider": "provider", "by_weights": "weights"}
    unit = data.resampling_unit
    out: dict[str, Any] = {
        "method": "Benchathon: pooled per-generation primary-judge raws per group with a 95% percentile bootstrap ("
        + (
            "whole tasks resampled, with every generation of the group on them: a new study"
            if unit == "task"
            else "each generation resampled: the paper's rule, kept for reproduce"
        )
        + "); ZJS / Grundprinzipien: unweighted mean (min, max) of the per-system means",
        "inputs": {"systems": len(_ranked_systems(data)), "resampling_unit": unit},
    }
    bench: dict[str, Any] = {}
    for dim, attr in keys.items():
        groups: dict[str, list[Any]] = defaultdict(list)
        for g in data.final_generations():
            meta = data.systems.get(g.system)
            if meta and getattr(meta, attr):
                groups[getattr(meta, attr)].append(g)
        bench[dim] = {}
        for name, gens in groups.items():
            raws = [g.raw for g in gens]
            if unit == "task":
                ci = cluster_bootstrap_mean_ci(raws, [g.task_id for g in gens], n_resamples=n_boot, seed=rng)
            else:
                ci = bootstrap_mean_ci(raws, n_resamples=n_boot, seed=rng)
            systems = sorted({g.system for g in gens})
            bench[dim][name] = {
                "n_systems": len(systems),
                "n": len(gens),
                "mean": ci.estimate,
                "low": ci.low,
                "high": ci.high,
                "systems": systems,
            }
    out["benchathon"] = bench
    for corpus, table in (("zjs", data.zjs), ("grundprinzipien", data.grundprinzipien)):
        block: dict[str, Any] = {}
        for dim, attr in keys.items():
            groups2: dict[str, list[float]] = defaultdict(list)
            for name, summ in table.items():
                meta = data.systems.get(name)
                if meta and getattr(meta, attr):
                    groups2[getattr(meta, attr)].append(summ.mean)
            block[dim] = {
                g: {"n_systems": len(v), "mean": float(np.mean(v)), "min": min(v), "max": max(v)}
                for g, v in groups2.items()
            }
        out[corpus] = block
    gaps: dict[str, Any] = {}
    for corpus in ("benchathon", "zjs", "grundprinzipien"):
        tier, weights = out[corpus]["by_tier"], out[corpus]["by_weights"]

        def gap(table: dict[str, Any], a: str, b: str) -> float | None:
            return table[a]["mean"] - table[b]["mean"] if a in table and b in table else None

        gaps[corpus] = {
            "flagship_minus_open_reference": gap(tier, "flagship", "open_reference"),
            "flagship_minus_efficiency": gap(tier, "flagship", "efficiency"),
            "closed_minus_open": gap(weights, "closed", "open"),
        }
    out["gaps"] = gaps
    out["gap_ci"] = {"benchathon": _bench_gap_ci(data, rng, n_boot)}
    return out


def _bench_gap_ci(data: StudyData, rng: np.random.Generator, n_boot: int) -> dict[str, Any]:
    """Bootstrap CIs (two independent arms of per-generation raws; whole tasks per arm in a new study) for the
    Benchathon group gaps."""
    pools: dict[tuple[str, str], list[float]] = defaultdict(list)
    tasks: dict[tuple[str, str], list[str]] = defaultdict(list)
    for g in data.final_generations():
        meta = data.systems.get(g.system)
        if meta:
            for key in (("tier", meta.tier or ""), ("weights", meta.weights or "")):
                pools[key].append(g.raw)
                tasks[key].append(g.task_id)
    out: dict[str, Any] = {}
    for name, a, b in (
        ("flagship_minus_open_reference", ("tier", "flagship"), ("tier", "open_reference")),
        ("flagship_minus_efficiency", ("tier", "flagship"), ("tier", "efficiency")),
        ("closed_minus_open", ("weights", "closed"), ("weights", "open")),
    ):
        if len(pools.get(a, [])) >= 2 and len(pools.get(b, [])) >= 2:
            if data.resampling_unit == "task":
                ci = cluster_bootstrap_diff_ci(pools[a], tasks[a], pools[b], tasks[b], n_resamples=n_boot, seed=rng)
            else:
                ci = bootstrap_diff_ci(pools[a], pools[b], n_resamples=n_boot, seed=rng)
            out[name] = {"estimate": ci.estimate, "low": ci.low, "high": ci.high}
        else:
            out[name] = None
    return out
