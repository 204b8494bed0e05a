"""Covering indexes for the leaderboard's SQL aggregates (``benger.store._aggregate.LEADERBOARD_INDEXES``).

``GROUP BY`` over generations x judgements and the metric means read their columns from these indexes, so the
wide rows (texts, justifications, meta) are not read. Existing stores keep every row; only indexes are added.

Revision ID: 0005_indexes
Revises: 0004_study_lifecycle
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005_indexes"
down_revision: str | None = "0004_study_lifecycle"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES: dict[str, tuple[str, list[str]]] = {
    "ix_generations_leaderboard": (
        "generations",
        ["generation_id", "status", "task_id", "system", "config_hash", "truncated", "answer"],
    ),
    "ix_tasks_leaderboard": ("tasks", ["task_id", "corpus", "kind"]),
    "ix_judgements_leaderboard": (
        "judgements",
        [
            *("target_kind", "target_id", "judge", "judge_config_hash", "rubric_version"),
            *("status", "total", "grade_points", "passed"),
        ],
    ),
    "ix_metric_values_signature": ("metric_values", ["target_kind", "metric", "signature", "target_id", "value"]),
}


def upgrade() -> None:
    for name, (table, columns) in INDEXES.items():
        op.create_index(name, table, columns)


def downgrade() -> None:
    for name, (table, _) in INDEXES.items():
        op.drop_index(name, table_name=table)
