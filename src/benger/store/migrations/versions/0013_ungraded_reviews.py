"""Human reviews under a rubric without a grade table: ``human_reviews.grade_points`` and ``passed`` may be NULL.

A rubric with no grade mapping (an ungraded Bewertungsbogen) gives raw points only; a review under it stores its
dimensions and raw score and leaves grade points and pass empty instead of an invented 0 / failed. Existing rows
are kept as they are. A downgrade restores NOT NULL and refuses while any review lacks a grade or a pass.

Revision ID: 0013_ungraded_reviews
Revises: 0012_viewer_speed
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013_ungraded_reviews"
down_revision: str | None = "0012_viewer_speed"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _alter(nullable: bool) -> None:
    # idempotent: SQLite may keep the copy table of a refused downgrade's batch (a later migration refused it)
    op.execute("DROP TABLE IF EXISTS _alembic_tmp_human_reviews")
    with op.batch_alter_table("human_reviews") as batch:
        batch.alter_column("grade_points", existing_type=sa.Integer(), nullable=nullable)
        batch.alter_column("passed", existing_type=sa.Boolean(), nullable=nullable)


def upgrade() -> None:
    _alter(nullable=True)


def downgrade() -> None:
    ungraded = op.get_bind().execute(
        sa.text("SELECT review_id FROM human_reviews WHERE grade_points IS NULL OR passed IS NULL ORDER BY review_id")
    )
    ids = [str(r) for (r,) in ungraded]
    if ids:
        raise RuntimeError(
            f"cannot downgrade below 0013: {len(ids)} human review(s) have no grade points or pass "
            f"(an ungraded rubric: {', '.join(ids[:5])}); delete or grade them first"
        )
    _alter(nullable=False)
