"""Full-text search over the solution texts (``benger.store._fulltext``): on SQLite a contentless FTS5 trigram
table per text table with the triggers that keep it, on PostgreSQL a generated ``text_folded`` column and a
``pg_trgm`` GIN index over it (the index only where the extension is available; a warning otherwise). Existing
rows are indexed; nothing else changes. A downgrade drops them again.

Revision ID: 0014_fulltext
Revises: 0013_ungraded_reviews
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

from benger.store import _fulltext

revision: str = "0014_fulltext"
down_revision: str | None = "0013_ungraded_reviews"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    connection = op.get_bind()
    _fulltext.remove(connection)  # idempotent: SQLite may keep a refused downgrade's DDL (see 0007)
    _fulltext.install(connection)


def downgrade() -> None:
    _fulltext.remove(op.get_bind())
