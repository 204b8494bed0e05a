"""A whole run: load corpora into the store, generate, judge.

The leaderboard is not a pipeline stage: it needs the statistics layers above the pipeline, so the caller
(``benger run``, a script) builds it from the store after the run, from ``RunResult.corpora``/``systems``/
``judges`` and the config's ``leaderboard`` options.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from typing import Any

from benger.errors import InputError
from benger.judge import Rubric
from benger.llm import RetryPolicy
from benger.pipeline._config import RunConfig
from benger.pipeline._progress import ProgressReporter, RunStats
from benger.pipeline._prompts import PROMPT_OPTIONS, PromptSet
from benger.pipeline._runner import ModelFactory, ModelPool, make_executor, plan_generations, plan_judgements
from benger.pipeline._runner import run_generations as _run_generations
from benger.pipeline._runner import run_judgements as _run_judgements
from benger.pipeline._units import rubric_for_task
from benger.schema import Corpus, FalloesungTask, PrincipleItem, SystemConfig

Stage = str
STAGES: tuple[Stage, ...] = ("generate", "judge")


@dataclass
class RunResult:
    """What a run did: the stats of each stage it ran and what it ran on (for the caller's leaderboard)."""

    generation: RunStats | None = None
    judgement: RunStats | None = None
    #: corpus names of the run, in the order of the config's specs
    corpora: list[str] = field(default_factory=list)
    #: names of the run's systems (after the systems filter) and of its judges, in config order
    systems: list[str] = field(default_factory=list)
    judges: list[str] = field(default_factory=list)
    #: units of each run stage ("generate", "judge") not finished when the run ended (failed, unscored, raised,
    #: or still held by another run): planned again after the run, so 0 means complete
    remaining: dict[str, int] = field(default_factory=dict)
    #: generations of the run's selection stored ``excluded`` (final, no usable result), by the first word of
    #: their reason (refused, short, malformed, ambiguous, too long, ...)
    excluded: dict[str, int] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        """True when every unit of the run ended with a usable result: none left unfinished (failed, unscored,
        not yet run) and no generation excluded. The CLI exits 0 only then (docs/cli.md, "Exit codes")."""
        return not any(self.remaining.values()) and not any(self.excluded.values())


def _excluded(
    store: Any, tasks: Sequence[FalloesungTask | PrincipleItem], systems: Sequence[SystemConfig], prompts: PromptSet
) -> dict[str, int]:
    """Excluded generations of ``systems`` (current prompts) on ``tasks``, counted by the first word of the reason."""
    keys = {(t.corpus, t.task_id) for t in tasks}
    hashes = {prompts.generation_config_hash(s, k) for s in systems for k in ("falloesung", "grundprinzip")}
    counts: dict[str, int] = {}
    for g in store.generations(status="excluded", task_ids=sorted({t for _, t in keys})):
        if (g.corpus, g.task_id) in keys and g.config_hash in hashes:
            word = (g.reason or "excluded").split(":")[0].split(" (")[0].split(" after")[0].strip() or "excluded"
            counts[word] = counts.get(word, 0) + 1
    return counts


def read_run_corpora(store: Any, specs: Sequence[str]) -> tuple[list[str], list[Corpus]]:
    """(the run's corpus names, the corpora read from sources) for specs: a corpus already in the store by name,
    else its source read (nothing written; :func:`load_run_corpora` writes them)."""
    from benger.corpora import resolve_corpus_source

    names: list[str] = []
    sources: list[Corpus] = []
    stored = set(store.corpus_names())
    for spec in specs:
        if spec in stored and spec != "demo":
            names.append(spec)
            continue
        corpora = resolve_corpus_source(spec)
        sources += corpora
        names += [corpus.name for corpus in corpora]
    return list(dict.fromkeys(names)), sources


def load_run_corpora(store: Any, specs: Sequence[str]) -> list[str]:
    """Corpus names for specs: a corpus already in the store by name, else a source loaded into the store.

    The sources are added in one transaction by the store's corpus rules: re-adding the same tasks is a
    no-op; a stored corpus of that name with other tasks is an InputError
    (use ``benger import SOURCE --replace`` or ``--as NAME`` first).
    """
    names, sources = read_run_corpora(store, specs)
    if sources:
        store.add_corpora(sources)
    return names


def select_tasks(
    store: Any, corpora: Sequence[str], config: RunConfig, sources: Sequence[Corpus] = ()
) -> list[FalloesungTask | PrincipleItem]:
    """The run's tasks: per corpus in stored order (a corpus of ``sources``, read but not stored: its own
    order), filtered by task ids, then the first ``limit``.

    InputError when the task filter selects nothing (a typo must not look like a finished run).
    """
    wanted = set(config.filters.tasks) if config.filters.tasks else None
    read = {corpus.name: corpus for corpus in sources}
    tasks: list[FalloesungTask | PrincipleItem] = []
    for name in corpora:
        found = read[name].tasks if name in read else store.load_corpus(name).tasks
        selected = [_of_corpus(t, name) for t in found if wanted is None or t.task_id in wanted]
        if config.filters.limit is not None:
            selected = selected[: config.filters.limit]
        tasks.extend(selected)
    if wanted is not None and not tasks:
        raise InputError(
            f"the task filter {', '.join(sorted(wanted))} selects no task of the corpora {', '.join(corpora)}",
            field="tasks",
        )
    return tasks


def _of_corpus(task: FalloesungTask | PrincipleItem, name: str) -> FalloesungTask | PrincipleItem:
    """The task as the store gives it back: its ``corpus`` is the corpus it is in."""
    return task if task.corpus == name else task.model_copy(update={"corpus": name})


def check_run(config: RunConfig, store: Any, stages: Sequence[Stage] = STAGES) -> tuple[list[str], list[Corpus]]:
    """Everything about the run's selection that can be wrong, checked before the store is written and before
    any model call: its corpora read, its task filter, its ``rubrics:`` (a corpus not of the run; with judging
    among ``stages``, the rubric of every selected task, whose kind must be the task's: ``rubric_for_task``) and
    its system filter. The one preflight of a real run (:func:`run_config`) and of a dry run (``estimate_run``),
    so a fault a dry run names stops a real run before its first call (2026-12-04 attack, item 2: ``rubrics:
    {faelle: grundprinzipien}`` paid for every generation first). Returns :func:`read_run_corpora`'s pair."""
    names, sources = read_run_corpora(store, config.corpora)
    tasks = select_tasks(store, names, config, sources)
    rubrics = run_rubrics(config, names)
    if "judge" in stages and config.judges:
        for task in tasks:
            try:
                rubric_for_task(task, rubrics)
            except InputError as exc:  # named with the config file, as the config's other faults are
                if exc.file is not None or config.source is None:
                    raise
                raise InputError(exc.reason, file=config.source, field=exc.field) from exc
    _filter_systems(config.resolved_systems(), config.filters.systems)
    return names, sources


async def check_endpoints(
    config: RunConfig, stages: Sequence[Stage] = STAGES, *, judges: int | None = None, busy: Set[str] | None = None
) -> None:
    """The servers of the run: every distinct ``base_url`` of the systems (after the filter) and judges that
    ``stages`` call must answer (``llm.endpoint_problems``: it accepts a connection and gives an HTTP reply to
    ``GET {base_url}/models``), else one InputError naming the system(s), the ``base_url``, the config file and
    the entry's field, before the store is written and before any item. A real run's preflight after
    :func:`check_run` (a dry run calls nothing and asks no server): a wrong port was found item by item, every
    item stored as failed and exit 3 (2026-12-04 attack). With the celery executor the workers call the servers,
    maybe from other machines (a ``localhost`` there is not this one's): not asked here. ``judges``: only the
    first that many judges are called (``validate-judge`` calls the first); ``busy``: only the systems and judges
    of these names have work (:func:`busy_models`: a finished run run again asks no server)."""
    from benger.llm._reach import endpoint_problems

    if config.executor != "local":
        return
    called: list[tuple[str, int, SystemConfig]] = []
    if "generate" in stages:
        systems = config.resolved_systems()
        chosen = {s.name for s in _filter_systems(systems, config.filters.systems)}
        called += [("systems", i, s) for i, s in enumerate(systems) if s.name in chosen]
    if "judge" in stages:
        called += [("judges", i, s) for i, s in enumerate(config.resolved_judges()[:judges])]
    called = [e for e in called if e[2].base_url and e[2].provider != "local" and (busy is None or e[2].name in busy)]
    problems = await endpoint_problems([str(s.base_url) for _, _, s in called])
    if not problems:
        return
    lines = []
    for url, problem in problems.items():
        users = [(section, s.name) for section, _, s in called if s.base_url == url]
        named = ", ".join(f"{section[:-1]} '{name}'" for section, name in users)
        lines.append(f"{named}: no server answers at base_url {url}: {problem}")
    first = next(entry for entry in called if entry[2].base_url in problems)
    raise InputError(
        "; ".join(lines) + " (start the server, or correct base_url)",
        file=config.source,
        field=f"{first[0]}[{first[1]}].base_url" if config.source is not None else None,  # else named by option
    )


def busy_models(
    config: RunConfig, store: Any, stages: Sequence[Stage], corpora: Sequence[str], sources: Sequence[Corpus]
) -> set[str]:
    """Names of the systems and judges the run has units for, planned from the store as it is (nothing written):
    a system with a generation to make; every judge when any generation is to be made (new targets), else the
    judges with a judgement to make of the stored generations."""
    prompts = run_prompts(config)
    tasks = select_tasks(store, corpora, config, sources)
    systems = _filter_systems(config.resolved_systems(), config.filters.systems)
    judges = config.resolved_judges()
    busy: set[str] = set()
    if "generate" in stages and systems:
        units = plan_generations(store, tasks, systems, prompts, repetitions=config.repetitions)
        busy |= {unit.system.name for unit in units}
    if "judge" in stages and judges:
        if busy:
            return busy | {judge.name for judge in judges}
        rubrics = run_rubrics(config, corpora)
        targets = judge_targets(store, tasks, systems, prompts, human_solutions=config.judge_human_solutions,
                                rubrics=rubrics)  # fmt: skip
        busy |= {unit.judge.name for unit in plan_judgements(store, targets, judges, prompts, repeats=config.repeats)}
    return busy


def _filter_systems(systems: list[SystemConfig], names: Sequence[str] | None) -> list[SystemConfig]:
    """The systems named by the filter; InputError when it names none of the config's systems."""
    if not names:
        return systems
    chosen = [s for s in systems if s.name in names]
    if not chosen:
        known = ", ".join(s.name for s in systems) or "none"
        raise InputError(f"the system filter {', '.join(names)} selects no system of the run (systems: {known})",
                         field="systems")  # fmt: skip
    return chosen


def judge_targets(
    store: Any,
    tasks: Sequence[FalloesungTask | PrincipleItem],
    systems: Sequence[SystemConfig],
    prompts: PromptSet,
    *,
    human_solutions: bool = False,
    rubrics: Mapping[str, Rubric] | None = None,
) -> list[tuple[str, str, Rubric]]:
    """(target_kind, target_id, rubric) of the ok generations of these systems (current prompts) on these tasks.

    ``rubric``: the task's (``rubric_for_task``: its own Bewertungsbogen, else ``rubrics[corpus]``, else the
    built-in rubric of its kind). With no systems, every ok generation of these tasks in the store is a target.

    The targets of one task come together (its generations in the store's order of system, config and run, then
    its human solutions), tasks in (corpus, task id) order: a judge prompt starts with what every judgement of a
    task shares (rubric, Sachverhalt, Musterlösung: 7-11k tokens on the release), and an embedded llama.cpp judge
    evaluates that prefix once per task instead of once per judgement (in the store's order, system by system,
    each judgement followed one of another task).
    """
    of_task = {(t.corpus, t.task_id): rubric_for_task(t, rubrics) for t in tasks}  # a task is (corpus, task id)
    hashes = {prompts.generation_config_hash(s, k) for s in systems for k in ("falloesung", "grundprinzip")}
    by_task: dict[tuple[str | None, str], list[tuple[str, str, Rubric]]] = {}
    for g in store.generations(status="ok", task_ids=sorted({t for _, t in of_task})):
        if (g.corpus, g.task_id) in of_task and (not systems or g.config_hash in hashes):
            by_task.setdefault((g.corpus, g.task_id), []).append(
                ("generation", g.generation_id, of_task[(g.corpus, g.task_id)])
            )
    if human_solutions:
        for task in tasks:
            if isinstance(task, FalloesungTask):
                found = store.human_solutions(task.task_id, corpus=task.corpus)
                by_task.setdefault((task.corpus, task.task_id), []).extend(
                    ("human_solution", s.solution_id, of_task[(task.corpus, task.task_id)]) for s in found
                )
    return [t for key in sorted(by_task, key=lambda k: (k[0] or "", k[1])) for t in by_task[key]]


def run_rubrics(config: RunConfig, corpora: Sequence[str]) -> dict[str, Rubric]:
    """The config's ``rubrics:`` (corpus name -> rubric); InputError for a corpus that is not one of the run's."""
    rubrics = config.resolved_rubrics()
    unknown = sorted(set(rubrics) - set(corpora))
    if unknown:
        raise InputError(
            f"rubrics: {unknown[0]!r} is not a corpus of this run (its corpora: {', '.join(corpora)})",
            file=config.source,
            field=f"rubrics.{unknown[0]}",
        )
    return rubrics


def run_prompts(config: RunConfig) -> PromptSet:
    """The PromptSet of a run config: its template overrides and prompt options (the local runner and the
    Celery executor both build it here, so a worker renders the same prompts and computes the same keys)."""
    return PromptSet(overrides=dict(config.prompts), **{name: getattr(config, name) for name in PROMPT_OPTIONS})


async def run_config(
    config: RunConfig,
    store: Any,
    *,
    stages: Sequence[Stage] = STAGES,
    progress: ProgressReporter | None = None,
    model_factory: ModelFactory | None = None,
) -> RunResult:
    """Run the stages (``STAGES``: "generate", "judge") of ``config`` against ``store``; every finished item is
    saved as it arrives.

    ValueError for an unknown stage name (the leaderboard is the caller's: see the module docstring).
    """
    unknown = [stage for stage in stages if stage not in STAGES]
    if unknown:
        raise ValueError(
            f"unknown stage(s) {', '.join(map(repr, unknown))}; the stages are {', '.join(STAGES)} (build the "
            "leaderboard after the run: benger.analysis.leaderboard_from_store)"
        )
    prompts = run_prompts(config)
    result = RunResult()
    result.corpora, sources = check_run(config, store, stages)  # a bad selection writes and calls nothing
    busy = busy_models(config, store, stages, result.corpora, sources)
    await check_endpoints(config, stages, busy=busy)  # nor does a server that is not there (of a model with work)
    if sources:
        store.add_corpora(sources)
    tasks = select_tasks(store, result.corpora, config)
    rubrics = run_rubrics(config, result.corpora)
    systems = _filter_systems(config.resolved_systems(), config.filters.systems)
    judges = config.resolved_judges()
    result.systems = [s.name for s in systems]
    result.judges = [j.name for j in judges]
    for system in [*systems, *judges]:
        store.upsert_system(system)
    executor = make_executor(config.executor, config.concurrency, config=config, store=store)
    retry = config.retry
    policy = RetryPolicy(max_retries=retry.max_retries, initial_wait=retry.initial_wait, max_wait=retry.max_wait)
    reask = RetryPolicy(max_retries=retry.max_retries, initial_wait=0.0, jitter=0.0)
    if model_factory is None:
        from benger.llm import create_model

        model_factory = functools.partial(create_model, policy=policy)
    pool = ModelPool(model_factory, concurrency=config.concurrency)
    try:
        if "generate" in stages and systems:
            units = plan_generations(store, tasks, systems, prompts, repetitions=config.repetitions)
            result.generation = await _run_generations(
                store,
                units,
                prompts=prompts,
                executor=executor,
                models=pool,
                progress=progress,
                min_output_tokens=config.min_output_tokens,
                tasks={(t.corpus, t.task_id): t for t in tasks},
                reask_policy=reask,
            )
            # the stage's texts into the viewer's search index in one batch (~0.1 ms a text), never between
            # calls: a sync holds the event loop and the write lock (benger.store._fulltext)
            store.sync_search_index()
        if "judge" in stages and judges:
            targets = judge_targets(
                store, tasks, systems, prompts, human_solutions=config.judge_human_solutions, rubrics=rubrics
            )
            judge_units = plan_judgements(store, targets, judges, prompts, repeats=config.repeats)
            result.judgement = await _run_judgements(
                store,
                judge_units,
                prompts=prompts,
                executor=executor,
                models=pool,
                progress=progress,
                reask_policy=reask,
            )
    finally:
        await pool.aclose()
    if "generate" in stages and systems:
        result.remaining["generate"] = len(
            plan_generations(store, tasks, systems, prompts, repetitions=config.repetitions)
        )
        result.excluded = _excluded(store, tasks, systems, prompts)
    if "judge" in stages and judges:
        targets = judge_targets(
            store, tasks, systems, prompts, human_solutions=config.judge_human_solutions, rubrics=rubrics
        )
        result.remaining["judge"] = len(plan_judgements(store, targets, judges, prompts, repeats=config.repeats))
    return result
