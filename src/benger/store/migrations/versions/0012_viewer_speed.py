"""Covering indexes for the viewer's Browse page (``benger.store._aggregate.VIEWER_INDEXES``).

Browse counts generations per task (corpus, task) in the first index's order, filtered by system and the flags
(status, truncated, refused), without the table rows, whose texts make them ~4 kB; one judge's judgements are
grouped per target from the second (not the table rows, whose justifications make them ~1 kB). Existing stores
keep every row; only indexes are added.

Revision ID: 0012_viewer_speed
Revises: 0011_workbench_runs
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0012_viewer_speed"
down_revision: str | None = "0011_workbench_runs"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES: dict[str, tuple[str, list[str]]] = {
    "ix_generations_browse": (
        "generations",
        ["corpus", "task_id", "system", "generation_id", "status", "truncated", "refused"],
    ),
    "ix_judgements_browse": ("judgements", ["judge", "target_kind", "target_id", "status", "total"]),
}


def upgrade() -> None:
    for name, (table, columns) in INDEXES.items():
        op.create_index(name, table, columns)


def downgrade() -> None:
    for name in INDEXES:  # idempotent: SQLite may keep a refused downgrade's DDL (see 0007)
        op.execute(f"DROP INDEX IF EXISTS {name}")
