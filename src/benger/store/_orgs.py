"""Organisations (tenants) of the workbench: members with roles, invitations, the audit log, and what belongs
to an organisation (corpora, rubrics, and by a generic key any other object: a study, a result).

Migration ``0010_organisations`` creates these tables. An account (``study_users``) may be a member of several
organisations, with exactly one role in each (``ROLES``). An invitation stores only the SHA-256 of its token
(the link holds the token itself), so a copy of the database cannot be used to join. Every object belongs to
at most one organisation: the primary key of ``organisation_corpora`` is the stored corpus name, that of
``organisation_objects`` is ``(kind, object_key)``; a table of its own (e.g. the workbench's runs) carries an
``organisation_id`` column that references ``organisations.id`` instead.

Who may read or change which row is decided in one place, the web layer's organisation scope
(``benger.web.access``); this module only holds the tables.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import CheckConstraint, DateTime, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from benger.store._base import Base, utcnow
from benger.store._text import StorableJSON, StorableString

#: The roles a member holds in an organisation, from most to least powerful.
ROLES: tuple[str, ...] = ("owner", "organiser", "grader", "participant")
#: What the audit log records (one row per action that changed an organisation's data or membership).
AUDIT_ACTIONS: tuple[str, ...] = (
    "create",
    "invite",
    "accept",
    "role-change",
    "remove",
    "import",
    "export",
    "attach-rubric",
    "launch",
    "cancel",
    "resume",
    "key",
    "assign",
)
_ROLE_CHECK = "role IN ('owner', 'organiser', 'grader', 'participant')"


class Organisation(Base):
    """A tenant: a Lehrstuhl, a team. ``slug`` (a-z, 0-9, '-') prefixes the stored names of its corpora."""

    __tablename__ = "organisations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(StorableString(200), unique=True)
    slug: Mapped[str] = mapped_column(String(60), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))


class Membership(Base):
    """An account's role in one organisation."""

    __tablename__ = "organisation_members"
    __table_args__ = (CheckConstraint(_ROLE_CHECK, name="role"),)

    organisation_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("study_users.id"), primary_key=True, index=True)
    role: Mapped[str] = mapped_column(String(20))
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OrgInvitation(Base):
    """A one-time link to join an organisation with ``role``; only the token's SHA-256 (hex) is stored."""

    __tablename__ = "organisation_invitations"
    __table_args__ = (CheckConstraint(_ROLE_CHECK, name="role"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    organisation_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    role: Mapped[str] = mapped_column(String(20))
    created_by: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    accepted_by: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))
    accepted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class AuditEntry(Base):
    """Who (``actor_id``) did what (``action``, one of AUDIT_ACTIONS) to which object, in which organisation."""

    __tablename__ = "organisation_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    organisation_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"), index=True)
    actor_id: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))
    action: Mapped[str] = mapped_column(String(40))
    object_kind: Mapped[str] = mapped_column(String(40))
    object_key: Mapped[str] = mapped_column(StorableString(400))
    detail: Mapped[dict[str, Any]] = mapped_column(StorableJSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, index=True)


class OrgRubric(Base):
    """A rubric uploaded to an organisation: its validated content (``data``) and its id (``name@version+sha8``)."""

    __tablename__ = "organisation_rubrics"
    __table_args__ = (UniqueConstraint("organisation_id", "rubric_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    organisation_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"), index=True)
    rubric_id: Mapped[str] = mapped_column(String(100))
    label: Mapped[str] = mapped_column(StorableString(200))
    data: Mapped[dict[str, Any]] = mapped_column(StorableJSON)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OrgCorpus(Base):
    """A stored corpus (``corpora.name``) owned by an organisation, shown there as ``label``; its rubric is an
    uploaded one (``rubric_ref``) or a built-in (``builtin_rubric``: 'falloesung', 'grundprinzipien'), or none."""

    __tablename__ = "organisation_corpora"
    __table_args__ = (UniqueConstraint("organisation_id", "label"),)

    corpus: Mapped[str] = mapped_column(ForeignKey("corpora.name"), primary_key=True)
    organisation_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"), index=True)
    label: Mapped[str] = mapped_column(String(200))
    rubric_ref: Mapped[int | None] = mapped_column(ForeignKey("organisation_rubrics.id"))
    builtin_rubric: Mapped[str | None] = mapped_column(String(40))
    imported_by: Mapped[int | None] = mapped_column(ForeignKey("study_users.id"))
    imported_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class OrgObject(Base):
    """Generic ownership: the object ``(kind, object_key)`` (e.g. ``("study", "12")``) belongs to one
    organisation."""

    __tablename__ = "organisation_objects"

    kind: Mapped[str] = mapped_column(String(40), primary_key=True)
    object_key: Mapped[str] = mapped_column(String(400), primary_key=True)
    organisation_id: Mapped[int] = mapped_column(ForeignKey("organisations.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


ORG_TABLES: tuple[str, ...] = (
    "organisations",
    "organisation_members",
    "organisation_invitations",
    "organisation_audit",
    "organisation_rubrics",
    "organisation_corpora",
    "organisation_objects",
)
