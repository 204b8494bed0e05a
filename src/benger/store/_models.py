"""The ORM classes of the core tables (corpora, tasks, systems, generations, human solutions, judgements,
reviews, metrics, claims, validations, rubrics, budgets), mapped onto the Core tables of
:mod:`benger.store._tables`, which define the columns, keys and the identity of each unit of work."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy.orm import Mapped

from benger.store import (
    _aggregate,  # noqa: F401  (registers the indexes of migrations 0005 and 0012 on the tables)
    _orgs,  # noqa: F401  (registers the organisation tables of migration 0010 on Base)
)
from benger.store import _tables as _t
from benger.store._base import Base
from benger.store._tables import CORE_TABLES


class CorpusRow(Base):
    """A named corpus."""

    __table__ = _t.CORPORA

    name: Mapped[str]
    description: Mapped[str | None]


class TaskRow(Base):
    """A task of a corpus, keyed by (corpus, task_id); ``payload`` is the full pydantic record, ``position`` its
    place in the corpus."""

    __table__ = _t.TASKS

    corpus: Mapped[str]
    task_id: Mapped[str]
    position: Mapped[int]
    kind: Mapped[str]
    area: Mapped[str]
    payload: Mapped[dict[str, Any]]


class SystemRow(Base):
    """A system configuration (under test or a judge): keyed by name and output-relevant config hash, so two
    configurations that share a name are both kept (the name is a label, the hash the identity)."""

    __table__ = _t.SYSTEMS

    name: Mapped[str]
    config_hash: Mapped[str]
    config: Mapped[dict[str, Any]]


class GenerationRow(Base):
    """One system output; unique on (corpus, task_id, config_hash, run_index)."""

    __table__ = _t.GENERATIONS

    generation_id: Mapped[str]
    corpus: Mapped[str]
    task_id: Mapped[str]
    system: Mapped[str]
    config_hash: Mapped[str]
    run_index: Mapped[int]
    status: Mapped[str]
    text: Mapped[str]
    answer: Mapped[str | None]
    reason: Mapped[str | None]
    finish_reason: Mapped[str | None]
    truncated: Mapped[bool]
    refused: Mapped[bool]
    input_tokens: Mapped[int | None]
    output_tokens: Mapped[int | None]
    latency_s: Mapped[float | None]
    cost_usd: Mapped[float | None]
    meta: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class HumanSolutionRow(Base):
    """A participant's solution (traditional or co-creation)."""

    __table__ = _t.HUMAN_SOLUTIONS

    solution_id: Mapped[str]
    corpus: Mapped[str]
    task_id: Mapped[str]
    participant_id: Mapped[str]
    condition: Mapped[str]
    text: Mapped[str]
    meta: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class JudgementRow(Base):
    """A rubric judgement; unique on (target_kind, target_id, judge_config_hash, rubric_id, repeat_index)."""

    __table__ = _t.JUDGEMENTS

    judgement_id: Mapped[str]
    target_kind: Mapped[str]
    target_id: Mapped[str]
    judge: Mapped[str]
    judge_config_hash: Mapped[str]
    rubric_id: Mapped[str]
    repeat_index: Mapped[int]
    status: Mapped[str]
    reason: Mapped[str | None]
    dimensions: Mapped[dict[str, Any] | None]
    justifications: Mapped[dict[str, Any]]
    total: Mapped[float | None]
    grade_points: Mapped[int | None]
    passed: Mapped[bool | None]
    model_total: Mapped[float | None]
    answer: Mapped[str | None]
    meta: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class HumanReviewRow(Base):
    """A human grader's review; ``seq`` keeps insertion order, ``position`` the order in the source."""

    __table__ = _t.HUMAN_REVIEWS

    seq: Mapped[int]
    review_id: Mapped[str]
    target_kind: Mapped[str]
    target_id: Mapped[str]
    task_id: Mapped[str]
    grader_id: Mapped[str]
    role: Mapped[str]
    dimensions: Mapped[dict[str, Any]]
    raw_score: Mapped[float]
    grade_points: Mapped[int | None]
    passed: Mapped[bool | None]
    position: Mapped[int | None]
    meta: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class MetricValueRow(Base):
    """An automatic metric value; unique on (target_kind, target_id, metric, signature)."""

    __table__ = _t.METRIC_VALUES

    target_kind: Mapped[str]
    target_id: Mapped[str]
    metric: Mapped[str]
    signature: Mapped[str]
    value: Mapped[float]
    details: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class ClaimRow(Base):
    """A lease on one unit of work: the runner that holds it pays for the model call; others skip it.

    ``expires_at`` is a Unix time in seconds (a float compares the same on every backend); an expired
    claim may be taken over. The row is deleted once the unit's result is saved.
    """

    __table__ = _t.CLAIMS

    unit_key: Mapped[str]
    owner: Mapped[str]
    expires_at: Mapped[float]


class JudgeValidationRow(Base):
    """A judge configuration's validation against human reviews (``benger validate-judge``), one per
    (judge config hash, rubric id, picks); a new validation of the same picks replaces it."""

    __table__ = _t.JUDGE_VALIDATIONS

    judge_config_hash: Mapped[str]
    rubric_id: Mapped[str]
    picks: Mapped[str]
    judge: Mapped[str]
    n_picks: Mapped[int]
    pearson: Mapped[float | None]
    kappa: Mapped[float | None]
    icc: Mapped[float | None]
    omega: Mapped[float | None]
    verdict: Mapped[str]
    source: Mapped[str]
    validated_at: Mapped[datetime]
    details: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime]
    updated_at: Mapped[datetime]


class RubricRow(Base):
    """A rubric's content as its judgements were made with it (migration ``0015_rubric_store``), keyed by its
    content hash (sha256 hex); ``rubric_id`` (``name@version+sha8``) is the judgements' key column, so the
    rubric of any judgement is found by its id without the rubric file. ``payload``: the canonical rubric
    mapping (``benger.judge.rubric_data``)."""

    __table__ = _t.RUBRICS

    content_hash: Mapped[str]
    rubric_id: Mapped[str]
    payload: Mapped[dict[str, Any]]
    created_at: Mapped[datetime]


class BudgetRow(Base):
    """The ledger of one run's budget caps (``--max-cost`` / ``--max-tokens``), shared by every process that
    makes the run's calls (the in-process runner and Celery workers alike): the caps, what the finished calls
    used (``spent_*``), the worst case of the calls in flight (``reserved_*``) and the calls refused."""

    __table__ = _t.BUDGET_LEDGER

    budget_id: Mapped[str]
    max_tokens: Mapped[int | None]
    max_cost: Mapped[float | None]
    spent_tokens: Mapped[int]
    spent_cost: Mapped[float]
    reserved_tokens: Mapped[int]
    reserved_cost: Mapped[float]
    refused: Mapped[int]
    created_at: Mapped[datetime]


__all__ = [
    "CORE_TABLES",
    "BudgetRow",
    "ClaimRow",
    "CorpusRow",
    "GenerationRow",
    "HumanReviewRow",
    "HumanSolutionRow",
    "JudgeValidationRow",
    "JudgementRow",
    "MetricValueRow",
    "RubricRow",
    "SystemRow",
    "TaskRow",
]
