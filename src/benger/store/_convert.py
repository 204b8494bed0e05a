"""Conversions between the pydantic records of benger.schema and the table rows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, TypeAdapter

from benger.schema import (
    FalloesungTask,
    Generation,
    HumanReview,
    HumanSolution,
    Judgement,
    PrincipleItem,
    SystemConfig,
    Task,
)
from benger.store._pass import pass_value
from benger.store._text import restored, restored_json

if TYPE_CHECKING:  # the rows' classes only annotate: a Core-only reader converts tasks without the ORM
    from benger.store._models import GenerationRow, HumanReviewRow, HumanSolutionRow, JudgementRow, MetricValueRow

TASK_ADAPTER: TypeAdapter[FalloesungTask | PrincipleItem] = TypeAdapter(Task)


class MetricValue(BaseModel):
    """One stored automatic metric value (unique on target_kind, target_id, metric, signature)."""

    target_kind: str
    target_id: str
    metric: str
    signature: str
    value: float
    details: dict[str, Any] | None = None


def values(record: BaseModel) -> dict[str, Any]:
    """The record as column values (JSON-safe dicts for the JSON columns)."""
    return record.model_dump(mode="json")


def _columns(row: object, names: list[str]) -> dict[str, Any]:
    return {name: getattr(row, name) for name in names if hasattr(row, name)}


_GEN_FIELDS = list(Generation.model_fields)
_SOL_FIELDS = list(HumanSolution.model_fields)
_JUDGE_FIELDS = list(Judgement.model_fields)
_REVIEW_FIELDS = list(HumanReview.model_fields)


def generation(row: GenerationRow) -> Generation:
    return Generation.model_validate(restored(type(row), _columns(row, _GEN_FIELDS)))


def human_solution(row: HumanSolutionRow) -> HumanSolution:
    return HumanSolution.model_validate(restored(type(row), _columns(row, _SOL_FIELDS)))


def judgement(row: JudgementRow) -> Judgement:
    """The record of a judgements row; a row stored without a pass value gets its rubric's derived one
    (:func:`benger.store._pass.pass_value`)."""
    data = restored(type(row), _columns(row, _JUDGE_FIELDS))
    data["passed"] = pass_value(row.rubric_id, row.status, row.total, row.passed)
    return Judgement.model_validate(data)


def human_review(row: HumanReviewRow) -> HumanReview:
    return HumanReview.model_validate(restored(type(row), _columns(row, _REVIEW_FIELDS)))


def metric_value(row: MetricValueRow) -> MetricValue:
    return MetricValue(
        target_kind=row.target_kind,
        target_id=row.target_id,
        metric=row.metric,
        signature=row.signature,
        value=row.value,
        details=restored_json(row.details),
    )


def task(payload: dict[str, Any], corpus: str | None = None) -> FalloesungTask | PrincipleItem:
    """The task record of a ``tasks`` row; ``corpus`` (the row's column, part of the key) wins over the payload's."""
    data = restored_json(payload)
    return TASK_ADAPTER.validate_python(data if corpus is None else {**data, "corpus": corpus})


def system_row(system: SystemConfig) -> dict[str, Any]:
    """The ``systems`` row of a configuration (key: name and config hash)."""
    return {"name": system.name, "config_hash": system.config_hash(), "config": system.model_dump(mode="json")}
