"""``validate-judge``'s two runs without a terminal: the code ``benger validate-judge`` and the workbench's
validation pages both call (so a browser validation and a CLI one are the same computation, refusals included).

* :func:`validate_on_release`: the judge on the 45 released validation picks against the 180 released human
  reviews, beside the paper's six judges (the release imported into the store once);
* :func:`validate_on_corpus`: the judge on a corpus's reviewed solutions against its own imported reviews
  (percent of each solution's rubric total, the rule of ``analyze``'s RQ5), refused with the reason when there
  are too few reviewed solutions or blind reviewers.

Judging goes through the resumable path (``plan_judgements`` / ``run_judgements``) with the config's executor
(``local`` or ``celery``), so judgements already stored (e.g. by the run being validated) are reused.
"""

from __future__ import annotations

import dataclasses
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benger.errors import InputError

#: The least a validation on own reviews needs: reviewed solutions with a judge score, and blind reviewers.
MIN_PICKS = 3
MIN_BLIND_REVIEWERS = 2


@dataclass
class Validation:
    """A validation's result (``validate_judge``'s dict), whether picks remain, and why some are unscored."""

    result: dict[str, Any]
    incomplete: bool
    unscored: dict[str, str] = field(default_factory=dict)
    errors: list[tuple[str, str]] = field(default_factory=list)
    provenance: dict[str, Any] = field(default_factory=dict)


async def judge_picks(
    store: Any,
    config: Any,
    targets: list[tuple[str, str, Any]],
    *,
    progress: Any = None,
    model_factory: Any = None,
) -> tuple[Any, dict[str, list[float]], dict[str, str], Any]:
    """Judge ``targets`` with the config's first judge (resumable); returns (stats, scores per target id with
    one value per repeat, unscored target id -> reason, judge SystemConfig)."""
    import functools

    from benger.judge import Rubric
    from benger.llm import RetryPolicy, create_model
    from benger.pipeline import ModelPool, plan_judgements, run_judgements
    from benger.pipeline._orchestrate import check_endpoints, run_prompts
    from benger.pipeline._runner import make_executor
    from benger.pipeline._units import rubric_for_kind

    prompts = run_prompts(config)
    judge = config.resolved_judges()[0]
    store.upsert_system(judge)
    retry = config.retry
    policy = RetryPolicy(max_retries=retry.max_retries, initial_wait=retry.initial_wait, max_wait=retry.max_wait)
    factory = model_factory or functools.partial(create_model, policy=policy)
    pool = ModelPool(factory, concurrency=config.concurrency)
    units = plan_judgements(store, targets, [judge], prompts, repeats=config.repeats)
    if units:  # its server answers, before the first judgement
        await check_endpoints(config, ("judge",), judges=1)
    executor = make_executor(config.executor, config.concurrency, config=config, store=store)
    reask = RetryPolicy(max_retries=retry.max_retries, initial_wait=0.0, jitter=0.0)
    try:
        stats = await run_judgements(
            store, units, prompts=prompts, executor=executor, models=pool, progress=progress, reask_policy=reask
        )
    finally:
        await pool.aclose()
    kinds = {t[1]: t[2] for t in targets}
    chosen = {r.id: r for r in (k if isinstance(k, Rubric) else rubric_for_kind(k) for k in kinds.values())}
    hashes = {rid: prompts.judge_config_hash(judge, r) for rid, r in chosen.items()}
    scores: dict[str, list[float]] = {}
    unscored: dict[str, str] = {}
    for j in store.judgements(target_ids=list(kinds)):
        if j.rubric_id not in hashes or j.judge_config_hash != hashes[j.rubric_id] or j.repeat_index >= config.repeats:
            continue
        if j.status == "scored" and j.total is not None:
            scores.setdefault(j.target_id, []).append(j.total)
        else:
            unscored.setdefault(j.target_id, j.reason or j.status)
    return stats, scores, {k: v for k, v in unscored.items() if k not in scores}, judge


# -- the released picks --------------------------------------------------------------------------------
def pick_targets(data: Any) -> list[tuple[str, str, str]]:
    """(target_kind, target_id, task_kind) of every released validation pick (human solution or generation)."""
    return [
        ("generation" if s.pool == "llm" else "human_solution", sid, "falloesung")
        for sid, s in sorted(data.solutions.items())
    ]


