"""Organisation pages: my organisations, create one, join by invitation link, members (invite, change a role,
remove: owners only) and the audit log."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from benger.store._orgs import ROLES
from benger.study import StudyError
from benger.web._i18n import message
from benger.web._render import lang_of
from benger.web._security import LoggedInUser, check_csrf, login, store_of, user_of
from benger.web.access import (
    Capability,
    Principal,
    accept_invitation,
    create_organisation,
    invitation_info,
    join_with_new_account,
    org_creator,
    organisations_of,
    principal_of,
)
from benger.web.workbench._common import AuditReading, Managing, MembersReading, Viewing, flash, page, page_number

router = APIRouter(prefix="/orgs")


@router.get("")
def orgs_page(request: Request, user: LoggedInUser) -> Response:
    principal = principal_of(request)
    can_create = principal is not None and principal.can(Capability.ORGS_CREATE)
    orgs = organisations_of(store_of(request), user.id)
    return page(request, "orgs.html", None, orgs=orgs, can_create=can_create)


@router.post("", dependencies=[Depends(check_csrf)])
def orgs_create(
    request: Request, principal: Annotated[Principal, Depends(org_creator)], name: str = Form(...)
) -> Response:
    assert principal.user_id is not None
    try:
        org_id = create_organisation(store_of(request), name, principal.user_id)
    except StudyError as exc:  # a bad or taken name: the form again, the field named, what was typed kept
        orgs = organisations_of(store_of(request), principal.user_id)
        error = {"field": exc.field or "name", "text": message(exc, lang_of(request))}
        return page(request, "orgs.html", None, 422, orgs=orgs, can_create=True, error=error, typed=name[:200])
    flash(request, "Die Organisation ist angelegt; Sie sind ihre Eigentümerin.")
    return RedirectResponse(f"/orgs/{org_id}", status_code=303)


@router.get("/join/{token}")
def join_page(request: Request, token: str) -> Response:
    """The invitation: which organisation, which role; accepting needs a logged-in account."""
    store = store_of(request)
    with store.session() as session:
        logged_in = user_of(request, session) is not None
    try:
        org, role = invitation_info(store, token)
    except StudyError as exc:
        return page(request, "join.html", None, 404, error=message(exc, lang_of(request)), token=token)
    return page(request, "join.html", None, org=org, role=role, token=token, logged_in=logged_in)


@router.post("/join/{token}", dependencies=[Depends(check_csrf)])
def join(request: Request, token: str, user: LoggedInUser) -> Response:
    org_id = accept_invitation(store_of(request), token, user.id, user.username)
    return RedirectResponse(f"/orgs/{org_id}", status_code=303)


@router.post("/join/{token}/account", dependencies=[Depends(check_csrf)])
def join_new(request: Request, token: str, username: str = Form(...), password: str = Form(...)) -> Response:
    """Create an account and join with it (for an invited person who has none yet); logged in afterwards."""
    org_id, logged = join_with_new_account(store_of(request), token, username, password)
    login(request, logged)
    return RedirectResponse(f"/orgs/{org_id}", status_code=303)


@router.get("/{org_id}")
def org_home(request: Request, scope: Viewing) -> Response:
    return page(request, "org.html", scope)


@router.get("/{org_id}/members")
def members_page(request: Request, scope: MembersReading) -> Response:
    invitation = request.session.pop("invitation", None)
    link = f"{str(request.base_url).rstrip('/')}/orgs/join/{invitation}" if isinstance(invitation, str) else None
    return page(
        request,
        "members.html",
        scope,
        members=scope.members(),
        invitations=scope.open_invitations(),
        roles=ROLES,
        link=link,
    )


@router.post("/{org_id}/invitations", dependencies=[Depends(check_csrf)])
def invite(request: Request, scope: Managing, role: str = Form(...)) -> Response:
    """A new invitation link; shown once on the members page (only its hash is stored)."""
    request.session["invitation"] = scope.invite(role)
    return RedirectResponse(f"/orgs/{scope.org_id}/members", status_code=303)


@router.post("/{org_id}/members/{user_id}/role", dependencies=[Depends(check_csrf)])
def member_role(request: Request, scope: Managing, user_id: int, role: str = Form(...)) -> Response:
    scope.set_role(user_id, role)
    flash(request, "Die Rolle ist geändert.")
    return RedirectResponse(f"/orgs/{scope.org_id}/members", status_code=303)


@router.post("/{org_id}/members/{user_id}/remove", dependencies=[Depends(check_csrf)])
def member_remove(request: Request, scope: Managing, user_id: int) -> Response:
    scope.remove(user_id)
    flash(request, "Das Mitglied ist entfernt.")
    target = "/orgs" if user_id == scope.member.user_id else f"/orgs/{scope.org_id}/members"
    return RedirectResponse(target, status_code=303)


@router.get("/{org_id}/audit")
def audit_page(request: Request, scope: AuditReading) -> Response:
    number = page_number(request.query_params.get("page", "1"))
    lines, pages = scope.audit_log(number)
    return page(request, "audit.html", scope, lines=lines, page=min(number, pages), pages=pages)
