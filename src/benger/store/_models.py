"""Core tables: corpora, tasks, systems, generations, human solutions, judgements, reviews, metrics.

A task is ``(corpus, task_id)``: two corpora may each hold a task ``t1``; generations and human solutions name
their task by both columns (a composite foreign key). Every unit of work has a unique key, so repeating work is
impossible and resuming is natural: a generation is ``(corpus, task_id, config_hash, run_index)``, a judgement is
``(target_kind, target_id, judge_config_hash, rubric_id, repeat_index)`` (its target, a generation or human
solution id, is unique across corpora).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from benger.store._base import Base, JSONType, utcnow


class _Timestamps:
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class CorpusRow(Base):
    """A named corpus."""

    __tablename__ = "corpora"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    description: Mapped[str | None] = mapped_column(Text)


class TaskRow(Base):
    """A task of a corpus, keyed by (corpus, task_id); ``payload`` is the full pydantic record, ``position`` its
    place in the corpus."""

    __tablename__ = "tasks"

    corpus: Mapped[str] = mapped_column(ForeignKey("corpora.name"), primary_key=True, index=True)
    task_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(40))
    area: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONType)


class SystemRow(Base):
    """A system configuration (under test or a judge): keyed by name and output-relevant config hash, so two
    configurations that share a name are both kept (the name is a label, the hash the identity)."""

    __tablename__ = "systems"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    config_hash: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSONType)


class GenerationRow(_Timestamps, Base):
    """One system output; unique on (corpus, task_id, config_hash, run_index)."""

    __tablename__ = "generations"
    __table_args__ = (
        UniqueConstraint("corpus", "task_id", "config_hash", "run_index", name="uq_generations_key"),
        ForeignKeyConstraint(["corpus", "task_id"], ["tasks.corpus", "tasks.task_id"]),
    )

    generation_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    corpus: Mapped[str] = mapped_column(String(200))
    task_id: Mapped[str] = mapped_column(String(200))
    system: Mapped[str] = mapped_column(String(200), index=True)
    config_hash: Mapped[str] = mapped_column(String(64))
    run_index: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20), index=True)
    text: Mapped[str] = mapped_column(Text)
    answer: Mapped[str | None] = mapped_column(String(10))
    reason: Mapped[str | None] = mapped_column(Text)
    finish_reason: Mapped[str | None] = mapped_column(String(100))
    truncated: Mapped[bool] = mapped_column()
    refused: Mapped[bool] = mapped_column()
    input_tokens: Mapped[int | None] = mapped_column(Integer)
    output_tokens: Mapped[int | None] = mapped_column(Integer)
    latency_s: Mapped[float | None] = mapped_column(Float)
    cost_usd: Mapped[float | None] = mapped_column(Float)
    meta: Mapped[dict[str, Any]] = mapped_column(JSONType)


class HumanSolutionRow(_Timestamps, Base):
    """A participant's solution (traditional or co-creation)."""

    __tablename__ = "human_solutions"
    __table_args__ = (ForeignKeyConstraint(["corpus", "task_id"], ["tasks.corpus", "tasks.task_id"]),)

    solution_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    corpus: Mapped[str] = mapped_column(String(200))
    task_id: Mapped[str] = mapped_column(String(200), index=True)
    participant_id: Mapped[str] = mapped_column(String(200))
    condition: Mapped[str] = mapped_column(String(20))
    text: Mapped[str] = mapped_column(Text)
    meta: Mapped[dict[str, Any]] = mapped_column(JSONType)


class JudgementRow(_Timestamps, Base):
    """A rubric judgement; unique on (target_kind, target_id, judge_config_hash, rubric_id, repeat_index)."""

    __tablename__ = "judgements"
    __table_args__ = (
        UniqueConstraint(
            "target_kind", "target_id", "judge_config_hash", "rubric_id", "repeat_index", name="uq_judgements_key"
        ),
    )

    judgement_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    target_kind: Mapped[str] = mapped_column(String(20))
    target_id: Mapped[str] = mapped_column(String(200), index=True)
    judge: Mapped[str] = mapped_column(String(200), index=True)
    judge_config_hash: Mapped[str] = mapped_column(String(64))
    rubric_id: Mapped[str] = mapped_column(String(100))
    repeat_index: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(20), index=True)
    reason: Mapped[str | None] = mapped_column(Text)
    dimensions: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    justifications: Mapped[dict[str, Any]] = mapped_column(JSONType)
    total: Mapped[float | None] = mapped_column(Float)
    grade_points: Mapped[int | None] = mapped_column(Integer)
    passed: Mapped[bool | None] = mapped_column()
    model_total: Mapped[float | None] = mapped_column(Float)
    answer: Mapped[str | None] = mapped_column(String(10))
    meta: Mapped[dict[str, Any]] = mapped_column(JSONType)


