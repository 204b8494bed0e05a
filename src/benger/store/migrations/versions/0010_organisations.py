"""Organisations of the workbench (issue 28): members and their roles, invitations (token hashed), the audit
log, the organisation's rubrics, the ownership of corpora, and generic ownership of other objects.

Existing stores are unchanged: every new table starts empty, and a corpus that no organisation owns stays
readable by the CLI and the results viewer as before.

Revision ID: 0010_organisations
Revises: 0009_judge_validations
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from benger.store._base import JSONType

revision: str = "0010_organisations"
down_revision: str | None = "0009_judge_validations"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ROLE_CHECK = "role IN ('owner', 'organiser', 'grader', 'participant')"


def _ts(name: str, nullable: bool = False) -> sa.Column:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def _fk(table: str, column: str, target: str) -> sa.ForeignKeyConstraint:
    referred = target.split(".")[0]
    return sa.ForeignKeyConstraint([column], [target], name=f"fk_{table}_{column}_{referred}")


def _user(table: str, column: str) -> tuple[sa.Column, sa.ForeignKeyConstraint]:
    return sa.Column(column, sa.Integer, nullable=True), _fk(table, column, "study_users.id")


def upgrade() -> None:
    op.create_table(
        "organisations",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("slug", sa.String(60), nullable=False),
        _ts("created_at"),
        *_user("organisations", "created_by"),
        sa.PrimaryKeyConstraint("id", name="pk_organisations"),
        sa.UniqueConstraint("name", name="uq_organisations_name"),
        sa.UniqueConstraint("slug", name="uq_organisations_slug"),
    )
    op.create_table(
        "organisation_members",
        sa.Column("organisation_id", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        _ts("joined_at"),
        sa.PrimaryKeyConstraint("organisation_id", "user_id", name="pk_organisation_members"),
        _fk("organisation_members", "organisation_id", "organisations.id"),
        _fk("organisation_members", "user_id", "study_users.id"),
        sa.CheckConstraint(_ROLE_CHECK, name="ck_organisation_members_role"),
    )
    op.create_index("ix_organisation_members_user_id", "organisation_members", ["user_id"])
    op.create_table(
        "organisation_invitations",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("organisation_id", sa.Integer, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        *_user("organisation_invitations", "created_by"),
        _ts("created_at"),
        _ts("expires_at"),
        *_user("organisation_invitations", "accepted_by"),
        _ts("accepted_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_organisation_invitations"),
        _fk("organisation_invitations", "organisation_id", "organisations.id"),
        sa.UniqueConstraint("token_hash", name="uq_organisation_invitations_token_hash"),
        sa.CheckConstraint(_ROLE_CHECK, name="ck_organisation_invitations_role"),
    )
    op.create_index("ix_organisation_invitations_organisation_id", "organisation_invitations", ["organisation_id"])
    op.create_table(
        "organisation_audit",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("organisation_id", sa.Integer, nullable=False),
        *_user("organisation_audit", "actor_id"),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("object_kind", sa.String(40), nullable=False),
        sa.Column("object_key", sa.String(400), nullable=False),
        sa.Column("detail", JSONType, nullable=False),
        _ts("at"),
        sa.PrimaryKeyConstraint("id", name="pk_organisation_audit"),
        _fk("organisation_audit", "organisation_id", "organisations.id"),
    )
    op.create_index("ix_organisation_audit_organisation_id", "organisation_audit", ["organisation_id"])
    op.create_index("ix_organisation_audit_at", "organisation_audit", ["at"])
    op.create_table(
        "organisation_rubrics",
        sa.Column("id", sa.Integer, autoincrement=True, nullable=False),
        sa.Column("organisation_id", sa.Integer, nullable=False),
        sa.Column("rubric_id", sa.String(100), nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("data", JSONType, nullable=False),
        *_user("organisation_rubrics", "created_by"),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("id", name="pk_organisation_rubrics"),
        _fk("organisation_rubrics", "organisation_id", "organisations.id"),
        sa.UniqueConstraint("organisation_id", "rubric_id", name="uq_organisation_rubrics_organisation_id_rubric_id"),
    )
    op.create_index("ix_organisation_rubrics_organisation_id", "organisation_rubrics", ["organisation_id"])
    op.create_table(
        "organisation_corpora",
        sa.Column("corpus", sa.String(200), nullable=False),
        sa.Column("organisation_id", sa.Integer, nullable=False),
        sa.Column("label", sa.String(200), nullable=False),
        sa.Column("rubric_ref", sa.Integer, nullable=True),
        sa.Column("builtin_rubric", sa.String(40), nullable=True),
        *_user("organisation_corpora", "imported_by"),
        _ts("imported_at"),
        sa.PrimaryKeyConstraint("corpus", name="pk_organisation_corpora"),
        _fk("organisation_corpora", "corpus", "corpora.name"),
        _fk("organisation_corpora", "organisation_id", "organisations.id"),
        _fk("organisation_corpora", "rubric_ref", "organisation_rubrics.id"),
        sa.UniqueConstraint("organisation_id", "label", name="uq_organisation_corpora_organisation_id_label"),
    )
    op.create_index("ix_organisation_corpora_organisation_id", "organisation_corpora", ["organisation_id"])
    op.create_table(
        "organisation_objects",
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("object_key", sa.String(400), nullable=False),
        sa.Column("organisation_id", sa.Integer, nullable=False),
        _ts("created_at"),
        sa.PrimaryKeyConstraint("kind", "object_key", name="pk_organisation_objects"),
        _fk("organisation_objects", "organisation_id", "organisations.id"),
    )
    op.create_index("ix_organisation_objects_organisation_id", "organisation_objects", ["organisation_id"])


def downgrade() -> None:
    for table in (
        "organisation_objects",
        "organisation_corpora",
        "organisation_rubrics",
        "organisation_audit",
        "organisation_invitations",
        "organisation_members",
        "organisations",
    ):
        op.execute(f"DROP TABLE IF EXISTS {table}")  # indexes go with their table
