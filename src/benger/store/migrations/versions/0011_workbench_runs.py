"""The workbench's runs: ``org_api_keys`` (an organisation's API keys, Fernet ciphertext only) and
``workbench_runs`` (runs launched from the browser: organisation, config YAML, executor, status, who, times).

Revision ID: 0011_workbench_runs
Revises: 0010_organisations
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_workbench_runs"
down_revision: str | None = "0010_organisations"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "org_api_keys",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("organisation_id", sa.Integer(), sa.ForeignKey("organisations.id"), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("ciphertext", sa.Text(), nullable=False),
        sa.Column("set_by", sa.Integer(), sa.ForeignKey("study_users.id"), nullable=True),
        sa.Column("set_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("organisation_id", "name", name="uq_org_api_keys_org_name"),
    )
    op.create_index("ix_org_api_keys_organisation_id", "org_api_keys", ["organisation_id"])
    op.create_table(
        "workbench_runs",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("organisation_id", sa.Integer(), sa.ForeignKey("organisations.id"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("config_yaml", sa.Text(), nullable=False),
        sa.Column("executor", sa.String(20), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("created_by", sa.Integer(), sa.ForeignKey("study_users.id"), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("reused", sa.Integer(), nullable=False),
        sa.Column("launches", sa.Integer(), nullable=False),
        sa.Column("message", sa.Text(), nullable=True),
    )
    op.create_index("ix_workbench_runs_organisation_id", "workbench_runs", ["organisation_id"])
    op.create_index("ix_workbench_runs_status", "workbench_runs", ["status"])


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_workbench_runs_status")
    op.execute("DROP INDEX IF EXISTS ix_workbench_runs_organisation_id")
    op.execute("DROP TABLE IF EXISTS workbench_runs")
    op.execute("DROP INDEX IF EXISTS ix_org_api_keys_organisation_id")
    op.execute("DROP TABLE IF EXISTS org_api_keys")
