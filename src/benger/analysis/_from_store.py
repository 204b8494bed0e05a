"""Build :class:`StudyData` from a benger store (what ``benger run`` / ``judge`` / the study app wrote).

The per-generation score is the leaderboard's (:mod:`benger.analysis.leaderboard`): the mean over the primary
judge *configuration*'s scored repeats (judge name, judge config hash and rubric id; never two configurations
or two judges mixed). Every metric is read under exactly one signature (``metric_signatures`` chooses; default:
the metric's most frequent signature among generation values), recorded in ``inputs["metric_signatures"]``.
``StudyData.leaderboard`` computes the leaderboard of the same store, so `benger analyze` shows the same
board as `benger leaderboard`.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from functools import partial
from typing import Any

import numpy as np
from sqlalchemy import Text, cast, select

from benger.analysis._from_store_judgements import judgement_views, primary_config, repeat_means
from benger.analysis._records import (
    CorpusSummary,
    GenScore,
    HumanAnnotation,
    JsonDims,
    ReviewRow,
    Solution,
    StudyContents,
    SystemMeta,
    short_grader,
)
from benger.analysis.leaderboard import leaderboard_from_store
from benger.analysis.leaderboard.validity import status_block
from benger.errors import InputError
from benger.store._aggregate import (
    JudgementColumns,
    corpus_generations,
    first_pass_dimensions,
    metric_columns,
    scored_judgements,
)
from benger.store._aggregate_items import validation_only_judges

_TYPES = {"traditional": "human_traditional", "co_creation": "human_co_creation"}


#: the dimension points of an unreviewed generation (never read): one shared empty mapping
_NO_DIMS = JsonDims(None)


def _areas_and_own_rubric_tasks(store: Any, corpus: str) -> tuple[dict[str, str], list[Any]]:
    """Task id -> area of every task of ``corpus``, and the records of the tasks with their own Bewertungsbogen,
    in the corpus's order; only those are validated into records (a payload without a ``rubric`` has none:
    8,000 task records cost ~1.5 CPU-s; issue 26). A payload is read as its JSON text and decoded only where the
    text names a ``rubric`` key (8,000 payloads with the task texts decoded: ~0.4 CPU-s)."""
    from benger.store._convert import task
    from benger.store._tables import TASKS

    t = TASKS.c
    text = cast(t.payload, Text)
    stmt = select(t.task_id, t.area, text).where(t.corpus == corpus).order_by(t.position, t.task_id)
    areas: dict[str, str] = {}
    kept: list[Any] = []
    with store.engine.connect() as connection:
        for task_id, area, raw in connection.execute(stmt):
            areas[task_id] = area
            payload = json.loads(raw) if raw and '"rubric"' in raw else None  # without the key: no rubric
            if isinstance(payload, dict) and payload.get("rubric") is not None:
                kept.append(task(payload, corpus))
    return areas, kept


def _signatures(store: Any, chosen: Mapping[str, str] | None) -> dict[str, str]:
    from benger.store._aggregate import metric_signature_counts

    counts = metric_signature_counts(store)
    return {**{m: min(c, key=lambda s: (-c[s], s)) for m, c in sorted(counts.items())}, **(chosen or {})}


def _summaries(
    store: Any, corpus: str, judge: str | None, judgements: list[JudgementColumns], systems: dict[str, SystemMeta]
) -> dict[str, CorpusSummary]:
    """Per-system summary of a corpus from its stored generations and the judge configuration's repeat means
    (the judge configuration with most first passes on this corpus among judge ``judge``'s); accuracy is
    correct / all items (:func:`benger.metrics.accuracy`)."""
    from benger.metrics._answers import accuracy

    if corpus not in store.corpus_names() or judge is None:
        return {}
    gold = {t.task_id: getattr(t, "gold_answer", None) for t in store.load_corpus(corpus).tasks}
    every = [g for g in corpus_generations(store, corpus) if g.task_id in gold]
    gens = [g for g in every if g.status == "ok"]
    scores = repeat_means(judgements, primary_config(judgements, {g.generation_id for g in gens}, judge))
    by_system: dict[str, list[Any]] = defaultdict(list)
    for g in every:
        by_system[g.system].append(g)
    out = {}
    for system, all_rows in by_system.items():
        rows = [g for g in all_rows if g.status == "ok"]
        raws = np.asarray([scores[g.generation_id] for g in rows if g.generation_id in scores], dtype=float)
        if raws.size == 0:
            continue
        labelled = [g for g in all_rows if gold.get(g.task_id)]
        answers: list[Any] = [g.answer if g.status == "ok" else None for g in labelled]
        truth: list[Any] = [gold[g.task_id] for g in labelled]
        acc = accuracy(answers, truth) if labelled else None
        out[system] = CorpusSummary(
            n=int(raws.size),
            n_generations=len(rows),
            mean=float(raws.mean()),
            sd=float(raws.std(ddof=1)) if raws.size > 1 else 0.0,
            pass_rate=float(np.mean(raws >= 49.5)),
            accuracy=acc,
        )
    return out


def _rubric_totals(
    corpus: str,
    tasks: list[Any],
    solutions: dict[str, Solution],
    judged: Mapping[str, set[str]],
    rubrics: Mapping[str, Any] | None,
) -> dict[str, float]:
    """Reviewed solution -> its rubric's total (the task's Bewertungsbogen, else ``rubrics[corpus]``, else the
    built-in rubric of the kind: ``rubric_for_task``), or {} when every one is a paper rubric. InputError when a
    reviewed solution was judged under an own rubric the store does not hold and ``rubrics`` does not name."""
    from benger.judge._rubric import BUILTIN_RUBRICS
    from benger.pipeline import rubric_for_task

    def builtin(rubric_id: str) -> bool:
        return rubric_id.split("@")[0] in BUILTIN_RUBRICS

    by_task = {t.task_id: t for t in tasks}
    totals, own = {}, False
    for sid, sol in sorted(solutions.items()):
        task = by_task.get(sol.task_id)
        if task is None:
            continue
        rubric = rubric_for_task(task, rubrics)
        ids = judged.get(sid, set())
        if ids and rubric.id not in ids and not all(builtin(i) for i in ids) and task.rubric is None:
            rubric = _registered(ids) or rubric  # an own rubric registered under the id its judgements name
        if ids and rubric.id not in ids and not all(builtin(i) for i in ids):
            raise InputError(
                f"reviewed solution {sid!r} of corpus {corpus!r} was judged under rubric "
                f"{', '.join(sorted(ids))}, not {rubric.id}; name the corpus's rubric with --rubric {corpus}=FILE "
                "(as in the run config's rubrics:)",
                field="--rubric",
            )
        own = own or not builtin(rubric.id) or any(not builtin(i) for i in ids)
        totals[sid] = rubric.max_total
    return totals if own else {}


def _reviewed_tasks(store: Any, corpus: str, own_rubric: list[Any], solutions: dict[str, Solution]) -> list[Any]:
    """The task records of the reviewed ``solutions`` (those of ``own_rubric`` as read, the rest from the store)."""
    known = {t.task_id: t for t in own_rubric}
    wanted = sorted({s.task_id for s in solutions.values()} - known.keys())
    return [*known.values(), *(t for t in (store.get_task(w, corpus) for w in wanted) if t is not None)]


def _rubric_scales(tasks: list[Any], rubrics: Mapping[str, Any] | None) -> dict[str, float]:
    """Own rubric id -> total of the rubrics known for ``tasks``: each task's own Bewertungsbogen, and the
    ``rubrics`` (corpus -> Rubric) of their corpora (``StudyContents.rubric_scales``)."""
    from benger.judge._rubric import BUILTIN_RUBRICS
    from benger.pipeline import rubric_for_task

    known = [r for r in (rubrics or {}).values()]
    known += [rubric_for_task(t) for t in tasks if getattr(t, "rubric", None) is not None]
    return {r.id: float(r.max_total) for r in known if r.id.split("@")[0] not in BUILTIN_RUBRICS}


def _task_rubrics(tasks: list[Any]) -> dict[str, str]:
    """Task id -> the id of its own Bewertungsbogen, of ``tasks`` (those with one)."""
    from benger.pipeline import rubric_for_task

    return {t.task_id: rubric_for_task(t).id for t in tasks}


def _registered(rubric_ids: set[str]) -> Any:
    """The one registered rubric (``benger.judge.RUBRICS``, e.g. from an installed package) whose content id is
    the only id in ``rubric_ids``; None otherwise (a rubric from a file: the store keeps its id, not its content)."""
    from benger.errors import BengerError
    from benger.pipeline._units import resolve_rubric

    if len(rubric_ids) != 1:
        return None
    (rubric_id,) = rubric_ids
    if "@" not in rubric_id:
        return None
    try:
        rubric = resolve_rubric(rubric_id)
    except BengerError:
        return None
    return rubric if rubric.id == rubric_id else None


def study_from_store(
    store: Any,
    *,
    corpus: str = "benchathon",
    primary_judge: str | None = None,
    metric_signatures: Mapping[str, str] | None = None,
    rubrics: Mapping[str, Any] | None = None,
    leaderboard_options: Mapping[str, Any] | None = None,
) -> StudyContents:
    """The dataset of one Falllösung corpus in ``store``; the primary judge defaults to the judge configuration
    with most first-pass judgements of its generations. Judges on reviewed solutions become the per-pick judge
    scores; the per-generation scores of several judges (RQ5's inter-judge rank) leave out validation-only judge
    configurations (:func:`benger.store._aggregate_items.validation_only_judges`). ``metric_signatures``
    (metric -> signature) overrides the default signature choice. ``rubrics`` (corpus -> Rubric, as a run
    config's ``rubrics:``) gives the rubric of tasks without their own Bewertungsbogen, for the rubric totals of
    reviewed solutions (``StudyContents.rubric_totals``); None leaves them unresolved (empty: every score on its
    raw scale, nothing refused). ``leaderboard_options`` (e.g. ``ci``, ``seed``, ``n_resamples``): the board of
    ``leaderboard(**leaderboard_options)`` is computed first, before the study's rows are read, and returned for
    that call (the board's per-generation items and the study's rows are never held at once: ~90 MiB less peak
    at 256k generations; issue 26)."""
    systems = {
        s.name: SystemMeta(s.name, s.display_name or s.name, s.tier, s.provider_family or s.provider, s.weights)
        for s in store.systems()
    }
    if corpus not in store.corpus_names():
        store.load_corpus(corpus)  # the store's message naming its corpora
    signatures = _signatures(store, metric_signatures)
    leaderboard = _leaderboard(store, signatures, leaderboard_options)
    # areas of every task; the records of those with an own Bewertungsbogen only (its rubric scale)
    task_areas, own_rubric = _areas_and_own_rubric_tasks(store, corpus)
    gens = corpus_generations(store, corpus)
    gen_ids = {g.generation_id: g.generation_id for g in gens}  # one string per generation id, shared below
    judgements = scored_judgements(store, gen_ids)
    key = primary_config(judgements, gen_ids, primary_judge)
    primary = key[0] if key else (primary_judge or "primary")
    stored_reviews = store.human_reviews()
    reviewed = {r.target_id for r in stored_reviews}
    gen_by_id = {g.generation_id: g for g in gens if g.generation_id in reviewed}  # the reviewed ones only
    humans = {h.solution_id: h for h in store.human_solutions()}

    solutions: dict[str, Solution] = {}
    reviews = []
    for pos, r in enumerate(stored_reviews):
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

    validation_only = validation_only_judges(store)  # their picks are judge scores, not per-generation scores
    views = judgement_views(judgements, key, primary, gen_ids, solutions, validation_only)
    means, first = views.means, views.first
    # the other corpora's summaries, then the judgements go before the generations and metric values are built
    zjs = _summaries(store, "zjs", primary, judgements, systems)
    grundprinzipien = _summaries(store, "grundprinzipien", primary, judgements, systems)
    del judgements
    # dimension points of the reviewed generations only: RQ5 per dimension reads no others (issue 26)
    dims = first_pass_dimensions(store, *key, targets=gen_ids & solutions.keys()) if key is not None else {}
    generations = [
        GenScore(
            generation_id=g.generation_id,
            system=g.system,
            task_id=g.task_id,
            raw=means[g.generation_id],
            dims=JsonDims(dims[g.generation_id]) if g.generation_id in dims else _NO_DIMS,  # decoded where read
            superseded=g.status != "ok",  # the release stores its superseded generations as excluded
        )
        for g in gens
        if g.generation_id in first and g.status in ("ok", "excluded")
    ]
    del gens
    means.clear()
    first.clear()
    annotations = [
        HumanAnnotation(
            h.solution_id,
            h.condition,
            h.participant_id,
            h.task_id,
            task_areas.get(h.task_id),
            views.primary_human.get(h.solution_id),
        )
        for h in humans.values()
        if h.corpus == corpus and h.task_id in task_areas  # a task is (corpus, task id)
    ]
    metrics: dict[str, dict[str, float]] = defaultdict(dict)
    solution_metrics: dict[str, dict[str, float]] = defaultdict(dict)
    final_ids = {g.generation_id for g in generations if not g.superseded}
    for kind, target_id, metric, value in metric_columns(store, signatures):
        if kind == "generation" and target_id in final_ids:
            metrics[metric][gen_ids[target_id]] = value
        if target_id in solutions:
            solution_metrics[metric][target_id] = value
    return StudyContents(
        systems=systems,
        task_areas=task_areas,
        generations=generations,
        solutions=solutions,
        reviews=reviews,
        judge_scores=dict(views.judge_scores),
        judge_labels={j: j for j in views.judge_scores},
        primary_judge=primary,
        repeats={k: tuple(v) for k, v in views.repeats.items()},
        metrics=dict(metrics),
        solution_metrics=dict(solution_metrics),
        annotations=annotations,
        generation_judge_scores=dict(views.per_generation),
        zjs=zjs,
        grundprinzipien=grundprinzipien,
        inputs={
            "source": "store",
            "corpus": corpus,
            "n_generations": len(generations),
            "n_reviews": len(reviews),
            "n_judgements": views.n_judgements,
            "primary_judge_config": {"judge": key[0], "judge_config_hash": key[1], "rubric": key[2]} if key else None,
            "generation_score": "mean over the primary judge configuration's scored repeats",
            "metric_signatures": signatures,
            # the tasks with their own Bewertungsbogen: Table 1 names them where their group is left out
            "task_rubrics": _task_rubrics(own_rubric),
        },
        leaderboard=leaderboard,
        resampling_unit="task",
        judge_status=status_block(primary, key[1] if key else None, store=store),
        rubric_totals=_rubric_totals(
            corpus, _reviewed_tasks(store, corpus, own_rubric, solutions), solutions, views.judged_rubrics, rubrics
        )
        if rubrics is not None
        else {},
        rubric_scales=_rubric_scales(own_rubric, rubrics),
        human_sample=_human_sample(humans.values(), corpus),
    )


def _leaderboard(store: Any, signatures: dict[str, str], options: Mapping[str, Any] | None) -> Callable[..., Any]:
    """``StudyContents.leaderboard``: the store's leaderboard with the study's metric signatures; the board of
    ``options`` computed now (None: none)."""
    compute = partial(leaderboard_from_store, store, metric_signatures=signatures)
    if options is None:
        return compute
    ready, asked = compute(**options), dict(options)

    def leaderboard(**kwargs: Any) -> Any:
        return ready if kwargs == asked else compute(**kwargs)

    return leaderboard


#: ``StudyContents.human_sample`` of a store that holds the release's human validation picks
RELEASE_PICKS = (
    "the release's validation picks only (the store was imported from the release), not every human solution"
)


def _human_sample(humans: Iterable[Any], corpus: str) -> str | None:
    """Why the corpus's stored human solutions are a sample of the study's: they are the release's validation
    picks (``Store.import_release`` marks each with ``meta.source`` release and its ``pick_id``); else None."""
    picks = [h for h in humans if h.corpus == corpus and h.meta.get("source") == "release" and "pick_id" in h.meta]
    return RELEASE_PICKS if picks else None
