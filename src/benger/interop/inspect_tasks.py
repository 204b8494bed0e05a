"""BenGER as inspect_ai tasks: benger's corpora and prompts, benger's rubric judge as the scorer.

Installed as the inspect_ai entry point ``benger`` (pyproject ``[project.entry-points.inspect_ai]``), so with
``pip install 'benger[inspect]'``::

    inspect eval benger/benchathon --model openai/gpt-4o -T judge=openai/gpt-4o-mini
    inspect eval benger/grundprinzipien --model ... -T release=../shared/benger-release -T tasks=gp-0001,gp-0002
    inspect eval benger/zjs --model ... -T path=zjs.json       # or benger/corpus -T source=my-cases.jsonl

(or by file: ``inspect eval src/benger/interop/inspect_tasks.py@benchathon``). Each sample is one task of the
corpus (id = task id) with benger's generation prompt (``benger.pipeline.PromptSet``) and reply schema. The solver
reads the reply as benger does (``parse_generation``); the scorer ``rubric_judge`` renders benger's judge prompt,
asks the judge model (``-T judge=MODEL``, an inspect model name; default the ``grader`` model role, else the model
under test) and validates the reply with ``parse_judgement``: the score is benger's own total (0-100 raw points),
its metadata the dimensions, justifications, grade points, pass and the provenance (``rubric_id``,
``judge_config_hash``, prompt hash). An unparseable reply is unscored (value ``"unscored"``), never 0.
Grundprinzipien tasks add ``ja_nein`` (the answer against the gold label). ``benger import inspect LOG`` turns
the log into a recorded system and judge of a benger store (:mod:`benger.interop.inspect_log`).
"""

from __future__ import annotations

import os
from typing import Any

from inspect_ai import Epochs, Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import (
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    ModelOutput,
    ResponseSchema,
    get_model,
)
from inspect_ai.scorer import CORRECT, INCORRECT, NOANSWER, Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import JSONSchema

from benger.corpora import resolve_corpus_source
from benger.errors import InputError
from benger.judge import Unscored, parse_judgement
from benger.llm._reply import AmbiguousOutput, MalformedOutput
from benger.pipeline import PromptSet, rubric_for_kind, task_and_reference
from benger.pipeline._execute import judge_candidate
from benger.pipeline._reading import parse_generation
from benger.schema import FalloesungTask, PrincipleItem, SystemConfig
from benger.schema import Task as BengerTask
from benger.store._convert import TASK_ADAPTER

#: The key under which benger's records sit in sample metadata, the sample store and score metadata.
KEY = "benger"
UNSCORED = "unscored"
#: Attempts at a judge reply that benger can read (the first ask and two re-asks, as the pipeline's REASK_POLICY).
JUDGE_ATTEMPTS = 3
_RELEASE_ENV = "BENGER_RELEASE"


def _release(release: str | None) -> str:
    folder = release or os.environ.get(_RELEASE_ENV)
    if not folder:
        raise InputError(f"name the release folder: -T release=PATH (or set {_RELEASE_ENV})", field="release")
    return folder


Ids = str | list[str] | None


def samples(source: str, *, corpus: str | None = None, tasks: Ids = None) -> list[Sample]:
    """The samples of a benger corpus source (``release:PATH``, ``zjs:PATH``, a file, ``demo``...): one per task,
    in corpus order; ``corpus`` picks one corpus of a source with several, ``tasks`` a subset (a list of ids, or one
    comma-separated string: ``-T tasks=a,b`` reaches the task as a list)."""
    loaded = resolve_corpus_source(source)
    if corpus is not None:
        loaded = [c for c in loaded if c.name == corpus]
        if not loaded:
            raise InputError(f"{source!r} holds no corpus {corpus!r}", field="corpus")
    given = tasks.split(",") if isinstance(tasks, str) else tasks
    wanted = [str(t).strip() for t in given if str(t).strip()] if given else None
    prompts = PromptSet()
    out = []
    for c in loaded:
        for item in c.tasks:
            if wanted is not None and item.task_id not in wanted:
                continue
            system, user = prompts.generation_messages(item)
            target = item.gold_answer if isinstance(item, PrincipleItem) else item.reference
            meta = {"corpus": c.name, "task": item.model_dump(mode="json"), "prompt_hash": prompts.hash_for(item.kind)}
            out.append(
                Sample(
                    id=item.task_id if len(loaded) == 1 else f"{c.name}/{item.task_id}",
                    input=[ChatMessageSystem(content=system.content), ChatMessageUser(content=user.content)],
                    target=target,
                    metadata={KEY: meta},
                )
            )
    missing = sorted(set(wanted or []) - {s.metadata[KEY]["task"]["task_id"] for s in out if s.metadata})
    if missing:
        raise InputError(f"no task {', '.join(missing)} in {source!r}", field="tasks")
    return out


def sample_task(state: TaskState) -> BengerTask:
    """The benger task record of a sample (from its metadata)."""
    task_record: FalloesungTask | PrincipleItem = TASK_ADAPTER.validate_python(state.metadata[KEY]["task"])
    return task_record


