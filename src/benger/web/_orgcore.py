"""The core of the workbench's organisation scope: the scope's filters (every query of an organisation's rows goes
through :meth:`ScopeCore.where` or :meth:`ScopeCore.get`). The roles, capabilities and the ORG_POLICY table are in
:mod:`benger.web._policy` (imported here).

See :mod:`benger.web._orgscope` for the dependency that builds a scope, and :mod:`benger.web._orgdata` for the
organisation's data operations.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import Session
from starlette.exceptions import HTTPException

from benger.store import Store
from benger.store._orgs import AuditEntry, OrgObject
from benger.study import StudyError
from benger.study._accounts import now_utc
from benger.web._policy import ORG_POLICY, OrgCap, OrgRole

Row = TypeVar("Row")
#: How long an invitation link works.
INVITATION_DAYS = 7


def hash_token(token: str) -> str:
    """The stored form of an invitation token (SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class NotFound(HTTPException):
    """An object that does not exist, or exists in another organisation: 404 either way."""

    def __init__(self) -> None:
        super().__init__(404)


@dataclass(frozen=True)
class OrgInfo:
    """An organisation as pages show it."""

    id: int
    name: str
    slug: str


@dataclass(frozen=True)
class Member:
    """Who asks: the account and its role in the scope's organisation."""

    user_id: int
    username: str
    role: OrgRole


class ScopeCore:
    """One member's view of one organisation; every query and write here is confined to ``org.id``."""

    def __init__(self, store: Store, org: OrgInfo, member: Member) -> None:
        self.store = store
        self.org = org
        self.member = member

    @property
    def org_id(self) -> int:
        return self.org.id

    def can(self, capability: OrgCap) -> bool:
        """Whether the member's role holds ``capability`` (pages use it to show or hide links)."""
        return self.member.role in ORG_POLICY[capability]

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A store session: commits on success, rolls back on an exception (one transaction)."""
        with self.store.session() as session:
            yield session

    def where(self, model: Any) -> ColumnElement[bool]:
        """The filter of a table with an ``organisation_id`` column: ``select(M).where(scope.where(M))``."""
        criterion: ColumnElement[bool] = model.organisation_id == self.org_id
        return criterion

    def get(self, session: Session, model: type[Row], key: Any) -> Row:
        """The row ``key`` of ``model`` (which has ``organisation_id``) if it belongs here; NotFound otherwise."""
        row = session.get(model, key)
        if row is None or getattr(row, "organisation_id", None) != self.org_id:
            raise NotFound()
        return row

    # -- generic ownership of other objects (studies, results, ...) --------------------------------
    def own(self, session: Session, kind: str, key: str) -> None:
        """Record that ``(kind, key)`` belongs to this organisation; StudyError if another one owns it."""
        row = session.get(OrgObject, (kind, key))
        if row is not None and row.organisation_id != self.org_id:
            raise StudyError("Dieses Objekt gehört einer anderen Organisation.", field="object")
        if row is None:
            session.add(OrgObject(kind=kind, object_key=key, organisation_id=self.org_id, created_at=now_utc()))
            session.flush()

    def owned(self, session: Session, kind: str) -> list[str]:
        """The keys of the objects of ``kind`` that belong to this organisation, sorted."""
        stmt = select(OrgObject.object_key).where(OrgObject.kind == kind, self.where(OrgObject))
        return sorted(session.scalars(stmt))

    def require_owned(self, session: Session, kind: str, key: str) -> None:
        """NotFound unless ``(kind, key)`` belongs to this organisation."""
        self.get(session, OrgObject, (kind, key))

    # -- audit log ---------------------------------------------------------------------------------
    def audit(self, session: Session, action: str, kind: str, key: str, **detail: Any) -> None:
        """Log ``action`` on the object ``(kind, key)`` by the member, in the caller's transaction."""
        session.add(
            AuditEntry(
                organisation_id=self.org_id,
                actor_id=self.member.user_id,
                action=action,
                object_kind=kind,
                object_key=key[:400],
                detail=detail,
                at=now_utc(),
            )
        )
