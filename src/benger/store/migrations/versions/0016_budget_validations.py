"""The budget ledger and the workbench's validation runs.

* ``budget_ledger``: one row per capped run, shared by the in-process runner and every Celery worker making
  the run's calls, so ``--max-cost`` / ``--max-tokens`` hold on workers too;
* ``workbench_validations``: ``validate-judge`` runs launched from a finished run's page (organisation, run,
  judge, source of the reviews, status, progress, the result table).

Studies belonging to organisations use the existing ``organisation_objects`` table and need no schema change.

Revision ID: 0016_budget_validations
Revises: 0015_rubric_store
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from benger.store._base import JSONType

revision: str = "0016_budget_validations"
down_revision: str | None = "0015_rubric_store"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "budget_ledger",
        sa.Column("budget_id", sa.String(40), primary_key=True),
        sa.Column("max_tokens", sa.BigInteger(), nullable=True),
        sa.Column("max_cost", sa.Float(), nullable=True),
        sa.Column("spent_tokens", sa.BigInteger(), nullable=False),
        sa.Column("spent_cost", sa.Float(), nullable=False),
        sa.Column("reserved_tokens", sa.BigInteger(), nullable=False),
        sa.Column("reserved_cost", sa.Float(), nullable=False),
        sa.Column("refused", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "workbench_validations",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("organisation_id", sa.Integer(), sa.ForeignKey("organisations.id"), nullable=False),
        sa.Column("run_id", sa.Integer(), sa.ForeignKey("workbench_runs.id"), nullable=False),
        sa.Column("judge", sa.String(200), nullable=False),
        sa.Column("source", sa.String(20), nullable=False),
        sa.Column("corpus", sa.String(200), nullable=True),
        sa.Column("executor", sa.String(20), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("done", sa.Integer(), nullable=False),
        sa.Column("total", sa.Integer(), nullable=False),
        sa.Column("result", JSONType, nullable=True),
        sa.Column("message", sa.Text(), nullable=True),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("study_users.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_workbench_validations_organisation_id", "workbench_validations", ["organisation_id"])
    op.create_index("ix_workbench_validations_run_id", "workbench_validations", ["run_id"])


def downgrade() -> None:
    # idempotent: SQLite may keep a refused downgrade's DDL (a later revision below refusing, see 0007)
    op.execute("DROP TABLE IF EXISTS workbench_validations")
    op.execute("DROP TABLE IF EXISTS budget_ledger")
