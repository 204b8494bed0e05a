"""Study lifecycle and account security: study states, session versions, atomic login counters, consent,
skip reasons, the AI tools of co-creation submissions, graders' problem reports and margin notes, and groups (a study is
visible to the participants of its groups; no groups: to everyone).

Existing studies get the state their rows imply (review assignments: in_review; picks: picked; otherwise
open, as they accepted submissions before). The per-attempt login log is replaced by one counter row per
key (old failures are dropped: they only ever lasted 15 minutes).

Revision ID: 0004_study_lifecycle
Revises: 0003_identity
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from benger.store._base import JSONType

revision: str = "0004_study_lifecycle"
down_revision: str | None = "0003_identity"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _add(table: str, column: sa.Column) -> None:
    with op.batch_alter_table(table) as batch:
        batch.add_column(column)


def _drop(table: str, column: str) -> None:
    if op.get_bind().dialect.name == "sqlite":
        # SQLite >= 3.35 drops a plain column in place; the batch copy would drop and recreate the table,
        # which its foreign keys forbid while rows refer to it
        op.execute(f'ALTER TABLE "{table}" DROP COLUMN "{column}"')
        return
    op.drop_column(table, column)


def upgrade() -> None:
    _add("studies", sa.Column("state", sa.String(20), nullable=False, server_default="open"))
    op.execute("UPDATE studies SET state = 'picked' WHERE id IN (SELECT study_id FROM study_picks)")
    op.execute("UPDATE studies SET state = 'in_review' WHERE id IN (SELECT study_id FROM study_review_assignments)")
    _add("study_users", sa.Column("session_version", sa.Integer, nullable=False, server_default="0"))
    _add("study_users", sa.Column("groups", sa.String(200), nullable=False, server_default=""))
    _add("studies", sa.Column("groups", sa.String(200), nullable=False, server_default=""))
    _add("study_enrolments", sa.Column("consent_at", sa.DateTime(timezone=True)))
    _add("study_attempts", sa.Column("skip_reason", sa.String(500)))
    _add("study_submissions", sa.Column("ai_tools", sa.String(500)))
    _add("study_reviews", sa.Column("margin_notes", JSONType))
    op.drop_index("ix_study_login_attempts_key", table_name="study_login_attempts")
    op.drop_table("study_login_attempts")
    op.create_table(
        "study_login_counters",
        sa.Column("key", sa.String(300), nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False),
        sa.Column("window_start", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_study_login_counters"),
    )
    op.create_table(
        "study_problem_reports",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("assignment_id", sa.Integer, nullable=False),
        sa.Column("text", sa.String(2000), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_study_problem_reports"),
        sa.ForeignKeyConstraint(
            ["assignment_id"],
            ["study_review_assignments.id"],
            name="fk_study_problem_reports_assignment_id_study_review_assignments",
        ),
    )
    op.create_index("ix_study_problem_reports_assignment_id", "study_problem_reports", ["assignment_id"])


def downgrade() -> None:
    op.drop_index("ix_study_problem_reports_assignment_id", table_name="study_problem_reports")
    op.drop_table("study_problem_reports")
    op.drop_table("study_login_counters")
    op.create_table(
        "study_login_attempts",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("key", sa.String(300), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_study_login_attempts"),
    )
    op.create_index("ix_study_login_attempts_key", "study_login_attempts", ["key"])
    _drop("study_reviews", "margin_notes")
    _drop("study_submissions", "ai_tools")
    _drop("study_attempts", "skip_reason")
    _drop("study_enrolments", "consent_at")
    _drop("studies", "groups")
    _drop("study_users", "groups")
    _drop("study_users", "session_version")
    _drop("studies", "state")
