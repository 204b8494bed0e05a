"""Rename ``judgements.rubric_version`` to ``rubric_id``: the column holds the rubric's content identity
``name@version+sha8`` (``benger.judge.Rubric.id``), not its version.

``ALTER TABLE ... RENAME COLUMN`` keeps every row; SQLite (>= 3.25) and PostgreSQL rename the column inside the
unique key ``uq_judgements_key`` and the index ``ix_judgements_leaderboard`` as well.

Revision ID: 0006_rubric_id
Revises: 0005_indexes
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0006_rubric_id"
down_revision: str | None = "0005_indexes"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute("ALTER TABLE judgements RENAME COLUMN rubric_version TO rubric_id")


def downgrade() -> None:
    op.execute("ALTER TABLE judgements RENAME COLUMN rubric_id TO rubric_version")
