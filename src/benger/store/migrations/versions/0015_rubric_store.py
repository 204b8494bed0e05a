"""The ``rubrics`` table: the content of every rubric a judgement was made with, keyed by its content hash, so
``analyze``, the report, the viewer and ``validate-judge`` find a judgement's rubric by its id (``rubric_id``,
``name@version+sha8``) without the rubric file (issue 31). Judgements stored before it keep working: their rubric
comes from the registry or a ``--rubric`` file, as before.

Revision ID: 0015_rubric_store
Revises: 0014_fulltext
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from benger.store._base import JSONType

revision: str = "0015_rubric_store"
down_revision: str | None = "0014_fulltext"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rubrics",
        sa.Column("content_hash", sa.String(64), primary_key=True),
        sa.Column("rubric_id", sa.String(100), nullable=False),
        sa.Column("payload", JSONType, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_rubrics_rubric_id", "rubrics", ["rubric_id"])


def downgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_rubrics_rubric_id")
    op.execute("DROP TABLE IF EXISTS rubrics")  # idempotent: SQLite may keep a refused downgrade's DDL
