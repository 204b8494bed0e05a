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


def generation_id(task_id: str, config_hash: str, run_index: int) -> str:
    return "gen-" + stable_hash([task_id, config_hash, run_index], length=24)


def judgement_id(target_kind: str, target_id: str, judge_hash: str, rubric_id: str, repeat_index: int) -> str:
    return "jdg-" + stable_hash([target_kind, target_id, judge_hash, rubric_id, repeat_index], length=24)


class GenerationUnit(BaseModel):
    """Generate the output of ``system`` for ``task_id`` (run ``run_index`` of its repetitions)."""

    model_config = ConfigDict(extra="forbid")
    task_id: str
    system: SystemConfig
    run_index: int = 0

    def key(self, prompt_hash: str) -> tuple[str, str, int]:
        return (self.task_id, pipeline_config_hash(self.system, prompt_hash), self.run_index)


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
