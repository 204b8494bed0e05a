"""Full-text search indexed lazily (``benger.store._fulltext``): on SQLite a write no longer indexes its text
(~0.6 ms per saved generation, issue 26) but queues its rowid in ``generations_fts_pending`` /
``human_solutions_fts_pending``; :func:`benger.store._fulltext.sync` indexes the queue (a writer opening the
store, the end of a run or an import) and a search also scans the queued rows. The index already holds every
row; nothing else changes. PostgreSQL: nothing to do. A downgrade indexes the queue and restores the indexing
triggers.

Revision ID: 0017_lazy_fulltext
Revises: 0016_budget_validations
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from benger.store import _fulltext

revision: str = "0017_lazy_fulltext"
down_revision: str | None = "0016_budget_validations"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    _fulltext.queue_writes(op.get_bind())


def downgrade() -> None:
    _fulltext.index_on_write(op.get_bind())
