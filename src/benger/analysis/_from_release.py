"""Build the :class:`~benger.analysis._records.StudyContents` of the official release (via the one release loader).

Besides what a store gives, it fills the release-only fields: ``operational`` (paper Table 8), ``metrics_all``,
``human_metrics`` and ``zjs_superseded_dropped``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from benger.analysis._records import (
    CorpusSummary,
    GenScore,
    HumanAnnotation,
    ReviewRow,
    Solution,
    StudyContents,
    SystemMeta,
    short_grader,
)
from benger.analysis.leaderboard.validity import status_block
from benger.corpora import load_release
from benger.corpora._release import Release
from benger.judge._released import PRIMARY_JUDGE, released_config_hash

_VARIANTS = {"ai": "co_creation", "no_ai": "traditional"}
# Summary columns ending in "_mean" that are judge quantities, not automatic metrics (kept out of RQ3).
_JUDGE_COLUMNS = frozenset({"grade_points_mean"})


def _operational(release: Release) -> dict[str, Any]:
    keys = ("provider_family", "tier", "weights", "temperature", "max_output_tokens")
    systems = {}
    for s in release.systems:
        row = {k: getattr(s.config, k) for k in keys}
        row["n_truncated"] = s.raw.get("n_truncated")
        row["mean_output_words"] = s.raw.get("mean_output_words")
        systems[s.config.name] = row
    total = Counter(g.system for g in release.generations)
    final = Counter(g.system for g in release.generations if g.generation_id not in release.superseded_ids)
    meta = release.operational_metadata or {}
    return {
        "systems": systems,
        "generation_counts": {name: (total[name], final[name]) for name in systems},
        "words": [(str(r["model"]), float(r["words"])) for r in release.generation_stats],
        "per_call": (meta.get("per_corpus") or {}).get("benchathon") or {},
        "observed": meta.get("sampling_params_observed") or {},
    }


def _primary_key(release: Release, gen_raw: dict[str, float]) -> str:
    """The anchor judge key whose per-pick LLM scores equal the released primary-judge generation scores."""
    by_judge: dict[str, list[bool]] = {}
    for row in release.anchors:
        if row.solution_id in gen_raw:
            by_judge.setdefault(row.judge, []).append(abs(gen_raw[row.solution_id] - row.y_judge) < 1e-6)
    matches = [j for j, ok in by_judge.items() if ok and all(ok)]
    return matches[0] if matches else "primary"


def _summaries(rows: tuple[dict, ...], prefix: str, pass_key: str) -> dict[str, CorpusSummary]:
    out = {}
    for rec in rows:
        m = rec["metrics"]
        out[rec["system"]] = CorpusSummary(
            n=int(m[f"{prefix}_n"]),
            n_generations=int(rec.get("n_generations", m[f"{prefix}_n"])),
            mean=float(m[f"{prefix}_mean"]),
            sd=float(m[f"{prefix}_stdev"]),
            pass_rate=m.get(pass_key),
            accuracy=m.get("accuracy"),
            metrics={
                k: float(v)
                for k, v in m.items()
                if k.endswith("_mean") and not k.startswith(prefix) and k not in _JUDGE_COLUMNS
            },
        )
    return out


def study_from_release(path: str | Path) -> StudyContents:
    release = load_release(path)
    systems = {
        s.config.name: SystemMeta(
            name=s.config.name,
            display=s.config.display_name or s.config.name,
            tier=s.config.tier,
            provider=s.config.provider_family,
            weights=s.config.weights,
        )
        for s in release.systems
    }
    scores = {j.target_id: j for j in release.judgements}
    generations = []
    for g in release.generations:
        j = scores[g.generation_id]
        assert j.total is not None and j.dimensions is not None  # the loader validated both
        generations.append(
            GenScore(
                generation_id=g.generation_id,
                system=g.system,
                task_id=g.task_id,
                raw=j.total,
                dims=dict(j.dimensions),
                superseded=g.generation_id in release.superseded_ids,
            )
        )
    gen_raw = {g.generation_id: g.raw for g in generations}
    pick_of = {p.subject_id: p.pick_id for p in release.picks}

    solutions: dict[str, Solution] = {}
    reviews = []
    for r in release.reviews:
        stype = str(r.meta["solution_type"])
        solutions.setdefault(
            r.target_id,
            Solution(
                solution_id=r.target_id,
                pool="llm" if stype == "llm_system" else "human",
                solution_type=stype,
                task_id=r.task_id,
                area=r.meta.get("area"),
                author=r.meta.get("author"),
                pick_id=pick_of.get(r.target_id),
            ),
        )
        reviews.append(
            ReviewRow(
                solution_id=r.target_id,
                grader=short_grader(r.grader_id),
                role=r.role,
                raw=r.raw_score,
                grade_points=r.grade_points,
                passed=r.passed,
                dims=dict(r.dimensions),
                position=r.position or 0,
            )
        )

    primary = _primary_key(release, gen_raw)
    judge_scores: dict[str, dict[str, float]] = {}
    labels: dict[str, str] = {}
    for row in release.anchors:
        judge_scores.setdefault(row.judge, {})[row.solution_id] = row.y_judge
        labels.setdefault(row.judge, row.judge_label)
    primary_scores = judge_scores.setdefault(primary, {})
    labels.setdefault(primary, "primary judge")
    for sid, sol in solutions.items():
        if sol.pool == "llm" and sid in gen_raw:
            primary_scores.setdefault(sid, gen_raw[sid])

    metrics: dict[str, dict[str, float]] = {}
    for m in release.metrics:
        if not m.superseded:
            metrics.setdefault(m.metric, {})[m.generation_id] = m.value

    solution_metrics: dict[str, dict[str, float]] = {}
    for m in release.metrics:
        if m.generation_id in solutions:
            solution_metrics.setdefault(m.metric, {})[m.generation_id] = m.value
    for hm in release.human_metrics:
        if hm.annotation_id in solutions:
            solution_metrics.setdefault(hm.metric, {})[hm.annotation_id] = hm.value

    # The study's human solutions are the annotations that were scored (have computed metrics): 220 = 65 + 155.
    # The other annotations with an instruction variant hold no solution and stay out of every human count.
    scored_ids = {hm.annotation_id for hm in release.human_metrics}
    annotations = []
    for aid, variant in release.instruction_variants.items():
        if aid not in scored_ids:
            continue
        known = solutions.get(aid)
        annotations.append(
            HumanAnnotation(
                annotation_id=aid,
                condition=_VARIANTS.get(variant) if variant else None,
                participant=known.author if known else None,
                task_id=known.task_id if known else None,
                area=known.area if known else None,
                judge_raw=primary_scores.get(aid),
            )
        )
    metrics_all: dict[str, dict[str, float]] = {}
    for m in release.metrics:
        metrics_all.setdefault(m.metric, {})[m.generation_id] = m.value
    human_metrics: dict[str, dict[str, tuple[str | None, float]]] = {}
    for hm in release.human_metrics:
        condition = _VARIANTS.get(hm.variant) if hm.variant else None
        human_metrics.setdefault(hm.metric, {})[hm.annotation_id] = (condition, hm.value)
    return StudyContents(
        operational=_operational(release),
        metrics_all=metrics_all,
        human_metrics=human_metrics,
        zjs_superseded_dropped={
            str(rec["system"]): int(rec.get("n_superseded_dropped") or 0) for rec in release.zjs_summary
        },
        systems=systems,
        task_areas={t.task_id: t.area for t in release.benchathon.tasks},
        generations=generations,
        solutions=solutions,
        reviews=reviews,
        judge_scores=judge_scores,
        judge_labels=labels,
        primary_judge=primary,
        # every score of the release is its primary judge's: the released validation names them
        judge_status=status_block(PRIMARY_JUDGE, released_config_hash(PRIMARY_JUDGE)),
        repeats={r.generation_id: r.raw_scores for r in release.judge_repeats},
        metrics=metrics,
        solution_metrics=solution_metrics,
        annotations=annotations,
        zjs=_summaries(release.zjs_summary, "llm_judge_falloesung_raw", "pass_rate"),
        grundprinzipien=_summaries(release.gp_summary, "judge_raw", "judge_pass_rate"),
        judge_swap=release.judge_swap,
        inputs={
            "source": "release",
            "path": str(release.path),
            "n_tasks": len(release.benchathon.tasks),
            "n_generations": len(release.generations),
            "n_superseded": len(release.superseded_ids),
            "n_reviews": len(release.reviews),
            "n_picks": len(release.picks),
            "n_anchor_rows": len(release.anchors),
            "n_repeats": len(release.judge_repeats),
            "n_annotations_with_variant": len(release.instruction_variants),
            "n_human_solutions": len(annotations),
            "n_annotations_without_solution": len(release.instruction_variants) - len(annotations),
        },
    )
