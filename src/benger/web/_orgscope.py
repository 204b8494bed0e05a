"""Tenant isolation of the workbench: the one place that decides which organisation's rows a request sees.

Every workbench route lives under ``/orgs/{org_id}/...`` and takes an :class:`OrgScope` from
:func:`org_access` (``Annotated[OrgScope, Depends(org_access(OrgCap.X))]``), never a check of its own. The
dependency finds the logged-in account, its membership in ``org_id`` and the role there, and asks
:data:`ORG_POLICY` whether the role holds the route's capability:

* not logged in: the login page (``LoginRequired``);
* not a member of ``org_id`` (or no such organisation): 404, the same answer for both, so an id says nothing
  about another organisation;
* a member whose role lacks the capability: 403 (``Forbidden``).

The scope's queries are all filtered by its organisation (:meth:`OrgScope.where`, :meth:`OrgScope.get`), so a
route that names an object of another organisation by id gets 404 (``NotFound``). The organisation's data
operations (corpora, rubrics, members, audit log) are in :mod:`benger.web._orgdata`, on this scope.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from collections.abc import Callable
from functools import cache

from fastapi import Request
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from benger.store import Store
from benger.store._orgs import Membership, Organisation, OrgInvitation
from benger.study import LoggedIn, StudyError
from benger.study._accounts import _HASHER, aware, check_password, check_username, now_utc
from benger.study._models import StudyUser
from benger.web._orgcore import Member, NotFound, OrgCap, OrgInfo, OrgRole, hash_token
from benger.web._orgdata import MembersData
from benger.web._orgstudies import StudiesData
from benger.web._security import Forbidden, require, store_of


class OrgScope(StudiesData, MembersData):
    """The scope a workbench route receives: the core filters plus the organisation's data operations
    (corpora, rubrics and studies; members and the audit log)."""


# -- the dependency ------------------------------------------------------------------------------
@cache
def org_access(capability: OrgCap) -> Callable[[Request, int], OrgScope]:
    """The router dependency of a workbench route that needs ``capability`` (one callable per capability, so
    FastAPI runs it once per request; ``dependency.capability`` names it for the authorisation tests)."""

    def dependency(request: Request, org_id: int) -> OrgScope:
        store = store_of(request)
        with store.session() as session:
            user = require(request, session)  # LoginRequired; fills request.state.user for the templates
            org = session.get(Organisation, org_id)
            membership = session.get(Membership, (org_id, user.id)) if org is not None else None
            if org is None or membership is None:
                raise NotFound()
            scope = OrgScope(
                store, OrgInfo(org.id, org.name, org.slug), Member(user.id, user.username, OrgRole(membership.role))
            )
        if not scope.can(capability):
            raise Forbidden()
        request.state.org_scope = scope
        return scope

    dependency.capability = capability  # type: ignore[attr-defined]
    return dependency


# -- outside one organisation: create, join, list ------------------------------------------------
def slug_of(name: str) -> str:
    """``name`` as a-z, 0-9 and '-' (umlauts spelled out; at most 40 characters)."""
    text = name.lower()
    for src, dst in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss")):
        text = text.replace(src, dst)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-")[:40].strip("-") or "org"


def create_organisation(store: Store, name: str, user_id: int) -> int:
    """A new organisation named ``name`` whose owner is ``user_id``; its id. StudyError for a bad or taken name."""
    name = name.strip()
    if not name or len(name) > 200 or not name.isprintable():
        raise StudyError("Ein Name braucht 1 bis 200 druckbare Zeichen.", field="name")
    with store.session() as session:
        if session.scalar(select(Organisation.id).where(Organisation.name == name)) is not None:
            raise StudyError("Die Organisation {name} gibt es schon.", field="name", name=name)
        base = slug_of(name)
        taken = set(session.scalars(select(Organisation.slug).where(Organisation.slug.startswith(base))))
        slug = next(s for s in (base, *(f"{base}-{n}" for n in range(2, len(taken) + 3))) if s not in taken)
        org = Organisation(name=name, slug=slug, created_at=now_utc(), created_by=user_id)
        session.add(org)
        session.flush()
        session.add(Membership(organisation_id=org.id, user_id=user_id, role=OrgRole.OWNER, joined_at=now_utc()))
        scope = OrgScope(store, OrgInfo(org.id, name, slug), Member(user_id, "", OrgRole.OWNER))
        scope.audit(session, "create", "organisation", str(org.id), name=name)
        return org.id


def organisations_of(store: Store, user_id: int) -> list[tuple[OrgInfo, OrgRole]]:
    """The organisations ``user_id`` belongs to, with the role there, by name."""
    with store.session() as session:
        stmt = (
            select(Organisation, Membership.role)
            .join(Membership, Membership.organisation_id == Organisation.id)
            .where(Membership.user_id == user_id)
            .order_by(Organisation.name)
        )
        return [(OrgInfo(o.id, o.name, o.slug), OrgRole(role)) for o, role in session.execute(stmt)]


def invitation_of(session: Session, token: str) -> OrgInvitation:
    """The open invitation of ``token`` (locked for update); StudyError when unknown, used or expired."""
    stmt = select(OrgInvitation).where(OrgInvitation.token_hash == hash_token(token)).with_for_update()
    invitation = session.scalar(stmt)
    if invitation is None or invitation.accepted_by is not None or aware(invitation.expires_at) < now_utc():
        raise StudyError("Dieser Einladungslink ist ungültig, benutzt oder abgelaufen.", field="token")
    return invitation


def _join(session: Session, store: Store, invitation: OrgInvitation, user_id: int, username: str) -> int:
    org = session.get(Organisation, invitation.organisation_id)
    assert org is not None
    if session.get(Membership, (org.id, user_id)) is not None:
        raise StudyError("Sie sind bereits Mitglied dieser Organisation.", field="token")
    session.add(Membership(organisation_id=org.id, user_id=user_id, role=invitation.role, joined_at=now_utc()))
    invitation.accepted_by, invitation.accepted_at = user_id, now_utc()
    scope = OrgScope(store, OrgInfo(org.id, org.name, org.slug), Member(user_id, username, OrgRole(invitation.role)))
    scope.audit(session, "accept", "member", str(user_id), role=invitation.role, username=username)
    return org.id


def accept_invitation(store: Store, token: str, user_id: int, username: str) -> int:
    """Join the invitation's organisation with its role; the organisation's id. StudyError for a used,
    expired or unknown link, or when the account is a member already."""
    with store.session() as session:
        return _join(session, store, invitation_of(session, token), user_id, username)


def join_with_new_account(store: Store, token: str, username: str, password: str) -> tuple[int, LoggedIn]:
    """Create an account (no platform role: it sees the workbench and its own account page) and join the
    invitation's organisation with it, in one transaction; the organisation's id and the login. StudyError for
    a bad link, a taken or bad user name, or a weak password (the study's password policy)."""
    with store.session() as session:
        invitation = invitation_of(session, token)
        username = check_username(username)
        check_password(password, username)
        user = StudyUser(
            username=username,
            password_hash=_HASHER.hash(password),
            roles="",
            pseudonym="u-" + secrets.token_hex(6),
            active=True,
            session_version=0,
        )
        try:
            with session.begin_nested():
                session.add(user)
                session.flush()
        except IntegrityError as exc:
            raise StudyError("Der Benutzername {name} ist bereits vergeben.", field="username", name=username) from exc
        return _join(session, store, invitation, user.id, username), LoggedIn(user.id, "", 0)


def invitation_info(store: Store, token: str) -> tuple[OrgInfo, OrgRole]:
    """The organisation and role an open invitation link offers; StudyError when unknown, used or expired."""
    with store.session() as session:
        invitation = invitation_of(session, token)
        org = session.get(Organisation, invitation.organisation_id)
        assert org is not None
        return OrgInfo(org.id, org.name, org.slug), OrgRole(invitation.role)
