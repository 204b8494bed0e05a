"""The core store tables as SQLAlchemy Core ``Table`` objects: the one definition of their columns.

A task is ``(corpus, task_id)``: two corpora may each hold a task ``t1``; generations and human solutions name
their task by both columns (a composite foreign key). Every unit of work has a unique key, so repeating work is
impossible and resuming is natural: a generation is ``(corpus, task_id, config_hash, run_index)``, a judgement is
``(target_kind, target_id, judge_config_hash, rubric_id, repeat_index)`` (its target, a generation or human
solution id, is unique across corpora).

The ORM classes of ``benger.store._models`` are mapped onto these tables (``__table__``); a reader that needs no
ORM object (the leaderboard's aggregates, ``benger.store._reads``) imports this module alone and never loads
``sqlalchemy.orm`` (issue 26: importing and configuring the mappers cost ~0.2 CPU-s of every ``benger
leaderboard``). Migrations create the tables; ``tests/store/test_migrations.py`` compares them with this metadata.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

#: Deterministic constraint names, so hand-written migrations and the models agree on every dialect.
NAMING_CONVENTION: dict[str, str] = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

#: The one MetaData of every benger table (core store here, organisations and human study as ORM models on
#: ``benger.store._base.Base``, whose metadata this is).
METADATA = MetaData(naming_convention=NAMING_CONVENTION)


class PostgresJSONB(TypeDecorator[Any]):
    """PostgreSQL's ``JSONB``, loaded when a PostgreSQL engine first compiles or binds it: a reader of an SQLite
    store never imports ``sqlalchemy.dialects.postgresql`` (~20 ms CPU at every ``benger leaderboard``; issue 26).
    DDL, binds and results are JSONB's own."""

    impl = JSON
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        from sqlalchemy.dialects.postgresql import JSONB

        return dialect.type_descriptor(JSONB())


#: JSON on SQLite, JSONB on PostgreSQL.
JSONType: TypeEngine[Any] = JSON().with_variant(PostgresJSONB(), "postgresql")


def utcnow() -> datetime:
    """The current time in UTC (timestamps of stored rows)."""
    return datetime.now(UTC)


def _required(name: str, type_: Any, **kw: Any) -> Column[Any]:
    return Column(name, type_, nullable=False, **kw)


def _optional(name: str, type_: Any, **kw: Any) -> Column[Any]:
    return Column(name, type_, nullable=True, **kw)


def _timestamps() -> tuple[Column[Any], Column[Any]]:
    return (
        _required("created_at", DateTime(timezone=True), default=utcnow),
        _required("updated_at", DateTime(timezone=True), default=utcnow),
    )


CORPORA = Table(
    "corpora",
    METADATA,
    Column("name", String(200), primary_key=True),
    _optional("description", Text),
)

#: ``payload`` is the full pydantic record, ``position`` the task's place in its corpus.
TASKS = Table(
    "tasks",
    METADATA,
    Column("corpus", String(200), ForeignKey("corpora.name"), primary_key=True, index=True),
    Column("task_id", String(200), primary_key=True),
    _required("position", Integer),
    _required("kind", String(40)),
    _required("area", String(40)),
    _required("payload", JSONType),
)

#: A system configuration (under test or a judge): keyed by name and output-relevant config hash, so two
#: configurations that share a name are both kept (the name is a label, the hash the identity).
SYSTEMS = Table(
    "systems",
    METADATA,
    Column("name", String(200), primary_key=True),
    Column("config_hash", String(64), primary_key=True, index=True),
    _required("config", JSONType),
)

GENERATIONS = Table(
    "generations",
    METADATA,
    Column("generation_id", String(200), primary_key=True),
    _required("corpus", String(200)),
    _required("task_id", String(200)),
    _required("system", String(200), index=True),
    _required("config_hash", String(64)),
    _required("run_index", Integer),
    _required("status", String(20), index=True),
    _required("text", Text),
    _optional("answer", String(10)),
    _optional("reason", Text),
    _optional("finish_reason", String(100)),
    _required("truncated", Boolean),
    _required("refused", Boolean),
    _optional("input_tokens", Integer),
    _optional("output_tokens", Integer),
    _optional("latency_s", Float),
    _optional("cost_usd", Float),
    _required("meta", JSONType),
    *_timestamps(),
    UniqueConstraint("corpus", "task_id", "config_hash", "run_index", name="uq_generations_key"),
    ForeignKeyConstraint(["corpus", "task_id"], ["tasks.corpus", "tasks.task_id"]),
)

