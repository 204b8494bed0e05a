"""Units of work: generate one item, judge one item. Plain pydantic so a Celery worker can run them unchanged."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from benger.errors import ConfigError
from benger.judge import Rubric, falloesung_rubric, grundprinzipien_rubric, load_rubric
from benger.schema import SystemConfig, TargetKind, stable_hash


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
    """Judge one target (a generation or a human solution) with ``judge`` under ``rubric_id``, repeat k."""

    model_config = ConfigDict(extra="forbid")
    target_kind: TargetKind
    target_id: str
    judge: SystemConfig
    rubric_id: str
    repeat_index: int = 0

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


def resolve_rubric(rubric_id: str) -> Rubric:
    """A rubric by id among the built-ins ("name@version" or the full "name@version+sha8"), or a YAML path.

    ConfigError when the built-in's version or content hash is not the one the id names.
    """
    name, _, version = rubric_id.partition("@")
    if name in ("falloesung", "grundprinzipien"):
        rubric = load_rubric(name)
        wanted = rubric.id if "+" in version else rubric.base_id
        if version and rubric_id != wanted:
            raise ConfigError(f"rubric {rubric_id!r} is not available (the built-in rubric is {rubric.id})")
        return rubric
    return load_rubric(rubric_id)
