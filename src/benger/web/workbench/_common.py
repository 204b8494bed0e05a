"""Helpers of the workbench pages: the scope aliases the routes take, one-time notices, page numbers."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse

from benger.web._render import render
from benger.web.access import OrgCap, OrgScope, org_access

#: The scope of a route, by the capability it needs (the route never checks a role itself).
Viewing = Annotated[OrgScope, Depends(org_access(OrgCap.VIEW))]
MembersReading = Annotated[OrgScope, Depends(org_access(OrgCap.MEMBERS))]
Managing = Annotated[OrgScope, Depends(org_access(OrgCap.MANAGE))]
AuditReading = Annotated[OrgScope, Depends(org_access(OrgCap.AUDIT))]
CorporaReading = Annotated[OrgScope, Depends(org_access(OrgCap.CORPORA_READ))]
CorporaWriting = Annotated[OrgScope, Depends(org_access(OrgCap.CORPORA_WRITE))]


#: The German names of the roles (``benger.store._orgs.ROLES``); English in the i18n table.
ROLE_LABELS: dict[str, str] = {
    "owner": "Eigentümer*in",
    "organiser": "Organisator*in",
    "grader": "Bewerter*in",
    "participant": "Teilnehmer*in",
}


def flash(request: Request, text: str, **values: Any) -> None:
    """A notice shown once on the next page (kept in the signed session)."""
    request.session["flash"] = {"text": text, "values": {k: str(v) for k, v in values.items()}}


def page_number(text: str) -> int:
    return int(text) if text.isdigit() and len(text) < 7 else 1


def page(request: Request, name: str, scope: OrgScope | None, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Render a workbench template with the scope (for the organisation's navigation) and the notice."""
    notice = request.session.pop("flash", None)
    return render(
        request,
        f"workbench/{name}",
        status_code,
        scope=scope,
        OrgCap=OrgCap,
        notice=notice,
        role_label=ROLE_LABELS.get,
        **context,
    )
