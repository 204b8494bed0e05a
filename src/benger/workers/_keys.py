"""Where a unit's result lives in the store, and whether it counts as done (shared by tasks and executor)."""

from __future__ import annotations

from typing import Any

from benger.errors import InputError
from benger.pipeline import (
    GenerationUnit,
    JudgeUnit,
    PromptSet,
    generation_id,
    judgement_id,
)
from benger.schema import Generation, Judgement

Unit = GenerationUnit | JudgeUnit
Record = Generation | Judgement
FINAL_STATUSES = frozenset({"ok", "excluded", "scored"})


def unit_kind(unit: Unit) -> str:
    """ "generation" or "judgement"."""
    return "generation" if isinstance(unit, GenerationUnit) else "judgement"


def _task(store: Any, unit: GenerationUnit) -> Any:
    task = store.get_task(unit.task_id, unit.corpus)
    if task is None:
        where = f" of corpus {unit.corpus!r}" if unit.corpus is not None else ""
        raise InputError(f"task {unit.task_id!r}{where} is not in the store")
    return task


def record_id(store: Any, unit: Unit, prompts: PromptSet) -> str:
    """The id a new record of the unit gets (``gen-...`` / ``jdg-...``): the lease key of the unit. Whether the
    unit is done is never decided by this id (a store from before schema 0007 holds generations under ids derived
    without the corpus): see :func:`stored_record`."""
    if isinstance(unit, GenerationUnit):
        task = _task(store, unit)
        config_hash = prompts.generation_config_hash(unit.system, task.kind)
        return generation_id(unit.task_id, config_hash, unit.run_index, task.corpus)
    rubric = unit.rubric  # the rubric the unit carries, never rebuilt from its name
    judge_hash = prompts.judge_config_hash(unit.judge, rubric)  # the pipeline's own key (template + options)
    return judgement_id(unit.target_kind, unit.target_id, judge_hash, rubric.id, unit.repeat_index)


def stored_record(store: Any, unit: Unit, prompts: PromptSet) -> Record | None:
    """The record the store holds for the unit's unique key (a generation: corpus, task_id, config_hash,
    run_index), or None."""
    if isinstance(unit, GenerationUnit):
        task = _task(store, unit)
        config_hash = prompts.generation_config_hash(unit.system, task.kind)
        result: Record | None = store.get_generation(unit.task_id, config_hash, unit.run_index, task.corpus)
        return result
    rubric = unit.rubric  # the rubric the unit carries, never rebuilt from its name
    judge_hash = prompts.judge_config_hash(unit.judge, rubric)
    judgement: Record | None = store.get_judgement(
        unit.target_kind, unit.target_id, judge_hash, rubric.id, unit.repeat_index
    )
    return judgement


def is_done(record: Record | None, since: float | None = None) -> bool:
    """True when the unit needs no further call in this run.

    Final records (``ok``/``excluded`` generations, ``scored`` judgements) are never redone; a ``failed`` or
    ``unscored`` record counts as this run's answer when it was written at or after ``since`` (the run's
    start), so a redelivered task does not pay for the same call again within one run.
    """
    if record is None:
        return False
    if record.status in FINAL_STATUSES:
        return True
    completed = record.meta.get("completed_at") if record.meta else None
    return since is not None and isinstance(completed, int | float) and completed >= since
