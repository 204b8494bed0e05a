"""A covering index for the viewer's Browse page (``benger.store._aggregate.VIEWER_INDEXES``).

Browse counts, filters and orders generations by (corpus, task, system, id) and its flags (status, truncated,
refused); with this index those columns are read without the table rows, whose texts make them ~4 kB. Existing
stores keep every row; only the index is added.

Revision ID: 0012_viewer_speed
Revises: 0010_organisations
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0012_viewer_speed"
down_revision: str | None = "0010_organisations"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ["corpus", "task_id", "system", "generation_id", "status", "truncated", "refused"]


def upgrade() -> None:
    op.create_index("ix_generations_browse", "generations", COLUMNS)


def downgrade() -> None:
    op.drop_index("ix_generations_browse", table_name="generations")
