"""RQ3 (automatic metrics vs the judge) and RQ4 (co-creation effect)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, NamedTuple

import numpy as np

from benger.analysis._data import StudyData
from benger.judge import grade_points_linear
from benger.stats import (
    Interval,
    bootstrap_diff_ci,
    bootstrap_mean_ci,
    bootstrap_pearson_ci,
    bootstrap_tost,
    cluster_bootstrap_diff_ci,
    cluster_bootstrap_mean_ci,
    named_rng,
    pearson,
    spearman,
)

TOST_MARGIN = 5.0
#: How each resampling unit is named in a block's ``method`` (``StudyData.resampling_unit``).
UNIT_TEXT = {
    "generation": "resampling unit: each generation / solution / annotation (the paper's rule, kept for reproduce)",
    "task": "resampling unit: the task (a new study: whole tasks resampled with all their generations, "
    "repetitions and solutions, as the leaderboard does)",
}
#: The RQ4 interval to quote per resampling unit: the participant cluster in reproduce (the paper's body and
#: Table 10 quote it), the task cluster in a new study (the unit the leaderboard resamples); the other intervals
#: of an effect are robustness checks.
HEADLINE = {"generation": "participant_cluster", "task": "task_cluster"}


def _tasks_of(data: StudyData, ids: list[str], task: dict[str, str]) -> list[str] | None:
    """The task label of each id for a task-level bootstrap, or None under the paper's per-item rule."""
    return [task[i] for i in ids] if data.resampling_unit == "task" else None


def metric_vs_human(data: StudyData, *, seed: int = 0, n_boot: int = 2000) -> dict[str, Any]:
    """Each metric vs the mean blind human raw of the reviewed solutions (human-written, LLM, pooled)."""
    blind: dict[str, list[float]] = defaultdict(list)
    for r in data.blind_reviews():
        blind[r.solution_id].append(r.raw)
    groups = {"human_authored": "human", "llm_generated": "llm", "pooled": None}
    table: dict[str, Any] = {}
    for metric, values in sorted(data.solution_metrics.items()):
        cells = {}
        for name, pool in groups.items():
            ids = [s for s in blind if s in values and (pool is None or data.solutions[s].pool == pool)]
            x, y = [values[s] for s in ids], [float(np.mean(blind[s])) for s in ids]
            rng = named_rng(seed, "rq3.metric_vs_human", metric, name)  # by name: other metrics never shift it
            tasks = _tasks_of(data, ids, {s: data.solutions[s].task_id for s in ids})
            corr, low, high = bootstrap_pearson_ci(x, y, n_resamples=n_boot, seed=rng, clusters=tasks)
            cells[name] = {"n": len(ids), "pearson": corr, "low": low, "high": high, "spearman": spearman(x, y)}
        table[metric] = cells
    return {
        "method": "Pearson (paired percentile bootstrap CI; each cell's generator seeded from the run seed and the "
        f"metric and group names; {UNIT_TEXT[data.resampling_unit]}) and Spearman of each metric vs the mean blind "
        "raw score",
        "inputs": {
            "solutions_with_blind_reviews": len(blind),
            "n_boot": n_boot,
            "resampling_unit": "solution" if data.resampling_unit == "generation" else "task",
        },
        "metrics": table,
    }


