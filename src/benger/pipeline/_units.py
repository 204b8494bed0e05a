"""Units of work: generate one item, judge one item. Plain pydantic so a Celery worker can run them unchanged."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, model_validator

from benger.errors import ConfigError, InputError
from benger.judge import RUBRICS, Rubric, falloesung_rubric, grundprinzipien_rubric, load_rubric
from benger.judge._rubric import rubric_from_data
from benger.judge._stored import stored_rubric
from benger.schema import FalloesungTask, PrincipleItem, SystemConfig, TargetKind, stable_hash


def pipeline_config_hash(system: SystemConfig, prompt_hash: str) -> str:
    """The config hash stored with a generation: the system's output-relevant settings plus the prompt hash.

    Changing the model, its decoding settings or the prompt templates of a task kind makes new work;
    renaming a system or changing its price does not.
    """
    return stable_hash({"system": system.config_hash(), "prompts": prompt_hash})


def generation_id(task_id: str, config_hash: str, run_index: int, corpus: str) -> str:
    """The id of a new generation: a hash of its whole unit key, the corpus included (a task is (corpus, task id),
    so one task id in two corpora gives two ids).

    Ids derived before the corpus became part of a task's identity (store schema < 0007) hashed
    ``[task_id, config_hash, run_index]``; stored rows keep them (judgements, metric values and reviews name
    them). Nothing looks a generation up by a derived id: whether a unit is done is decided by its stored unit
    key (corpus, task_id, config_hash, run_index) everywhere (the runner's plan, the claim's ``EXISTS``, the
    Celery task's ``stored_record``), so resuming an old store neither redoes nor re-pays a finished unit, and a
    ``failed`` row redone under the new id is replaced on that key. The judgement id needs no corpus: its target
    id already differs."""
    return "gen-" + stable_hash([corpus, task_id, config_hash, run_index], length=24)


def judgement_id(target_kind: str, target_id: str, judge_hash: str, rubric_id: str, repeat_index: int) -> str:
    return "jdg-" + stable_hash([target_kind, target_id, judge_hash, rubric_id, repeat_index], length=24)


class GenerationUnit(BaseModel):
    """Generate the output of ``system`` for the task (``corpus``, ``task_id``) (run ``run_index`` of its
    repetitions). ``corpus`` None: the one corpus that holds ``task_id`` (refused when several do)."""

    model_config = ConfigDict(extra="forbid")
    task_id: str
    system: SystemConfig
    run_index: int = 0
    corpus: str | None = None

    def key(self, prompt_hash: str) -> tuple[str | None, str, str, int]:
        return (self.corpus, self.task_id, pipeline_config_hash(self.system, prompt_hash), self.run_index)


class JudgeUnit(BaseModel):
    """Judge one target (a generation or a human solution) with ``judge`` under ``rubric``, repeat k.

    The unit carries the whole rubric (a Celery worker judges with the rubric it receives, never one rebuilt from
    a name); ``rubric_id`` is its id. Built from ``rubric_id`` alone, the unit resolves a built-in rubric
    (:func:`resolve_rubric`); a ``rubric_id`` that is not the rubric's id is refused."""

    model_config = ConfigDict(extra="forbid")
    target_kind: TargetKind
    target_id: str
    judge: SystemConfig
    rubric_id: str
    rubric: Rubric
    repeat_index: int = 0

    @model_validator(mode="before")
    @classmethod
    def _fill_rubric(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        if data.get("rubric") is None and isinstance(data.get("rubric_id"), str):
            data = {**data, "rubric": resolve_rubric(data["rubric_id"])}
        elif data.get("rubric") is not None and "rubric_id" not in data:
            rubric = data["rubric"]
            data = {**data, "rubric_id": (rubric if isinstance(rubric, Rubric) else rubric_from_data(rubric)).id}
        return data

    @model_validator(mode="after")
    def _same_rubric(self) -> JudgeUnit:
        if self.rubric.id != self.rubric_id:
            raise ValueError(f"rubric_id {self.rubric_id!r} is not the id of the unit's rubric ({self.rubric.id})")
        return self

    def key(self, template_hash: str) -> tuple[str, str, str, str, int]:
        return (
            self.target_kind,
            self.target_id,
            pipeline_config_hash(self.judge, template_hash),
            self.rubric_id,
            self.repeat_index,
        )


def rubric_for_kind(kind: str) -> Rubric:
    """The built-in rubric for a task kind: "falloesung" -> Falllösung, "grundprinzip" -> Grundprinzipien."""
    return falloesung_rubric() if kind == "falloesung" else grundprinzipien_rubric()


def rubric_for_task(task: FalloesungTask | PrincipleItem, corpus_rubrics: Mapping[str, Rubric] | None = None) -> Rubric:
    """The rubric a task is judged with: its own Bewertungsbogen (``task.rubric``), else its corpus's rubric of the
    run config (``rubrics: {corpus: file}``), else the built-in rubric of its kind.

    InputError when the chosen rubric is for the other task kind (a Grundprinzip rubric on a Falllösung)."""
    if task.rubric is not None:
        rubric = _task_rubric(task)
        origin = f"the Bewertungsbogen of task {task.task_id!r} (corpus {task.corpus!r})"
    elif corpus_rubrics and task.corpus in corpus_rubrics:
        rubric = corpus_rubrics[task.corpus]
        origin = f"the rubric of corpus {task.corpus!r}"
    else:
        return rubric_for_kind(task.kind)
    if rubric.task_kind != task.kind:
        raise InputError(
            f"{origin}, {rubric.id}, scores {rubric.task_kind} tasks, but task {task.task_id!r} is a {task.kind} "
            "(set the rubric's 'kind')",
            field="rubrics",
        )
    return rubric


_TASK_RUBRICS: dict[str, Rubric] = {}


def _task_rubric(task: FalloesungTask | PrincipleItem) -> Rubric:
    """A task's own rubric, parsed once per content (the corpus reader validated it on import)."""
    key = stable_hash(task.rubric, length=32)
    if key not in _TASK_RUBRICS:
        _TASK_RUBRICS[key] = rubric_from_data(task.rubric, f"task {task.task_id!r} of corpus {task.corpus!r}")
    return _TASK_RUBRICS[key]


def resolve_rubric(rubric_id: str, store: Any = None) -> Rubric:
    """A rubric by id: a registered rubric ("name@version" or the full "name@version+sha8"), else the rubric
    ``store`` keeps under that id (the content of every rubric judged with, ``benger.judge.stored_rubric``), else a
    YAML path.

    ConfigError when neither the registry nor the store holds the rubric the id names.
    """
    name, _, version = rubric_id.partition("@")
    if name in RUBRICS:
        rubric = load_rubric(name)
        wanted = rubric.id if "+" in version else rubric.base_id
        if not version or rubric_id == wanted:
            return rubric
    kept = stored_rubric(store, rubric_id) if store is not None and "@" in rubric_id else None
    if kept is not None:
        return kept
    if name in RUBRICS:
        raise ConfigError(f"rubric {rubric_id!r} is not available (the registered rubric is {rubric.id})")
    if "@" in rubric_id and not Path(rubric_id).exists():
        raise ConfigError(
            f"rubric {rubric_id!r} is not a registered rubric nor kept in the store; a unit of your own rubric "
            "carries the rubric itself (JudgeUnit.rubric)"
        )
    return load_rubric(rubric_id)