@solver
def benger_solution() -> Solver:
    """Ask the model under test with benger's prompt and reply schema; read the reply as benger does."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        item = sample_task(state)
        schema = PromptSet().schema_for(item)
        if schema is not None:
            response_schema = ResponseSchema(name=f"benger_{item.kind}", json_schema=JSONSchema.model_validate(schema))
            state = await generate(state, response_schema=response_schema)
        else:
            state = await generate(state)
        truncated = state.output.stop_reason == "max_tokens"
        record: dict[str, Any] = {"truncated": truncated, "finish_reason": state.output.stop_reason}
        try:
            text, answer = parse_generation(state.output.completion, item, truncated=truncated)
            record |= {"status": "ok", "text": text, "answer": answer}
        except (MalformedOutput, AmbiguousOutput) as exc:
            record |= {"status": "excluded", "text": "", "answer": None, "reason": f"malformed: {exc}"}
        state.store.set(KEY, record)
        return state

    return solve


def judge_config(model: Model, temperature: float, max_tokens: int) -> SystemConfig:
    """The benger system configuration of a judge model called through inspect (its hash names the judge)."""
    return SystemConfig(
        name=str(model), provider="inspect", model=str(model), temperature=temperature, max_output_tokens=max_tokens
    )


@metric
def scored_mean() -> Metric:
    """Mean of the scored samples' values (unscored samples left out, never counted as 0)."""

    def compute(scores: list[SampleScore]) -> float:
        values = [float(s.score.value) for s in scores if isinstance(s.score.value, int | float)]
        return sum(values) / len(values) if values else float("nan")

    return compute


@metric
def unscored() -> Metric:
    """How many samples the judge could not score."""

    def compute(scores: list[SampleScore]) -> int:
        return sum(1 for s in scores if not isinstance(s.score.value, int | float))

    return compute


@scorer(metrics=[scored_mean(), unscored()])
def rubric_judge(judge: str | None = None, temperature: float = 0.0, max_tokens: int = 4000) -> Scorer:
    """benger's rubric judge (Falllösung: 10 dimensions, 100 points, grade points; Grundprinzip: 4 dimensions)."""

    async def score(state: TaskState, target: Target) -> Score:
        model = get_model(judge) if judge else get_model(role="grader", default=get_model())
        item = sample_task(state)
        produced = state.store.get(KEY) or {}
        rubric = rubric_for_kind(item.kind)
        prompts = PromptSet()
        template = prompts.judge_template(rubric.name)
        task_text, reference = task_and_reference(item)
        candidate = judge_candidate(item, produced.get("text", ""), produced.get("answer"))
        prompt = template.render(rubric, task=task_text, reference=reference, candidate=candidate)
        config = judge_config(model, temperature, max_tokens)
        provenance = {
            "judge": config.name,
            "judge_model": config.model,
            "judge_config": config.model_dump(mode="json"),
            "judge_config_hash": prompts.judge_config_hash(config, rubric),
            "rubric_id": rubric.id,
            "template_hash": template.hash,
        }
        if produced.get("status") != "ok":
            reason = f"no solution to judge ({produced.get('reason') or 'not generated'})"
            return Score(
                value=UNSCORED, explanation=reason, metadata={KEY: provenance | {"status": UNSCORED, "reason": reason}}
            )
        generate_config = GenerateConfig(
            temperature=temperature,
            max_tokens=max_tokens,
            response_schema=ResponseSchema(
                name="benger_judgement", json_schema=JSONSchema.model_validate(prompts.judge_schema(rubric))
            ),
        )
        parsed: Any = None
        for _ in range(JUDGE_ATTEMPTS):
            output = await model.generate([ChatMessageUser(content=prompt)], config=generate_config)
            parsed = parse_judgement(output.completion, rubric, quoted=[prompt])
            if not isinstance(parsed, Unscored) or parsed.kind == "ambiguous":
                break
        if isinstance(parsed, Unscored):
            record = provenance | {"status": UNSCORED, "reason": parsed.reason}
            return Score(value=UNSCORED, explanation=parsed.reason, metadata={KEY: record})
        record = provenance | {
            "status": "scored",
            "dimensions": parsed.dimensions,
            "justifications": parsed.justifications,
            "total": parsed.total,
            "grade_points": parsed.grade_points,
            "passed": parsed.passed,
            "model_total": parsed.model_total,
            "answer": parsed.answer,
        }
        return Score(
            value=parsed.total, answer=produced.get("answer"), explanation=parsed.overall, metadata={KEY: record}
        )

    return score


@metric
def answered_accuracy() -> Metric:
    """Ja/Nein accuracy over the answered items (benger's leaderboard column; unanswered items left out)."""

    def compute(scores: list[SampleScore]) -> float:
        answered = [s.score.value for s in scores if s.score.value in (CORRECT, INCORRECT)]
        return sum(v == CORRECT for v in answered) / len(answered) if answered else float("nan")

    return compute


