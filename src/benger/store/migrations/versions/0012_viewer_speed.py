"""Covering indexes for the viewer's Browse page (``benger.store._aggregate.VIEWER_INDEXES``).

Browse counts, filters and orders generations by system, corpus, task, id and its flags (status, truncated,
refused); with this index those columns are read without the table rows, whose texts make them ~4 kB (system
first: the system filter seeks it). Existing
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

INDEXES: dict[str, tuple[str, list[str]]] = {
    "ix_generations_browse": (
        "generations",
        ["system", "corpus", "task_id", "generation_id", "status", "truncated", "refused"],
    ),
    "ix_judgements_browse": ("judgements", ["judge", "target_kind", "target_id", "status", "total"]),
}


def upgrade() -> None:
    for name, (table, columns) in INDEXES.items():
        op.create_index(name, table, columns)


def downgrade() -> None:
    for name, (table, _) in INDEXES.items():
        op.drop_index(name, table_name=table)
