"""An organisation's human studies: the list, a new study over one of its corpora, and (its owner, who
administers studies on the platform) an existing study given to it; each links to the study's admin page,
which opens for the organisation's owners and organisers (``benger.web._orgstudies.study_admin_access``)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from benger.study import StudyError
from benger.web._i18n import message
from benger.web._render import lang_of
from benger.web._security import check_csrf
from benger.web.access import OrgCap, OrgScope, org_access
from benger.web.workbench._common import flash, page

router = APIRouter(prefix="/orgs/{org_id}")
Studies = Annotated[OrgScope, Depends(org_access(OrgCap.STUDIES))]
Assigning = Annotated[OrgScope, Depends(org_access(OrgCap.STUDIES_ASSIGN))]


def _page(request: Request, scope: OrgScope, status: int = 200, error: StudyError | None = None,
          form: str = "", typed: dict[str, str] | None = None) -> Response:  # fmt: skip
    shown = {"form": form, "field": error.field, "text": message(error, lang_of(request))} if error else None
    return page(request, "org_studies.html", scope, status, studies=scope.studies(), corpora=scope.corpora(),
                error=shown, typed=typed or {})  # fmt: skip


@router.get("/studies")
def studies_page(request: Request, scope: Studies) -> Response:
    return _page(request, scope)


@router.post("/studies", dependencies=[Depends(check_csrf)])
def studies_create(request: Request, scope: Studies, name: str = Form(...), corpus: str = Form(...),
                   seed: int = Form(...), time_limit_s: int = Form(7200)) -> Response:  # fmt: skip
    try:
        study_id = scope.create_study(name, corpus, seed, time_limit_s)
    except StudyError as exc:
        typed = {"name": name[:200], "corpus": corpus, "seed": str(seed), "time_limit_s": str(time_limit_s)}
        return _page(request, scope, 422, exc, "new", typed)
    flash(request, "Die Studie ist angelegt.")
    return RedirectResponse(f"/admin/studies/{study_id}", status_code=303)


@router.post("/studies/assign", dependencies=[Depends(check_csrf)])
def studies_assign(request: Request, scope: Assigning, study_id: int = Form(...)) -> Response:
    try:
        scope.assign_study(study_id)
    except StudyError as exc:
        return _page(request, scope, 422, exc, "assign", {"study_id": str(study_id)})
    flash(request, "Die Studie gehört jetzt der Organisation.")
    return RedirectResponse(f"/orgs/{scope.org_id}/studies", status_code=303)