HUMAN_SOLUTIONS = Table(
    "human_solutions",
    METADATA,
    Column("solution_id", String(200), primary_key=True),
    _required("corpus", String(200)),
    _required("task_id", String(200), index=True),
    _required("participant_id", String(200)),
    _required("condition", String(20)),
    _required("text", Text),
    _required("meta", JSONType),
    *_timestamps(),
    ForeignKeyConstraint(["corpus", "task_id"], ["tasks.corpus", "tasks.task_id"]),
)

JUDGEMENTS = Table(
    "judgements",
    METADATA,
    Column("judgement_id", String(200), primary_key=True),
    _required("target_kind", String(20)),
    _required("target_id", String(200), index=True),
    _required("judge", String(200), index=True),
    _required("judge_config_hash", String(64)),
    _required("rubric_id", String(100)),
    _required("repeat_index", Integer),
    _required("status", String(20), index=True),
    _optional("reason", Text),
    _optional("dimensions", JSONType),
    _required("justifications", JSONType),
    _optional("total", Float),
    _optional("grade_points", Integer),
    _optional("passed", Boolean),
    _optional("model_total", Float),
    _optional("answer", String(10)),
    _required("meta", JSONType),
    *_timestamps(),
    UniqueConstraint(
        "target_kind", "target_id", "judge_config_hash", "rubric_id", "repeat_index", name="uq_judgements_key"
    ),
)

#: ``seq`` keeps insertion order, ``position`` the order in the source; ``grade_points`` None: the rubric has no
#: grade table.
HUMAN_REVIEWS = Table(
    "human_reviews",
    METADATA,
    Column("seq", Integer, primary_key=True, autoincrement=True),
    _required("review_id", String(200), unique=True),
    _required("target_kind", String(20)),
    _required("target_id", String(200), index=True),
    _required("task_id", String(200)),
    _required("grader_id", String(200)),
    _required("role", String(20)),
    _required("dimensions", JSONType),
    _required("raw_score", Float),
    _optional("grade_points", Integer),
    _optional("passed", Boolean),
    _optional("position", Integer),
    _required("meta", JSONType),
    *_timestamps(),
)

METRIC_VALUES = Table(
    "metric_values",
    METADATA,
    Column("target_kind", String(20), primary_key=True),
    Column("target_id", String(200), primary_key=True),
    Column("metric", String(100), primary_key=True),
    Column("signature", String(300), primary_key=True),
    _required("value", Float),
    _optional("details", JSONType),
    *_timestamps(),
)

#: A lease on one unit of work; ``expires_at`` is a Unix time in seconds.
CLAIMS = Table(
    "claims",
    METADATA,
    Column("unit_key", String(400), primary_key=True),
    _required("owner", String(100)),
    _required("expires_at", Float),
)

JUDGE_VALIDATIONS = Table(
    "judge_validations",
    METADATA,
    Column("judge_config_hash", String(64), primary_key=True),
    Column("rubric_id", String(100), primary_key=True),
    Column("picks", String(200), primary_key=True),
    _required("judge", String(200), index=True),
    _required("n_picks", Integer),
    _optional("pearson", Float),
    _optional("kappa", Float),
    _optional("icc", Float),
    _optional("omega", Float),
    _required("verdict", String(20)),
    _required("source", String(40)),
    _required("validated_at", DateTime(timezone=True)),
    _optional("details", JSONType),
    *_timestamps(),
)

#: A rubric's content as its judgements were made with it, keyed by its content hash (migration 0015).
RUBRICS = Table(
    "rubrics",
    METADATA,
    Column("content_hash", String(64), primary_key=True),
    _required("rubric_id", String(100), index=True),
    _required("payload", JSONType),
    _required("created_at", DateTime(timezone=True), default=utcnow),
)

#: The ledger of one run's budget caps (``--max-cost`` / ``--max-tokens``).
BUDGET_LEDGER = Table(
    "budget_ledger",
    METADATA,
    Column("budget_id", String(40), primary_key=True),
    _optional("max_tokens", BigInteger),
    _optional("max_cost", Float),
    _required("spent_tokens", BigInteger, default=0),
    _required("spent_cost", Float, default=0.0),
    _required("reserved_tokens", BigInteger, default=0),
    _required("reserved_cost", Float, default=0.0),
    _required("refused", Integer, default=0),
    _required("created_at", DateTime(timezone=True), default=utcnow),
)

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
