"""Autosave as a protocol: every attempt's draft carries a version (optimistic concurrency).

A save names the version it was based on; the server accepts it only on the version it holds and then
raises it by one, so a stale tab (a second window, a laptop back online) can never silently overwrite
newer text (benger.study._drafts). Existing attempts start at version 0.

Revision ID: 0008_draft_version
Revises: 0007_task_identity
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008_draft_version"
down_revision: str | None = "0007_task_identity"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("study_attempts", sa.Column("draft_version", sa.Integer, nullable=False, server_default="0"))


def downgrade() -> None:
    bind = op.get_bind()
    if "draft_version" not in {c["name"] for c in sa.inspect(bind).get_columns("study_attempts")}:
        # a plain pysqlite connection commits DDL at once: an earlier downgrade that a lower revision then
        # refused may already have dropped it
        return
    if bind.dialect.name == "sqlite":
        op.execute("ALTER TABLE study_attempts DROP COLUMN draft_version")
        return
    op.drop_column("study_attempts", "draft_version")
