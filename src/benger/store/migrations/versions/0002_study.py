"""Human-study tables: accounts, studies, timed attempts, submissions, picks, review assignments, reviews.

Revision ID: 0002_study
Revises: 0001_core
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from benger.store._base import JSONType

revision = "0002_study"
down_revision = "0001_core"
branch_labels = None
depends_on = None


def _ts(name: str, nullable: bool = True) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "study_users",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("username", sa.String(100), nullable=False),
        sa.Column("password_hash", sa.String(300), nullable=False),
        sa.Column("roles", sa.String(100), nullable=False),
        sa.Column("pseudonym", sa.String(40), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("expertise_level", sa.String(40)),
        sa.Column("competence", JSONType),
        sa.Column("exam_grade", sa.Float),
        _ts("created_at", False),
        sa.PrimaryKeyConstraint("id", name="pk_study_users"),
        sa.UniqueConstraint("username", name="uq_study_users_username"),
        sa.UniqueConstraint("pseudonym", name="uq_study_users_pseudonym"),
    )
    op.create_table(
        "study_invitations",
        sa.Column("token", sa.String(100), nullable=False),
        sa.Column("role", sa.String(40), nullable=False),
        _ts("created_at", False),
        _ts("expires_at", False),
        sa.Column("used_by", sa.Integer),
        sa.PrimaryKeyConstraint("token", name="pk_study_invitations"),
        sa.ForeignKeyConstraint(["used_by"], ["study_users.id"], name="fk_study_invitations_used_by_study_users"),
    )
    op.create_table(
        "study_login_attempts",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("key", sa.String(300), nullable=False),
        _ts("at", False),
        sa.PrimaryKeyConstraint("id", name="pk_study_login_attempts"),
    )
    op.create_index("ix_study_login_attempts_key", "study_login_attempts", ["key"])
    op.create_table(
        "study_settings",
        sa.Column("key", sa.String(100), nullable=False),
        sa.Column("value", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("key", name="pk_study_settings"),
    )
    op.create_table(
        "studies",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("corpus", sa.String(200), nullable=False),
        sa.Column("seed", sa.Integer, nullable=False),
        sa.Column("time_limit_s", sa.Integer, nullable=False),
        _ts("created_at", False),
        sa.PrimaryKeyConstraint("id", name="pk_studies"),
        sa.UniqueConstraint("name", name="uq_studies_name"),
    )
    op.create_table(
        "study_tasks",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("study_id", sa.Integer, nullable=False),
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("area", sa.String(40), nullable=False),
        sa.Column("difficulty", sa.String(40)),
        sa.Column("title", sa.String(300)),
        sa.Column("author_id", sa.Integer),
        sa.PrimaryKeyConstraint("id", name="pk_study_tasks"),
        sa.ForeignKeyConstraint(["study_id"], ["studies.id"], name="fk_study_tasks_study_id_studies"),
        sa.ForeignKeyConstraint(["author_id"], ["study_users.id"], name="fk_study_tasks_author_id_study_users"),
        sa.UniqueConstraint("study_id", "task_id", name="uq_study_tasks_study_id_task_id"),
    )
    op.create_index("ix_study_tasks_study_id", "study_tasks", ["study_id"])
    op.create_table(
        "study_enrolments",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("study_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        _ts("enrolled_at", False),
        sa.PrimaryKeyConstraint("id", name="pk_study_enrolments"),
        sa.ForeignKeyConstraint(["study_id"], ["studies.id"], name="fk_study_enrolments_study_id_studies"),
        sa.ForeignKeyConstraint(["user_id"], ["study_users.id"], name="fk_study_enrolments_user_id_study_users"),
        sa.UniqueConstraint("study_id", "user_id", name="uq_study_enrolments_study_id_user_id"),
        sa.UniqueConstraint("study_id", "position", name="uq_study_enrolments_study_id_position"),
    )
    op.create_table(
        "study_attempts",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("study_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("arm", sa.String(20), nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        _ts("started_at"),
        _ts("deadline"),
        sa.Column("draft", sa.Text, nullable=False),
        _ts("draft_saved_at"),
        sa.PrimaryKeyConstraint("id", name="pk_study_attempts"),
        sa.ForeignKeyConstraint(["study_id"], ["studies.id"], name="fk_study_attempts_study_id_studies"),
        sa.ForeignKeyConstraint(["user_id"], ["study_users.id"], name="fk_study_attempts_user_id_study_users"),
        sa.UniqueConstraint("study_id", "user_id", "task_id", name="uq_study_attempts_study_id_user_id_task_id"),
    )
    op.create_index("ix_study_attempts_study_id", "study_attempts", ["study_id"])
    op.create_index("ix_study_attempts_user_id", "study_attempts", ["user_id"])
    op.create_table(
        "study_submissions",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("study_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("arm", sa.String(20), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("auto_submitted", sa.Boolean, nullable=False),
        _ts("started_at"),
        _ts("submitted_at", False),
        sa.PrimaryKeyConstraint("id", name="pk_study_submissions"),
        sa.ForeignKeyConstraint(["study_id"], ["studies.id"], name="fk_study_submissions_study_id_studies"),
        sa.ForeignKeyConstraint(["user_id"], ["study_users.id"], name="fk_study_submissions_user_id_study_users"),
        sa.UniqueConstraint("study_id", "user_id", "task_id", name="uq_study_submissions_study_id_user_id_task_id"),
    )
    op.create_index("ix_study_submissions_study_id", "study_submissions", ["study_id"])
    op.create_table(
        "study_picks",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("study_id", sa.Integer, nullable=False),
        sa.Column("code", sa.String(20), nullable=False),
        sa.Column("task_id", sa.String(200), nullable=False),
        sa.Column("provenance", sa.String(20), nullable=False),
        sa.Column("target_kind", sa.String(20), nullable=False),
        sa.Column("target_id", sa.String(200), nullable=False),
        sa.Column("meta", JSONType, nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_study_picks"),
        sa.ForeignKeyConstraint(["study_id"], ["studies.id"], name="fk_study_picks_study_id_studies"),
        sa.UniqueConstraint("study_id", "code", name="uq_study_picks_study_id_code"),
        sa.UniqueConstraint("study_id", "task_id", "provenance", name="uq_study_picks_study_id_task_id_provenance"),
    )
    op.create_index("ix_study_picks_study_id", "study_picks", ["study_id"])
    op.create_table(
        "study_review_assignments",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("study_id", sa.Integer, nullable=False),
        sa.Column("pick_id", sa.Integer, nullable=False),
        sa.Column("grader_id", sa.Integer, nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("slot", sa.String(20), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_study_review_assignments"),
        sa.ForeignKeyConstraint(["study_id"], ["studies.id"], name="fk_study_review_assignments_study_id_studies"),
        sa.ForeignKeyConstraint(
            ["pick_id"], ["study_picks.id"], name="fk_study_review_assignments_pick_id_study_picks"
        ),
        sa.ForeignKeyConstraint(
            ["grader_id"], ["study_users.id"], name="fk_study_review_assignments_grader_id_study_users"
        ),
        sa.UniqueConstraint("pick_id", "grader_id", name="uq_study_review_assignments_pick_id_grader_id"),
        sa.UniqueConstraint("pick_id", "slot", name="uq_study_review_assignments_pick_id_slot"),
    )
    op.create_index("ix_study_review_assignments_study_id", "study_review_assignments", ["study_id"])
    op.create_index("ix_study_review_assignments_grader_id", "study_review_assignments", ["grader_id"])
    op.create_table(
        "study_reviews",
        sa.Column("id", sa.String(64), nullable=False),
        sa.Column("assignment_id", sa.Integer, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("status", sa.String(20), nullable=False),
        sa.Column("dimensions", JSONType, nullable=False),
        sa.Column("justifications", JSONType, nullable=False),
        sa.Column("total", sa.Float),
        sa.Column("grade_points", sa.Integer),
        sa.Column("passed", sa.Boolean),
        sa.Column("supersedes", sa.String(64)),
        _ts("created_at", False),
        _ts("submitted_at"),
        sa.PrimaryKeyConstraint("id", name="pk_study_reviews"),
        sa.ForeignKeyConstraint(
            ["assignment_id"],
            ["study_review_assignments.id"],
            name="fk_study_reviews_assignment_id_study_review_assignments",
        ),
        sa.UniqueConstraint("assignment_id", "version", name="uq_study_reviews_assignment_id_version"),
    )
    op.create_index("ix_study_reviews_assignment_id", "study_reviews", ["assignment_id"])


def downgrade() -> None:
    for table in (
        "study_reviews",
        "study_review_assignments",
        "study_picks",
        "study_submissions",
        "study_attempts",
        "study_enrolments",
        "study_tasks",
        "studies",
        "study_settings",
        "study_login_attempts",
        "study_invitations",
        "study_users",
    ):
        op.drop_table(table)