def picks_judge_key(config: Any, judge: Any) -> tuple[str, str]:
    """(judge config hash, rubric id) of the judgements ``judge_picks`` makes: the key of the judge's rows."""
    from benger.pipeline._orchestrate import run_prompts
    from benger.pipeline._units import rubric_for_kind

    rubric = rubric_for_kind("falloesung")
    return run_prompts(config).judge_config_hash(judge, rubric), rubric.id


def release_targets(store: Any, data: Any, release: Path, *, limit: int | None = None, say: Any = None) -> list[Any]:
    """The picks to judge, the release imported into ``store`` first when it is not there yet.

    ``limit`` takes the first picks in solution id order; they are judged case by case (by task id, stably): the
    judge prompts of one case start with the same rubric, Sachverhalt and Musterlösung (7-11k tokens), which an
    embedded llama.cpp judge then evaluates once per case, not once per pick (in id order consecutive picks were
    of different cases)."""
    targets = pick_targets(data)
    if store.get_human_solution(next(t[1] for t in targets if t[0] == "human_solution")) is None:
        if say is not None:
            say(f"importing the release {release} into the store (once)")
        store.import_release(release)
    chosen = targets[:limit] if limit is not None else targets
    return sorted(chosen, key=lambda t: data.solutions[t[1]].task_id)


async def judge_release(
    store: Any, config: Any, targets: list[Any], *, progress: Any = None
) -> tuple[dict[str, float], str, dict[str, Any], bool, Any, dict[str, str]]:
    """Judge the picks; (mean score per pick, label, provenance, incomplete, stats, unscored pick -> reason)."""
    stats, per_pick, unscored, judge = await judge_picks(store, config, targets, progress=progress)
    sds = [statistics.pstdev(v) for v in per_pick.values() if len(v) >= 2]
    scores = {sid: statistics.fmean(v) for sid, v in per_pick.items()}
    judge_hash, rubric_id = picks_judge_key(config, judge)
    provenance = {
        "judge": judge.name,
        "judge_config": judge.config_hash()[:8],
        "judge_config_hash": judge_hash,
        "rubric_id": rubric_id,
        "model": f"{judge.provider}:{judge.model}",
        "repeats": config.repeats,
        "within_judge_sd_mean": statistics.fmean(sds) if sds else None,
        "unscored": len(unscored),
        "scored": len(per_pick),
        "picks": len(targets),
    }
    # complete only when every pick has a score (docs/cli.md, "Exit codes"): "picks scored: 0 of 45" is no result
    incomplete = len(per_pick) < len(targets) or bool(stats.errors)
    return scores, f"{judge.name} [{judge.config_hash()[:8]}]", provenance, incomplete, stats, unscored


def release_result(data: Any, scores: dict[str, float], label: str, provenance: dict[str, Any]) -> dict[str, Any]:
    """``validate_judge``'s table for the candidate beside the paper's judges; InputError for what it refuses."""
    from benger import __version__
    from benger.analysis._validate_judge import validate_judge

    provenance = {**provenance, "benger": __version__}
    try:
        return validate_judge(data, scores, label=label, provenance=provenance)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def store_validation(store: Any, result: dict[str, Any], provenance: dict[str, Any]) -> None:
    """Save the candidate's verdict in the store (its rows' judge status), for a judge that was judged there."""
    from benger.analysis._validate_judge import validation_record

    record = validation_record(result, judge=provenance["judge"], judge_config_hash=provenance["judge_config_hash"],
                               rubric_id=provenance["rubric_id"])  # fmt: skip
    store.save_judge_validation(record)


async def validate_on_release(
    store: Any, config: Any, release: Path, *, limit: int | None = None, progress: Any = None
) -> Validation:
    """The whole release validation on an open store: import (once), judge, table, verdict saved."""
    from benger.analysis._data import StudyData

    data = StudyData.from_release(release)
    targets = release_targets(store, data, release, limit=limit)
    scores, label, judged, incomplete, stats, unscored = await judge_release(store, config, targets, progress=progress)
    provenance = {"release": str(release), **judged}
    result = release_result(data, scores, label, provenance)
    store_validation(store, result, provenance)
    return Validation(result, incomplete, unscored, list(stats.errors), provenance)