def metric_validity(data: StudyData, *, seed: int = 0, n_boot: int = 2000) -> dict[str, Any]:
    """RQ3 (paper Table 12): per-generation and per-system Pearson / Spearman of each metric against the
    primary-judge raw. Per system, the metric mean is over the generations that have the metric and the judge
    mean over ALL the system's final generations (a missing metric value never changes the judge side)."""
    judge = {g.generation_id: g for g in data.final_generations()}
    judge_by_sys: dict[str, list[float]] = defaultdict(list)
    for gen in judge.values():
        judge_by_sys[gen.system].append(gen.raw)
    per_gen, per_sys = {}, {}
    for metric, values in data.metrics.items():
        ids = [gid for gid in values if gid in judge]
        x, y = [values[g] for g in ids], [judge[g].raw for g in ids]
        per_gen[metric] = {"n": len(ids), "pearson": pearson(x, y), "spearman": spearman(x, y)}
        tasks = _tasks_of(data, ids, {g: judge[g].task_id for g in ids})
        if tasks is not None:  # a new study: r's interval over tasks (the paper prints none)
            rng = named_rng(seed, "rq3.per_generation", metric)
            _, low, high = bootstrap_pearson_ci(x, y, n_resamples=n_boot, seed=rng, clusters=tasks)
            per_gen[metric] |= {"low": low, "high": high, "n_tasks": len(set(tasks))}
        by_sys: dict[str, list[float]] = defaultdict(list)
        for g in ids:
            by_sys[judge[g].system].append(values[g])
        systems = sorted(by_sys)
        ms = [float(np.mean(by_sys[s])) for s in systems]
        js = [float(np.mean(judge_by_sys[s])) for s in systems]
        per_sys[metric] = {"n_systems": len(systems), "pearson": pearson(ms, js), "spearman": spearman(ms, js)}
    out: dict[str, Any] = {
        "per_generation": {
            "method": "Pearson / Spearman of metric vs primary-judge raw over generations with both"
            + (
                "; Pearson's 95% percentile bootstrap interval (each metric's generator named_rng(seed, "
                f"'rq3.per_generation', metric); {UNIT_TEXT['task']})"
                if data.resampling_unit == "task"
                else " (no interval, as the paper)"
            ),
            "inputs": {"generations": len(judge)}
            | ({"n_boot": n_boot, "resampling_unit": "task"} if data.resampling_unit == "task" else {}),
            "metrics": per_gen,
        },
        "per_system": {
            "method": "Pearson / Spearman of per-system metric means (generations with the metric) vs per-system "
            "judge means (all final generations)",
            "inputs": {"systems": len(judge_by_sys)},
            "metrics": per_sys,
        },
    }
    out["metric_vs_human"] = metric_vs_human(data, seed=seed, n_boot=n_boot)
    for corpus, table in (("zjs", data.zjs), ("grundprinzipien", data.grundprinzipien)):
        names = sorted({k for s in table.values() for k in s.metrics})
        block = {}
        for key in names:
            rows = [(s.metrics[key], s.mean) for s in table.values() if key in s.metrics]
            block[key.removesuffix("_mean")] = {
                "n_systems": len(rows),
                "pearson": pearson(*zip(*rows, strict=True)),
                "spearman": spearman(*zip(*rows, strict=True)),
            }
        out[corpus] = {
            "per_system": {
                "method": "per-system metric means vs judge means (released summaries)",
                "inputs": {"systems": len(table)},
                "source": "released_aggregates",
                "metrics": block,
            }
        }
    return out


class _Obs(NamedTuple):
    value: float
    condition: str
    participant: str
    task: str
    area: str


def _iv(ci: Interval) -> dict[str, float | None]:
    return {"estimate": ci.estimate, "low": ci.low, "high": ci.high}


def _group_ci(
    values: list[float], rng: np.random.Generator, n_boot: int, tasks: list[str] | None = None
) -> dict[str, Any]:
    """``{n, mean, low, high}``: one group's mean with a 95% percentile bootstrap (None bounds when n < 2), over
    whole tasks when ``tasks`` labels the values (then also ``n_tasks``)."""
    if tasks is None:
        ci = bootstrap_mean_ci(values, n_resamples=n_boot, seed=rng)
        return {"n": len(values), "mean": ci.estimate, "low": ci.low, "high": ci.high}
    ci = cluster_bootstrap_mean_ci(values, tasks, n_resamples=n_boot, seed=rng)
    return {"n": len(values), "mean": ci.estimate, "low": ci.low, "high": ci.high, "n_tasks": len(set(tasks))}


def _diff(a: list[_Obs], b: list[_Obs], rng: np.random.Generator, n_boot: int, unit: str) -> Interval:
    """mean(a) - mean(b): iid two-sample bootstrap (the paper), or whole tasks resampled in each arm."""
    va, vb = [o.value for o in a], [o.value for o in b]
    if unit == "task":
        return cluster_bootstrap_diff_ci(va, [o.task for o in a], vb, [o.task for o in b], n_resamples=n_boot, seed=rng)
    return bootstrap_diff_ci(va, vb, n_resamples=n_boot, seed=rng)


