"""Build :class:`StudyData` from a benger store (what ``benger run`` / ``judge`` / the study app wrote)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import numpy as np

from benger.analysis._data import (
    CorpusSummary,
    GenScore,
    HumanAnnotation,
    ReviewRow,
    Solution,
    StudyData,
    SystemMeta,
    short_grader,
)
from benger.schema import Judgement

_TYPES = {"traditional": "human_traditional", "co_creation": "human_co_creation"}


def _primary(judgements: list[Judgement], corpus_targets: set[str]) -> str | None:
    counts = Counter(j.judge for j in judgements if j.target_id in corpus_targets and j.repeat_index == 0)
    return counts.most_common(1)[0][0] if counts else None


def _summaries(store: Any, corpus: str, judge: str | None, systems: dict[str, SystemMeta]) -> dict[str, CorpusSummary]:
    """Per-system summary of a corpus from its stored generations and the judge's first-pass totals."""
    if corpus not in store.corpus_names() or judge is None:
        return {}
    gold = {t.task_id: getattr(t, "gold_answer", None) for t in store.load_corpus(corpus).tasks}
    gens = [g for g in store.generations(corpus=corpus, status="ok") if g.task_id in gold]
    scores = {
        j.target_id: j
        for j in store.judgements(judge=judge, target_kind="generation", status="scored")
        if j.repeat_index == 0 and j.total is not None
    }
    by_system: dict[str, list[Any]] = defaultdict(list)
    for g in gens:
        by_system[g.system].append(g)
    out = {}
    for system, rows in by_system.items():
        raws = np.asarray([scores[g.generation_id].total for g in rows if g.generation_id in scores], dtype=float)
        if raws.size == 0:
            continue
        answered = [g for g in rows if g.answer is not None and gold.get(g.task_id)]
        acc = float(np.mean([g.answer == gold[g.task_id] for g in answered])) if answered else None
        out[system] = CorpusSummary(
            n=int(raws.size),
            n_generations=len(rows),
            mean=float(raws.mean()),
            sd=float(raws.std(ddof=1)) if raws.size > 1 else 0.0,
            pass_rate=float(np.mean(raws >= 49.5)),
            accuracy=acc,
        )
    return out


def study_from_store(store: Any, *, corpus: str = "benchathon", primary_judge: str | None = None) -> StudyData:
    """The dataset of one Falllösung corpus in ``store``; the primary judge defaults to the judge with most
    first-pass judgements of its generations. Judges on reviewed solutions become the per-pick judge scores."""
    systems = {
        s.name: SystemMeta(s.name, s.display_name or s.name, s.tier, s.provider_family or s.provider, s.weights)
        for s in store.systems()
    }
    tasks = store.load_corpus(corpus).tasks
    task_areas = {t.task_id: t.area for t in tasks}
    gens = store.generations(corpus=corpus)
    gen_ids = {g.generation_id for g in gens}
    judgements = [j for j in store.judgements(status="scored") if j.total is not None]
    primary = primary_judge or _primary(judgements, gen_ids) or "primary"
    first: dict[str, Judgement] = {}
    repeats: dict[str, list[float]] = defaultdict(list)
    for j in judgements:
        if j.judge == primary and j.target_id in gen_ids:
            if j.repeat_index == 0:
                first[j.target_id] = j
            else:
                repeats[j.target_id].append(float(j.total or 0.0))
    generations = [
        GenScore(
            generation_id=g.generation_id,
            system=g.system,
            task_id=g.task_id,
            raw=float(first[g.generation_id].total or 0.0),
            dims=dict(first[g.generation_id].dimensions or {}),
            superseded=g.status != "ok" or bool(g.meta.get("superseded")),
        )
        for g in gens
        if g.generation_id in first and g.status in ("ok", "excluded")
    ]
    gen_by_id = {g.generation_id: g for g in gens}
    humans = {h.solution_id: h for h in store.human_solutions()}

    solutions: dict[str, Solution] = {}
    reviews = []
    for pos, r in enumerate(store.human_reviews()):
        if r.target_id not in solutions:
            if r.target_kind == "generation":
                g = gen_by_id.get(r.target_id)
                sol = Solution(
                    r.target_id, "llm", "llm_system", r.task_id, task_areas.get(r.task_id), g.system if g else None
                )
            else:
                h = humans.get(r.target_id)
                stype = _TYPES.get(h.condition, "human") if h else "human"
                sol = Solution(
                    r.target_id, "human", stype, r.task_id, task_areas.get(r.task_id), h.participant_id if h else None
                )
            solutions[r.target_id] = sol
        reviews.append(
            ReviewRow(
                r.target_id,
                short_grader(r.grader_id),
                r.role,
                r.raw_score,
                r.grade_points,
                r.passed,
                dict(r.dimensions),
                r.position if r.position is not None else pos,
            )
        )

    judge_scores: dict[str, dict[str, float]] = defaultdict(dict)
    per_generation: dict[str, dict[str, float]] = defaultdict(dict)
    for j in judgements:
        if j.repeat_index == 0 and j.target_id in solutions:
            judge_scores[j.judge][j.target_id] = float(j.total or 0.0)
        if j.repeat_index == 0 and j.target_id in gen_ids:
            per_generation[j.judge][j.target_id] = float(j.total or 0.0)
    primary_human = {
        j.target_id: float(j.total or 0.0)
        for j in judgements
        if j.judge == primary and j.repeat_index == 0 and j.target_kind == "human_solution"
    }
    annotations = [
        HumanAnnotation(
            h.solution_id,
            h.condition,
            h.participant_id,
            h.task_id,
            task_areas.get(h.task_id),
            primary_human.get(h.solution_id),
        )
        for h in humans.values()
        if h.task_id in task_areas
    ]
    metrics: dict[str, dict[str, float]] = defaultdict(dict)
    solution_metrics: dict[str, dict[str, float]] = defaultdict(dict)
    final_ids = {g.generation_id for g in generations if not g.superseded}
    for m in store.metric_values():
        if m.target_kind == "generation" and m.target_id in final_ids:
            metrics[m.metric][m.target_id] = m.value
        if m.target_id in solutions:
            solution_metrics[m.metric][m.target_id] = m.value
    return StudyData(
        systems=systems,
        task_areas=task_areas,
        generations=generations,
        solutions=solutions,
        reviews=reviews,
        judge_scores=dict(judge_scores),
        judge_labels={j: j for j in judge_scores},
        primary_judge=primary,
        repeats={k: tuple(v) for k, v in repeats.items()},
        metrics=dict(metrics),
        solution_metrics=dict(solution_metrics),
        annotations=annotations,
        generation_judge_scores=dict(per_generation),
        zjs=_summaries(store, "zjs", primary, systems),
        grundprinzipien=_summaries(store, "grundprinzipien", primary, systems),
        inputs={
            "source": "store",
            "corpus": corpus,
            "n_generations": len(generations),
            "n_reviews": len(reviews),
            "n_judgements": len(judgements),
        },
    )