# -- own reviews of a corpus -----------------------------------------------------------------------------
def enough_reviews(corpus: str, data: Any) -> None:
    """Refuse, with the reason, a corpus whose reviews cannot support the validation table."""
    blind = {r.grader for r in data.reviews if r.role == "blind"}
    reviewed = {r.solution_id for r in data.reviews if r.role == "blind"}
    if len(reviewed) < MIN_PICKS:
        raise InputError(
            f"corpus {corpus!r} has blind reviews of {len(reviewed)} solution(s); validating a judge needs at least "
            f"{MIN_PICKS} (correlations, kappa and the alt-test are undefined below that). Import reviews with "
            "`benger import-reviews FILE --db STORE` or finish a study on the platform",
            field="--corpus",
        )
    if len(blind) < MIN_BLIND_REVIEWERS:
        raise InputError(
            f"corpus {corpus!r} has {len(blind)} blind reviewer(s); the blind pool, the ICC and the alt-test need at "
            f"least {MIN_BLIND_REVIEWERS}",
            field="--corpus",
        )


async def validate_on_corpus(store: Any, config: Any, corpus: str, *, progress: Any = None) -> Validation:
    """Judge the reviewed solutions of ``corpus`` with the config's judge and validate it against their reviews
    (``benger validate-judge CONFIG --db STORE --corpus NAME``)."""
    from benger.analysis._data import StudyData
    from benger.analysis._percent import PERCENT_SCALE, as_percent, percent
    from benger.analysis._validate_judge import validate_judge
    from benger.pipeline import rubric_for_task
    from benger.pipeline._corpus_rubrics import corpus_rubrics
    from benger.pipeline._orchestrate import run_prompts

    rubrics = config.resolved_rubrics()
    config.resolved_judges()
    if corpus not in store.corpus_names():
        raise InputError(f"no corpus named {corpus!r} in the store (its corpora: "
                         f"{', '.join(store.corpus_names()) or 'none'})", field="--corpus")  # fmt: skip
    rubrics = corpus_rubrics(store, [corpus], rubrics, option="rubrics:")  # the store's own rubric of its judgements
    data = StudyData.from_store(store, corpus=corpus, rubrics=rubrics)
    enough_reviews(corpus, data)
    targets, totals = [], {}
    for sid, sol in sorted(data.solutions.items()):
        kind = "generation" if sol.pool == "llm" else "human_solution"
        owner = store.get_generation_by_id(sid) if kind == "generation" else store.get_human_solution(sid)
        task = store.get_task(owner.task_id, owner.corpus) if owner is not None else None
        if task is None:
            raise InputError(f"reviewed solution {sid!r} or its task is not in the store", field="--corpus")
        rubric = rubric_for_task(task, rubrics)
        targets.append((kind, sid, rubric))
        totals[sid] = rubric.max_total
    stats, per_pick, unscored, judge = await judge_picks(store, config, targets, progress=progress)
    scores = {sid: percent(statistics.fmean(v), totals[sid]) for sid, v in per_pick.items()}
    # one rule with analyze's RQ5 (benger.analysis._percent); the judge's scores are the fresh ones above
    on_percent = dataclasses.replace(as_percent(data, totals), judge_scores={})
    provenance = {
        "corpus": corpus,
        "judge": judge.name,
        "judge_config": judge.config_hash()[:8],
        # the judgements' key (what the leaderboard names "judge config"): one per rubric of the solutions
        "judge_config_hash": ", ".join(sorted({run_prompts(config).judge_config_hash(judge, t[2]) for t in targets})),
        "rubrics": ", ".join(sorted({t[2].id for t in targets})),
        "scale": PERCENT_SCALE,
        "unscored": len(unscored),
    }
    try:
        result = validate_judge(on_percent, scores, label=f"{judge.name} [{judge.config_hash()[:8]}]",
                                provenance=provenance, paper_judges=())  # fmt: skip
    except ValueError as exc:
        raise InputError(str(exc)) from None
    incomplete = len(per_pick) + len(unscored) < len(targets) or bool(stats.errors)
    return Validation(result, incomplete, unscored, list(stats.errors), provenance)
