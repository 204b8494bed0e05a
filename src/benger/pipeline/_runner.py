"""The async runner: plans the unfinished units, runs them with bounded concurrency, saves each as it arrives."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from benger.errors import ConfigError
from benger.judge import Rubric, save_rubrics
from benger.llm import ChatModel, RetryPolicy
from benger.llm._limits import DEFAULT_REMOTE_CONCURRENCY, run_call_slots
from benger.pipeline._execute import MIN_OUTPUT_TOKENS, REASK_POLICY, execute_generation, execute_judgement
from benger.pipeline._gc import run_gc
from benger.pipeline._lease import Lease, generation_key, judgement_key
from benger.pipeline._progress import ProgressReporter, RunStats
from benger.pipeline._prompts import PromptSet, default_prompts
from benger.pipeline._units import GenerationUnit, JudgeUnit, rubric_for_kind
from benger.pipeline._writer import writer_thread
from benger.schema import FalloesungTask, PrincipleItem, SystemConfig

U = TypeVar("U")
R = TypeVar("R")
ModelFactory = Callable[[SystemConfig], ChatModel]


class Executor(Protocol):
    """Runs ``work(unit)`` for every unit and calls ``on_done(unit, result_or_exception)`` as each finishes."""

    name: str

    async def map(
        self,
        units: Sequence[U],
        work: Callable[[U], Awaitable[R]],
        on_done: Callable[[U, R | BaseException], None],
    ) -> None: ...


class LocalExecutor:
    """asyncio in this process: at most ``concurrency`` model calls in flight.

    ``concurrency + prefetch`` workers pull units from a shared iterator; the run's call slots
    (``run_call_slots``) admit ``concurrency`` of them to the model at a time, so while a call's result is
    parsed and saved another unit, its prompt already rendered, takes the free slot. Measured with
    ``benchmarks/bench_runner.py``: each slot's round trip shrinks by that post-processing (~5 ms of 205).
    """

    name = "local"

    def __init__(self, concurrency: int = 8, prefetch: int | None = None) -> None:
        if concurrency < 1:
            raise ConfigError("concurrency must be at least 1")
        if prefetch is not None and prefetch < 0:
            raise ConfigError("prefetch must be at least 0")
        self.concurrency = concurrency
        self.prefetch = max(1, concurrency // 8) if prefetch is None else prefetch

    async def map(
        self,
        units: Sequence[U],
        work: Callable[[U], Awaitable[R]],
        on_done: Callable[[U, R | BaseException], None],
    ) -> None:
        iterator = iter(units)

        async def worker() -> None:
            for unit in iterator:  # one shared iterator: each unit is taken exactly once
                try:
                    result: R | BaseException = await work(unit)
                except Exception as exc:  # a unit's own bug or bad input must not stop the others
                    result = exc
                on_done(unit, result)

        token = run_call_slots.set(asyncio.Semaphore(self.concurrency))
        try:  # the workers' tasks copy the context: they share the slots and the writer thread
            with writer_thread():
                await asyncio.gather(*(worker() for _ in range(min(self.concurrency + self.prefetch, len(units)))))
        finally:
            run_call_slots.reset(token)


#: Executor factories by name: ``factory(concurrency, config, store)``. ``local`` is built in; ``celery`` is
#: registered by ``benger.workers`` (a higher layer) when it is imported — the CLI does so for ``--executor
#: celery``/``executor: celery`` — so the pipeline never imports the workers package.
ExecutorFactory = Callable[[int, Any, Any], Executor]
_EXECUTORS: dict[str, ExecutorFactory] = {"local": lambda concurrency, _config, _store: LocalExecutor(concurrency)}


def register_executor(name: str, factory: ExecutorFactory) -> None:
    """Make ``make_executor(name, ...)`` call ``factory(concurrency, config, store)`` (a later call replaces it)."""
    _EXECUTORS[name] = factory


def make_executor(name: str, concurrency: int, *, config: Any = None, store: Any = None) -> Executor:
    """``local`` (asyncio) or a registered executor such as ``celery`` (needs the run ``config`` and its ``store``).

    Raises ConfigError for an unknown name; ``celery`` unregistered means ``benger.workers`` was not imported
    (the CLI imports it; library callers ``import benger.workers``, which needs ``pip install benger[workers]``).
    """
    factory = _EXECUTORS.get(name)
    if factory is None and name == "celery":
        raise ConfigError(
            "the celery executor is provided by benger.workers: pip install benger[workers], then "
            "`import benger.workers` before the run (the benger command does this itself)"
        )
    if factory is None:
        raise ConfigError(f"unknown executor {name!r}; expected one of {', '.join(sorted(_EXECUTORS))}")
    return factory(concurrency, config, store)


def endpoint_limit(system: SystemConfig, run_concurrency: int | None) -> SystemConfig:
    """``system`` with the endpoint limit a run of ``run_concurrency`` gives it.

    The rule: an explicit ``max_concurrency`` is the endpoint's cap and is kept; without one, the llm layer's
    default (32 parallel requests per remote endpoint) is raised to the run's concurrency when the run asks
    for more, so ``concurrency: 64`` really runs 64 calls at once. The in-process ``local`` provider (one
    llama.cpp instance) keeps its own limit.
    """
    if system.max_concurrency is not None or system.provider == "local" or not run_concurrency:
        return system
    if run_concurrency <= DEFAULT_REMOTE_CONCURRENCY:
        return system
    return system.model_copy(update={"max_concurrency": run_concurrency})


class ModelPool:
    """One ChatModel per system config (created on first use, closed together).

    ``concurrency`` (the run's) raises the endpoint limit of systems without their own (``endpoint_limit``).
    """

    def __init__(self, factory: ModelFactory | None = None, *, concurrency: int | None = None) -> None:
        if factory is None:
            from benger.llm import create_model

            factory = create_model
        self._factory = factory
        self.concurrency = concurrency
        self._models: dict[str, ChatModel] = {}
        self._last: tuple[SystemConfig, ChatModel] | None = None

    def get(self, system: SystemConfig) -> ChatModel:
        last = self._last
        if last is not None and last[0] is system:  # the planned units share one config object
            return last[1]
        key = system.config_hash()
        if key not in self._models:
            self._models[key] = self._factory(endpoint_limit(system, self.concurrency))
        self._last = (system, self._models[key])
        return self._models[key]

    async def aclose(self) -> None:
        for model in self._models.values():
            await model.aclose()
        self._models.clear()


TaskLike = FalloesungTask | PrincipleItem


def plan_generations(
    store: Any,
    tasks: Iterable[TaskLike],
    systems: Sequence[SystemConfig],
    prompts: PromptSet,
    *,
    repetitions: int | None = None,
) -> list[GenerationUnit]:
    """Units not finished yet: missing or ``failed`` generations (``ok``/``excluded`` ones are skipped).

    The finished keys come from ONE store query (``Store.finished_generation_keys``), not one per unit.
    """
    tasks = list(tasks)
    kinds = ("falloesung", "grundprinzip")
    hashes = [{kind: prompts.generation_config_hash(system, kind) for kind in kinds} for system in systems]
    done = store.finished_generation_keys({h for per_system in hashes for h in per_system.values()})
    units: list[GenerationUnit] = []
    for system, per_kind in zip(systems, hashes, strict=True):
        runs = repetitions or system.repetitions
        for task in tasks:
            config_hash = per_kind[task.kind]
            for run_index in range(runs):
                if (task.corpus, task.task_id, config_hash, run_index) not in done:
                    unit = GenerationUnit(task_id=task.task_id, corpus=task.corpus, system=system, run_index=run_index)
                    units.append(unit)
    return units


def plan_judgements(
    store: Any,
    targets: Iterable[tuple[str, str, str | Rubric]],
    judges: Sequence[SystemConfig],
    prompts: PromptSet,
    *,
    repeats: int = 1,
) -> list[JudgeUnit]:
    """Units not scored yet for targets ``(target_kind, target_id, rubric)``: missing or ``unscored``.

    ``rubric``: the target's rubric (``rubric_for_task``), or a task kind for the built-in rubric of that kind.

    The scored keys come from ONE store query (``Store.scored_judgement_keys``), not one per unit.
    """
    targets = list(targets)
    rubrics: dict[str, Rubric] = {}  # rubric id -> rubric
    of_target: list[Rubric] = []
    for _, _, choice in targets:
        rubric = choice if isinstance(choice, Rubric) else rubric_for_kind(choice)
        rubric = rubrics.setdefault(rubric.id, rubric)
        of_target.append(rubric)
    hashes = [{rid: prompts.judge_config_hash(judge, r) for rid, r in rubrics.items()} for judge in judges]
    done = store.scored_judgement_keys({h for per_judge in hashes for h in per_judge.values()})
    units: list[JudgeUnit] = []
    for judge, per_rubric in zip(judges, hashes, strict=True):
        for (kind, target_id, _), rubric in zip(targets, of_target, strict=True):
            judge_hash = per_rubric[rubric.id]
            for repeat in range(repeats):
                if (kind, target_id, judge_hash, rubric.id, repeat) in done:
                    continue
                units.append(
                    JudgeUnit(
                        target_kind=kind,
                        target_id=target_id,
                        judge=judge,
                        rubric_id=rubric.id,
                        rubric=rubric,
                        repeat_index=repeat,
                    )
                )
    return units


async def _run(
    label: str,
    units: Sequence[Any],
    work: Callable[[Any], Awaitable[Any]],
    executor: Executor,
    progress: ProgressReporter | None,
    key: Callable[[Any], str],
    tokens: Callable[[Any], tuple[Any, Any, Any]],
) -> RunStats:
    stats = RunStats(label=label, total=len(units))
    reporter = progress or ProgressReporter(enabled=False)
    reporter.start(stats)

    def on_done(unit: Any, result: Any) -> None:
        if isinstance(result, BaseException):
            stats.record("error", 0, 0, 0.0)
            stats.errors.append((key(unit), f"{type(result).__name__}: {result}"))
        else:
            stats.record(result.status, *tokens(result))
        reporter.update()

    async def heartbeat() -> None:
        while True:
            await asyncio.sleep(reporter.plain_every_s)
            reporter.update(heartbeat=True)

    beat = asyncio.create_task(heartbeat()) if reporter.needs_heartbeat and units else None
    try:
        with run_gc():
            await executor.map(units, work, on_done)
    finally:
        if beat is not None:
            beat.cancel()
        stats.finished = time.monotonic()
        reporter.stop()
    return stats


async def run_generations(
    store: Any,
    units: Sequence[GenerationUnit],
    *,
    prompts: PromptSet | None = None,
    executor: Executor | None = None,
    models: ModelPool | None = None,
    progress: ProgressReporter | None = None,
    min_output_tokens: int = MIN_OUTPUT_TOKENS,
    reask_policy: RetryPolicy = REASK_POLICY,
    tasks: Mapping[Any, FalloesungTask | PrincipleItem] | None = None,
) -> RunStats:
    """Run generation units; each result is saved by ``execute_generation`` as it arrives.

    ``tasks`` (its values: the tasks) saves one store look-up per unit when the caller already holds the tasks;
    a task is (corpus, task id), so they are kept by both.
    """
    prompts = prompts or default_prompts()
    executor = executor or LocalExecutor()
    pool = models or ModelPool(concurrency=getattr(executor, "concurrency", None))
    # filled as tasks are read: several systems/runs of a task read it once
    known: dict[tuple[str | None, str], TaskLike] = {(t.corpus, t.task_id): t for t in (tasks or {}).values()}

    lease = Lease(store)
    # per system object of the run (the planned units share them) and task kind: (config hash, system hash)
    hashes: dict[tuple[int, str], tuple[str, str]] = {}

    async def work(unit: GenerationUnit) -> Any:
        task = known.get((unit.corpus, unit.task_id))
        if task is None:
            task = store.get_task(unit.task_id, unit.corpus)
            if task is not None:
                known[(unit.corpus, unit.task_id)] = task
        if task is None:  # execute_generation reports the missing task
            return await execute_generation(unit, store, pool.get(unit.system), prompts, task=task)
        slot = (id(unit.system), task.kind)
        pair = hashes.get(slot)
        if pair is None:
            pair = hashes[slot] = (prompts.generation_config_hash(unit.system, task.kind), unit.system.config_hash())
        config_hash, system_hash = pair

        def call() -> Awaitable[Any]:
            return execute_generation(
                unit,
                store,
                pool.get(unit.system),
                prompts,
                reask_policy=reask_policy,
                min_output_tokens=min_output_tokens,
                task=task,
                config_hash=config_hash,
                system_hash=system_hash,
            )

        key = (task.corpus, unit.task_id, config_hash, unit.run_index)
        return await lease.run(generation_key(*key), {"generation": key}, call)

    try:
        async with lease.renewing():
            return await _run(
                "generate",
                units,
                work,
                executor,
                progress,
                key=lambda u: f"{u.task_id}/{u.system.name}/{u.run_index}",
                tokens=lambda g: (g.input_tokens, g.output_tokens, g.cost_usd),
            )
    finally:
        if models is None:
            await pool.aclose()


async def run_judgements(
    store: Any,
    units: Sequence[JudgeUnit],
    *,
    prompts: PromptSet | None = None,
    executor: Executor | None = None,
    models: ModelPool | None = None,
    progress: ProgressReporter | None = None,
    reask_policy: RetryPolicy = REASK_POLICY,
) -> RunStats:
    """Run judge units; each judgement (scored or unscored with its reason) is saved as it arrives."""
    prompts = prompts or default_prompts()
    executor = executor or LocalExecutor()
    pool = models or ModelPool(concurrency=getattr(executor, "concurrency", None))

    save_rubrics(store, (unit.rubric for unit in units))  # a judgement's rubric is found by its id later
    lease = Lease(store)
    judge_hashes: dict[tuple[int, str], str] = {}

    async def work(unit: JudgeUnit) -> Any:
        async def call() -> Any:
            return await execute_judgement(unit, store, pool.get(unit.judge), prompts, reask_policy=reask_policy)

        slot = (id(unit.judge), unit.rubric_id)
        judge_hash = judge_hashes.get(slot)
        if judge_hash is None:
            judge_hash = judge_hashes[slot] = prompts.judge_config_hash(unit.judge, unit.rubric)
        key = (unit.target_kind, unit.target_id, judge_hash, unit.rubric_id, unit.repeat_index)

        return await lease.run(judgement_key(*key), {"judgement": key}, call)

    try:
        async with lease.renewing():
            return await _run(
                "judge",
                units,
                work,
                executor,
                progress,
                key=lambda u: f"{u.target_id}/{u.judge.name}/{u.repeat_index}",
                tokens=lambda j: (j.meta.get("input_tokens"), j.meta.get("output_tokens"), j.meta.get("cost_usd")),
            )
    finally:
        if models is None:
            await pool.aclose()
