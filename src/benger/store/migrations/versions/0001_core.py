"""Core tables: corpora, tasks, systems, generations, human solutions, judgements, reviews, metrics.

Revision ID: 0001_core
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0001_core"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_JSON = sa.JSON().with_variant(JSONB(), "postgresql")


def _timestamps() -> list[sa.Column[object]]:
    return [
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    ]


def upgrade() -> None:
    op.create_table(
        "corpora",
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("name", name="pk_corpora"),
    )
    op.create_table(
        "tasks",
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("corpus", sa.String(200), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("area", sa.String(40), nullable=False),
        sa.Column("payload", _JSON, nullable=False),
        sa.ForeignKeyConstraint(["corpus"], ["corpora.name"], name="fk_tasks_corpus_corpora"),
        sa.PrimaryKeyConstraint("task_id", name="pk_tasks"),
    )
    op.create_index("ix_tasks_corpus", "tasks", ["corpus"])
    op.create_table(
        "systems",
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("config_hash", sa.String(64), nullable=False),
        sa.Column("config", _JSON, nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_systems"),
    )
    op.create_index("ix_systems_config_hash", "systems", ["config_hash"])
    op.create_table(
        "generations",
        sa.Column("generation_id", sa.String(200), nullable=False),
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
        sa.ForeignKeyConstraint(["task_id"], ["tasks.task_id"], name="fk_generations_task_id_tasks"),
        sa.PrimaryKeyConstraint("generation_id", name="pk_generations"),
        sa.UniqueConstraint("task_id", "config_hash", "run_index", name="uq_generations_key"),
    )
    op.create_index("ix_generations_system", "generations", ["system"])
    op.create_index("ix_generations_status", "generations", ["status"])
    op.create_table(
        "human_solutions",
        sa.Column("solution_id", sa.String(200), nullable=False),
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("participant_id", sa.String(200), nullable=False),
        sa.Column("condition", sa.String(20), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("meta", _JSON, nullable=False),
        *_timestamps(),
        sa.ForeignKeyConstraint(["task_id"], ["tasks.task_id"], name="fk_human_solutions_task_id_tasks"),
        sa.PrimaryKeyConstraint("solution_id", name="pk_human_solutions"),
    )
    op.create_index("ix_human_solutions_task_id", "human_solutions", ["task_id"])
    op.create_table(
        "judgements",
        sa.Column("judgement_id", sa.String(200), nullable=False),
        sa.Column("target_kind", sa.String(20), nullable=False),
        sa.Column("target_id", sa.String(200), nullable=False),
        sa.Column("judge", sa.String(200), nullable=False),
        sa.Column("judge_config_hash", sa.String(64), nullable=False),
        sa.Column("rubric_version", sa.String(100), nullable=False),
        sa.Column("repeat_index", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("dimensions", _JSON, nullable=True),
        sa.Column("justifications", _JSON, nullable=False),
        sa.Column("total", sa.Float(), nullable=True),
        sa.Column("grade_points", sa.Integer(), nullable=True),
        sa.Column("passed", sa.Boolean(), nullable=True),
        sa.Column("model_total", sa.Float(), nullable=True),
        sa.Column("answer", sa.String(10), nullable=True),
        sa.Column("meta", _JSON, nullable=False),
        *_timestamps(),
        sa.PrimaryKeyConstraint("judgement_id", name="pk_judgements"),
        sa.UniqueConstraint(
            "target_kind",
            "target_id",
            "judge_config_hash",
            "rubric_version",
            "repeat_index",
            name="uq_judgements_key",
        ),
    )
    op.create_index("ix_judgements_target_id", "judgements", ["target_id"])
    op.create_index("ix_judgements_judge", "judgements", ["judge"])
    op.create_index("ix_judgements_status", "judgements", ["status"])
    op.create_table(
        "human_reviews",
        sa.Column("seq", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("review_id", sa.String(200), nullable=False),
        sa.Column("target_kind", sa.String(20), nullable=False),
        sa.Column("target_id", sa.String(200), nullable=False),
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("grader_id", sa.String(200), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("dimensions", _JSON, nullable=False),
        sa.Column("raw_score", sa.Float(), nullable=False),
        sa.Column("grade_points", sa.Integer(), nullable=False),
        sa.Column("passed", sa.Boolean(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=True),
        sa.Column("meta", _JSON, nullable=False),
        *_timestamps(),
        sa.PrimaryKeyConstraint("seq", name="pk_human_reviews"),
        sa.UniqueConstraint("review_id", name="uq_human_reviews_review_id"),
    )
    op.create_index("ix_human_reviews_target_id", "human_reviews", ["target_id"])
    op.create_table(
        "metric_values",
        sa.Column("target_kind", sa.String(20), nullable=False),
        sa.Column("target_id", sa.String(200), nullable=False),
        sa.Column("metric", sa.String(100), nullable=False),
        sa.Column("signature", sa.String(300), nullable=False),
        sa.Column("value", sa.Float(), nullable=False),
        sa.Column("details", _JSON, nullable=True),
        *_timestamps(),
        sa.PrimaryKeyConstraint("target_kind", "target_id", "metric", "signature", name="pk_metric_values"),
    )


def downgrade() -> None:
    for table in (
        "metric_values",
        "human_reviews",
        "judgements",
        "human_solutions",
        "generations",
        "systems",
        "tasks",
        "corpora",
    ):
        op.drop_table(table)
