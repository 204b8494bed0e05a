"""Judge a set of stored targets with a config's first judge, resumably (``validate-judge``, ``demo --release``)."""

from __future__ import annotations

from typing import Any


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
    from benger.pipeline._orchestrate import run_prompts
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