def cocreation_effect(
    obs: list[_Obs],
    rng: np.random.Generator,
    n_boot: int,
    arm_rng: np.random.Generator | None = None,
    unit: str = "generation",
) -> dict[str, Any] | None:
    """Delta = mean(co-creation) - mean(traditional) with participant- and task-cluster and paired bootstraps,
    and in reproduce the iid one; ``headline`` names the interval to quote (:data:`HEADLINE`).

    With ``arm_rng`` (a stream of its own, so the delta intervals do not move) also ``arms: {arm: {n, mean, low,
    high}}``: each arm's mean with a 95% percentile bootstrap (Figure 1). ``unit="task"`` (a new study): the
    headline is the task cluster, ``iid`` is None (not computed: one task's or one participant's annotations are
    not independent), and the per-area deltas and the arms resample whole tasks instead of single observations."""
    a = [o for o in obs if o.condition == "co_creation"]
    b = [o for o in obs if o.condition == "traditional"]
    if len(a) < 2 or len(b) < 2:
        return None
    va, vb = [o.value for o in a], [o.value for o in b]
    delta = float(np.mean(va) - np.mean(vb))
    out: dict[str, Any] = {
        "n": {"traditional": len(b), "co_creation": len(a)},
        "mean": {"traditional": float(np.mean(vb)), "co_creation": float(np.mean(va))},
        "delta": delta,
        "delta_grade_points": grade_points_linear(delta),
        "headline": HEADLINE[unit],
        "iid": None if unit == "task" else _iv(bootstrap_diff_ci(va, vb, n_resamples=n_boot, seed=rng)),
    }
    for key, attr in (("participant_cluster", "participant"), ("task_cluster", "task")):
        ca, cb = [getattr(o, attr) for o in a], [getattr(o, attr) for o in b]
        if len(set(ca)) >= 2 and len(set(cb)) >= 2:
            out[key] = _iv(cluster_bootstrap_diff_ci(va, ca, vb, cb, n_resamples=n_boot, seed=rng))
            out[key]["n_clusters"] = {"traditional": len(set(cb)), "co_creation": len(set(ca))}
        else:
            out[key] = None
    pa: dict[str, list[float]] = defaultdict(list)
    pb: dict[str, list[float]] = defaultdict(list)
    for o in a:
        pa[o.participant].append(o.value)
    for o in b:
        pb[o.participant].append(o.value)
    both = sorted(set(pa) & set(pb))
    if len(both) >= 2:
        deltas = [float(np.mean(pa[p]) - np.mean(pb[p])) for p in both]
        out["paired"] = {"n_participants": len(both), **_iv(bootstrap_mean_ci(deltas, n_resamples=n_boot, seed=rng))}
    else:
        out["paired"] = {"n_participants": len(both), "estimate": None, "low": None, "high": None}
    by_area = {}
    for area in sorted({o.area for o in obs}):
        oa = [o for o in a if o.area == area]
        ob = [o for o in b if o.area == area]
        if len(oa) >= 2 and len(ob) >= 2:
            ci = _diff(oa, ob, rng, n_boot, unit)
            by_area[area] = {
                "n": {"traditional": len(ob), "co_creation": len(oa)},
                "mean": {
                    "traditional": float(np.mean([o.value for o in ob])),
                    "co_creation": float(np.mean([o.value for o in oa])),
                },
                "delta": ci.estimate,
                "low": ci.low,
                "high": ci.high,
            }
    out["by_area"] = by_area
    if arm_rng is not None:
        ta, tb = ([o.task for o in a], [o.task for o in b]) if unit == "task" else (None, None)
        out["arms"] = {
            "traditional": _group_ci(vb, arm_rng, n_boot, tb),
            "co_creation": _group_ci(va, arm_rng, n_boot, ta),
        }
    return out


