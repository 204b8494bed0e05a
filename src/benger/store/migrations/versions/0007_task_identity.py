"""A task is (corpus, task id): ``tasks`` keyed by both; generations and human solutions gain a ``corpus`` column
and name their task by the composite foreign key; the generation unit key becomes
``(corpus, task_id, config_hash, run_index)``.

Existing stores stay readable and keep every row and id: before this revision a task id was unique in the store,
so each generation's and human solution's corpus is the corpus of its task (filled by a join; the row counts are
checked). Generation ids are not touched (judgements, metric values and reviews name them).

SQLite cannot change a primary key or a foreign key in place, and with foreign keys on (benger's connections turn
them on, and the migration runs inside one transaction where that cannot change) a parent table cannot be
dropped under its children. So both dialects do the same: copy the three tables to typed scratch tables, drop
them (children first), create them in the new shape with their indexes, copy the rows back, drop the scratch
tables. All of it is one transaction (``benger.store._engine.upgrade``).

Revision ID: 0007_task_identity
Revises: 0006_rubric_id
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0007_task_identity"
down_revision: str | None = "0006_rubric_id"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_JSON = sa.JSON().with_variant(JSONB(), "postgresql")
_SCRATCH = "_m0007_"

TASK_COLUMNS = ("corpus", "task_id", "position", "kind", "area", "payload")
GENERATION_COLUMNS = (
    *("generation_id", "task_id", "system", "config_hash", "run_index", "status", "text", "answer", "reason"),
    *("finish_reason", "truncated", "refused", "input_tokens", "output_tokens", "latency_s", "cost_usd", "meta"),
    *("created_at", "updated_at"),
)
SOLUTION_COLUMNS = ("solution_id", "task_id", "participant_id", "condition", "text", "meta", "created_at", "updated_at")


def _timestamps() -> list[sa.Column[Any]]:
    return [
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    ]


def _tasks() -> list[sa.Column[Any]]:
    return [
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("corpus", sa.String(200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("area", sa.String(40), nullable=False),
        sa.Column("payload", _JSON, nullable=False),
    ]


def _corpus(wanted: bool) -> list[sa.Column[Any]]:
    return [sa.Column("corpus", sa.String(200), nullable=False)] if wanted else []


def _generations(corpus: bool) -> list[sa.Column[Any]]:
    return [
        sa.Column("generation_id", sa.String(200), nullable=False),
        *_corpus(corpus),
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("system", sa.String(200), nullable=False),
        sa.Column("config_hash", sa.String(64), nullable=False),
        sa.Column("run_index", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("answer", sa.String(10), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("finish_reason", sa.String(100), nullable=True),
        sa.Column("truncated", sa.Boolean(), nullable=False),
        sa.Column("refused", sa.Boolean(), nullable=False),
        sa.Column("input_tokens", sa.Integer(), nullable=True),
        sa.Column("output_tokens", sa.Integer(), nullable=True),
        sa.Column("latency_s", sa.Float(), nullable=True),
        sa.Column("cost_usd", sa.Float(), nullable=True),
        sa.Column("meta", _JSON, nullable=False),
        *_timestamps(),
    ]


def _solutions(corpus: bool) -> list[sa.Column[Any]]:
    return [
        sa.Column("solution_id", sa.String(200), nullable=False),
        *_corpus(corpus),
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("participant_id", sa.String(200), nullable=False),
        sa.Column("condition", sa.String(20), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("meta", _JSON, nullable=False),
        *_timestamps(),
    ]


def _count(table: str) -> int:
    return int(op.get_bind().execute(sa.text(f"SELECT COUNT(*) FROM {table}")).scalar() or 0)


def _copy(table: str, target: str, columns: Sequence[str], *, select: str | None = None, source: str = "") -> None:
    """Copy every row of ``table`` (or of the ``source`` join over it) into ``target``; the counts must agree."""
    names = ", ".join(columns)
    op.execute(f"INSERT INTO {target} ({names}) SELECT {select or names} FROM {source or table}")
    if _count(table) != _count(target):  # a join that lost a row: never migrate with fewer rows
        raise RuntimeError(f"migration 0007: {table} has {_count(table)} rows, its copy {_count(target)}")


def _create(composite: bool) -> None:
    """The three tables in the new (``composite``) or the old shape, with their constraints and indexes."""
    key = ["corpus", "task_id"] if composite else ["task_id"]
    op.create_table(
        "tasks",
        *_tasks(),
        sa.ForeignKeyConstraint(["corpus"], ["corpora.name"], name="fk_tasks_corpus_corpora"),
        sa.PrimaryKeyConstraint(*key, name="pk_tasks"),
    )
    op.create_index("ix_tasks_corpus", "tasks", ["corpus"])
    op.create_index("ix_tasks_leaderboard", "tasks", ["task_id", "corpus", "kind"])
    fk = "corpus" if composite else "task_id"
    op.create_table(
        "generations",
        *_generations(composite),
        sa.ForeignKeyConstraint(key, [f"tasks.{c}" for c in key], name=f"fk_generations_{fk}_tasks"),
        sa.PrimaryKeyConstraint("generation_id", name="pk_generations"),
        sa.UniqueConstraint(*key, "config_hash", "run_index", name="uq_generations_key"),
    )
    op.create_index("ix_generations_system", "generations", ["system"])
    op.create_index("ix_generations_status", "generations", ["status"])
    leaderboard = ["generation_id", "status", *key, "system", "config_hash", "truncated", "answer"]
    op.create_index("ix_generations_leaderboard", "generations", leaderboard)
    op.create_table(
        "human_solutions",
        *_solutions(composite),
        sa.ForeignKeyConstraint(key, [f"tasks.{c}" for c in key], name=f"fk_human_solutions_{fk}_tasks"),
        sa.PrimaryKeyConstraint("solution_id", name="pk_human_solutions"),
    )
    op.create_index("ix_human_solutions_task_id", "human_solutions", ["task_id"])


def _rebuild(composite: bool) -> None:
    """Copy the three tables aside, recreate them in the target shape, copy the rows back."""
    op.create_table(f"{_SCRATCH}tasks", *_tasks())
    op.create_table(f"{_SCRATCH}generations", *_generations(True))
    op.create_table(f"{_SCRATCH}human_solutions", *_solutions(True))
    _copy("tasks", f"{_SCRATCH}tasks", TASK_COLUMNS)
    for table, columns in (("generations", GENERATION_COLUMNS), ("human_solutions", SOLUTION_COLUMNS)):
        if composite:  # upgrading: the corpus is the corpus of the (until now unique) task id
            names = ", ".join(f"x.{c}" for c in columns)
            joined = f"{table} x JOIN tasks t ON t.task_id = x.task_id"
            _copy(table, f"{_SCRATCH}{table}", (*columns, "corpus"), select=f"{names}, t.corpus", source=joined)
        else:
            _copy(table, f"{_SCRATCH}{table}", (*columns, "corpus"))
    for table in ("human_solutions", "generations", "tasks"):  # children first
        op.drop_table(table)
    _create(composite)
    _copy(f"{_SCRATCH}tasks", "tasks", TASK_COLUMNS)
    for table, columns in (("generations", GENERATION_COLUMNS), ("human_solutions", SOLUTION_COLUMNS)):
        _copy(f"{_SCRATCH}{table}", table, (*columns, "corpus") if composite else columns)
    for table in ("human_solutions", "generations", "tasks"):
        op.drop_table(f"{_SCRATCH}{table}")


def upgrade() -> None:
    _rebuild(composite=True)


def downgrade() -> None:
    clash = op.get_bind().execute(
        sa.text("SELECT task_id FROM tasks GROUP BY task_id HAVING COUNT(*) > 1 ORDER BY task_id")
    )
    shared = [str(t) for (t,) in clash]
    if shared:
        raise RuntimeError(
            f"cannot downgrade below 0007: {len(shared)} task id(s) are in several corpora ({', '.join(shared[:5])})"
        )
    _rebuild(composite=False)