class HumanReviewRow(_Timestamps, Base):
    """A human grader's review; ``seq`` keeps insertion order, ``position`` the order in the source."""

    __tablename__ = "human_reviews"

    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    review_id: Mapped[str] = mapped_column(String(200), unique=True)
    target_kind: Mapped[str] = mapped_column(String(20))
    target_id: Mapped[str] = mapped_column(String(200), index=True)
    task_id: Mapped[str] = mapped_column(String(200))
    grader_id: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(20))
    dimensions: Mapped[dict[str, Any]] = mapped_column(JSONType)
    raw_score: Mapped[float] = mapped_column(Float)
    grade_points: Mapped[int | None] = mapped_column(Integer)  # None: the rubric has no grade table
    passed: Mapped[bool | None] = mapped_column()
    position: Mapped[int | None] = mapped_column(Integer)
    meta: Mapped[dict[str, Any]] = mapped_column(JSONType)


class MetricValueRow(_Timestamps, Base):
    """An automatic metric value; unique on (target_kind, target_id, metric, signature)."""

    __tablename__ = "metric_values"

    target_kind: Mapped[str] = mapped_column(String(20), primary_key=True)
    target_id: Mapped[str] = mapped_column(String(200), primary_key=True)
    metric: Mapped[str] = mapped_column(String(100), primary_key=True)
    signature: Mapped[str] = mapped_column(String(300), primary_key=True)
    value: Mapped[float] = mapped_column(Float)
    details: Mapped[dict[str, Any] | None] = mapped_column(JSONType)


class ClaimRow(Base):
    """A lease on one unit of work: the runner that holds it pays for the model call; others skip it.

    ``expires_at`` is a Unix time in seconds (a float compares the same on every backend); an expired
    claim may be taken over. The row is deleted once the unit's result is saved.
    """

    __tablename__ = "claims"

    unit_key: Mapped[str] = mapped_column(String(400), primary_key=True)
    owner: Mapped[str] = mapped_column(String(100))
    expires_at: Mapped[float] = mapped_column(Float)


class JudgeValidationRow(_Timestamps, Base):
    """A judge configuration's validation against human reviews (``benger validate-judge``), one per
    (judge config hash, rubric id, picks); a new validation of the same picks replaces it."""

    __tablename__ = "judge_validations"

    judge_config_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    rubric_id: Mapped[str] = mapped_column(String(100), primary_key=True)
    picks: Mapped[str] = mapped_column(String(200), primary_key=True)
    judge: Mapped[str] = mapped_column(String(200), index=True)
    n_picks: Mapped[int] = mapped_column(Integer)
    pearson: Mapped[float | None] = mapped_column(Float)
    kappa: Mapped[float | None] = mapped_column(Float)
    icc: Mapped[float | None] = mapped_column(Float)
    omega: Mapped[float | None] = mapped_column(Float)
    verdict: Mapped[str] = mapped_column(String(20))
    source: Mapped[str] = mapped_column(String(40))
    validated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    details: Mapped[dict[str, Any] | None] = mapped_column(JSONType)


class RubricRow(Base):
    """A rubric's content as its judgements were made with it (migration ``0015_rubric_store``), keyed by its
    content hash (sha256 hex); ``rubric_id`` (``name@version+sha8``) is the judgements' key column, so the
    rubric of any judgement is found by its id without the rubric file. ``payload``: the canonical rubric
    mapping (``benger.judge.rubric_data``)."""

    __tablename__ = "rubrics"

    content_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    rubric_id: Mapped[str] = mapped_column(String(100), index=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class BudgetRow(Base):
    """The ledger of one run's budget caps (``--max-cost`` / ``--max-tokens``), shared by every process that
    makes the run's calls (the in-process runner and Celery workers alike): the caps, what the finished calls
    used (``spent_*``), the worst case of the calls in flight (``reserved_*``) and the calls refused."""

    __tablename__ = "budget_ledger"

    budget_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    max_tokens: Mapped[int | None] = mapped_column(BigInteger)
    max_cost: Mapped[float | None] = mapped_column(Float)
    spent_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    spent_cost: Mapped[float] = mapped_column(Float, default=0.0)
    reserved_tokens: Mapped[int] = mapped_column(BigInteger, default=0)
    reserved_cost: Mapped[float] = mapped_column(Float, default=0.0)
    refused: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


CORE_TABLES: tuple[str, ...] = (
    "corpora",
    "tasks",
    "systems",
    "generations",
    "human_solutions",
    "judgements",
    "human_reviews",
    "metric_values",
    "claims",
    "judge_validations",
    "rubrics",
    "budget_ledger",
)