def cocreation(data: StudyData, *, seed: int = 0, n_boot: int = 2000) -> dict[str, Any]:
    """RQ4 from per-annotation judge scores where they exist, and the blind-human cross-check on the picks."""
    rng = np.random.default_rng(seed + 4)
    arm_rng = np.random.default_rng(seed + 41)
    anns = [a for a in data.annotations if a.condition is not None]
    scored = [a for a in anns if a.judge_raw is not None and a.participant and a.task_id]
    complete = bool(anns) and len(scored) == len(anns) and data.human_sample is None
    unit = data.resampling_unit
    per = "whole tasks in each arm" if unit == "task" else "single observations (iid)"
    iid = (
        "no iid interval (one task's or participant's annotations are not independent)"
        if unit == "task"
        else "iid two-sample"
    )
    head = HEADLINE[unit].replace("_", "-")
    held = (
        f"the data hold {data.human_sample}"
        if data.human_sample
        else "the released data hold only the validation picks"
    )
    out: dict[str, Any] = {
        "method": f"Delta = mean(co-creation) - mean(traditional); 95% percentile bootstraps: {iid}, "
        "participant- and task-cluster (clusters resampled per arm), paired over participants in both arms, per area "
        f"({per}); headline interval: the {head} one (each effect's 'headline'), the others robustness checks; "
        f"TOST: 90% bootstrap interval of co-creation minus flagship-tier generations within "
        f"±{TOST_MARGIN:g} ({per}); arms and AI groups: {per}; {UNIT_TEXT[unit]}",
        "inputs": {
            "annotations_with_condition": len(anns),
            "with_judge_score": len(scored),
            "n_boot": n_boot,
            "resampling_unit": unit,
        },
        "source": "per_annotation" if complete else "unavailable",
        "reason": None
        if complete
        else (f"primary-judge scores exist for {len(scored)} of {len(anns)} human solutions; {held} (see judge_picks)"),
        "judge": None,
        "judge_picks": None,
    }
    obs = [
        _Obs(a.judge_raw, a.condition, a.participant, a.task_id, a.area or "")  # type: ignore[arg-type]
        for a in scored
    ]
    effect = cocreation_effect(obs, rng, n_boot, arm_rng, unit)
    if effect is not None:
        flag_gens = [
            g
            for g in data.final_generations()
            if (m := data.systems.get(g.system)) is not None and m.tier == "flagship"
        ]
        flagship = [g.raw for g in flag_gens]
        if flagship:
            co_obs = [o for o in obs if o.condition == "co_creation"]
            co = [o.value for o in co_obs]
            clusters = ([o.task for o in co_obs], [g.task_id for g in flag_gens]) if unit == "task" else None
            t = bootstrap_tost(co, flagship, margin=TOST_MARGIN, n_resamples=n_boot, seed=rng, clusters=clusters)
            effect["tost_vs_flagship"] = {
                "a_n": len(co),
                "b_n": len(flagship),
                "delta": t.estimate,
                "low90": t.low,
                "high90": t.high,
                "margin": t.margin,
                "equivalent": t.equivalent,
            }
        out["judge" if complete else "judge_picks"] = effect
    blind: dict[str, list[float]] = defaultdict(list)
    for r in data.blind_reviews("human"):
        blind[r.solution_id].append(r.raw)
    hobs = []
    for sid, vals in blind.items():
        sol = data.solutions[sid]
        if sol.condition:
            hobs.append(_Obs(float(np.mean(vals)), sol.condition, sol.author or sid, sol.task_id, sol.area or ""))
    bh = cocreation_effect(hobs, rng, n_boot, arm_rng, unit)
    if bh is not None:
        bh["method"] = "per human pick the mean blind raw; same bootstraps as the judge-based estimate"
        bh["inputs"] = {"human_picks_with_blind_reviews": len(hobs), "n_boot": n_boot}
        bh["source"] = "per_annotation"
    out["blind_human"] = bh
    gens = [g for g in data.final_generations() if g.raw is not None]
    groups = {
        "pooled": gens,
        "flagship": [g for g in gens if (m := data.systems.get(g.system)) is not None and m.tier == "flagship"],
    }
    out["ai"] = {
        k: _group_ci([float(g.raw) for g in v], arm_rng, n_boot, [g.task_id for g in v] if unit == "task" else None)
        for k, v in groups.items()
        if v
    }
    return out