@scorer(metrics=[answered_accuracy()])
def ja_nein() -> Scorer:
    """The model's Ja/Nein answer (read by benger from its reply) against the gold label: C, I, or N (none)."""

    async def score(state: TaskState, target: Target) -> Score:
        answer = (state.store.get(KEY) or {}).get("answer")
        if answer is None:
            return Score(value=NOANSWER, answer=None)
        return Score(value=CORRECT if answer == target.text else INCORRECT, answer=answer)

    return score


def corpus_task(source: str, *, corpus: str | None, tasks: Ids, judge: str | None) -> Task:
    """A Task over a benger corpus source: benger's solver, the rubric judge (+ Ja/Nein for Grundprinzipien)."""
    dataset = samples(source, corpus=corpus, tasks=tasks)
    kinds = {s.metadata[KEY]["task"]["kind"] for s in dataset if s.metadata}
    scorers = [rubric_judge(judge=judge), *([ja_nein()] if "grundprinzip" in kinds else [])]
    name = corpus or source
    return Task(
        dataset=MemoryDataset(dataset, name=name),
        solver=benger_solution(),
        scorer=scorers,
        # "mode" keeps a sample's own value for one epoch ("mean", inspect's default, would turn "unscored" into 0
        # and C/I into 1/0 before the metrics see them)
        epochs=Epochs(1, "mode"),
        metadata={KEY: {"source": source, "corpus": corpus, "tasks": tasks}},
    )


@task
def benchathon(release: str | None = None, judge: str | None = None, tasks: Ids = None) -> Task:
    """The 15 Benchathon exam cases of the release (``release``: the folder, or $BENGER_RELEASE)."""
    return corpus_task(f"release:{_release(release)}", corpus="benchathon", tasks=tasks, judge=judge)


@task
def grundprinzipien(release: str | None = None, judge: str | None = None, tasks: Ids = None) -> Task:
    """The 531 Grundprinzipien items of the release, scored by the short-item rubric and Ja/Nein accuracy."""
    return corpus_task(f"release:{_release(release)}", corpus="grundprinzipien", tasks=tasks, judge=judge)


@task
def zjs(path: str, judge: str | None = None, tasks: Ids = None) -> Task:
    """The ZJS cases (``path``: zjs.json or a release folder holding data/interim/zjs.json)."""
    return corpus_task(f"zjs:{path}", corpus="zjs", tasks=tasks, judge=judge)


@task
def corpus(source: str, name: str | None = None, judge: str | None = None, tasks: Ids = None) -> Task:
    """Any benger corpus source: a JSONL/CSV file, ``demo``, ``release:PATH`` (``name`` picks one corpus)."""
    return corpus_task(source, corpus=name, tasks=tasks, judge=judge)


def pick_samples(release: str, picks: Ids = None) -> list[Sample]:
    """One sample per released validation pick (``Release.picks``: 30 human solutions, 15 generations), in
    solution-id order: id = the pick's solution id (the key of ``benger validate-judge``), input = the pick's
    text, metadata = the Benchathon case and the pick (pick id, solution id, pool). ``picks``: a subset, by pick
    id (``P01``) or solution id."""
    from benger.corpora import load_release

    loaded = load_release(release)
    cases = {t.task_id: t for t in loaded.benchathon.tasks}
    given = picks.split(",") if isinstance(picks, str) else picks
    wanted = {str(p).strip() for p in given if str(p).strip()} if given else None
    out = []
    for pick in sorted(loaded.picks, key=lambda p: p.subject_id):
        if wanted is not None and not {pick.pick_id, pick.subject_id} & wanted:
            continue
        pool = "llm" if pick.subject_type == "model" else "human"
        meta = {
            "corpus": loaded.benchathon.name,
            "task": cases[pick.task_id].model_dump(mode="json"),
            "pick": {"pick_id": pick.pick_id, "solution_id": pick.subject_id, "pool": pool, "text": pick.text},
        }
        out.append(Sample(id=pick.subject_id, input=pick.text, metadata={KEY: meta}))
    missing = sorted((wanted or set()) - {p for s in out for p in (s.metadata or {})[KEY]["pick"].values()})
    if missing:
        raise InputError(f"no validation pick {', '.join(missing)} in the release {release!r}", field="picks")
    return out


@solver
def stored_solution() -> Solver:
    """The pick's stored text as the output to judge: no model call (the pick was written before the run)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        text = state.metadata[KEY]["pick"]["text"]
        state.output = ModelOutput.from_content(model="benger/stored", content=text)
        state.store.set(KEY, {"status": "ok", "text": text, "answer": None, "truncated": False})
        return state

    return solve


@task
def validation_picks(release: str | None = None, judge: str | None = None, picks: Ids = None) -> Task:
    """The 45 validation picks of the release judged by ``rubric_judge`` (``judge``, else the ``grader`` role, else
    the model given with ``--model``); ``benger validate-judge --recorded LOG`` validates the judge from the log."""
    folder = _release(release)
    return Task(
        dataset=MemoryDataset(pick_samples(folder, picks), name="validation_picks"),
        solver=stored_solution(),
        scorer=rubric_judge(judge=judge),
        epochs=Epochs(1, "mode"),
        metadata={KEY: {"source": f"release:{folder}", "validation_picks": True, "picks": picks}},
    )
