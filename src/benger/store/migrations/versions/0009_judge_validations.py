"""The ``judge_validations`` table: each ``benger validate-judge`` result (judge config hash, rubric id, picks,
r, kappa, ICC, alt-test omega and verdict, date), so that every leaderboard row can name its judge's status
(issue 24).

Revision ID: 0009_judge_validations
Revises: 0008_draft_version
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from benger.store._base import JSONType

revision: str = "0009_judge_validations"
down_revision: str | None = "0008_draft_version"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "judge_validations",
        sa.Column("judge_config_hash", sa.String(64), primary_key=True),
        sa.Column("rubric_id", sa.String(100), primary_key=True),
        sa.Column("picks", sa.String(200), primary_key=True),
        sa.Column("judge", sa.String(200), nullable=False),
        sa.Column("n_picks", sa.Integer(), nullable=False),
        sa.Column("pearson", sa.Float(), nullable=True),
        sa.Column("kappa", sa.Float(), nullable=True),
        sa.Column("icc", sa.Float(), nullable=True),
        sa.Column("omega", sa.Float(), nullable=True),
        sa.Column("verdict", sa.String(20), nullable=False),
        sa.Column("source", sa.String(40), nullable=False),
        sa.Column("validated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("details", JSONType, nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_judge_validations_judge", "judge_validations", ["judge"])


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_judge_validations_judge")
    op.execute("DROP TABLE IF EXISTS judge_validations")  # idempotent: SQLite may keep a refused downgrade's DDL
