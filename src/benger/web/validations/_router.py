"""Validation runs from the browser: a finished run's page links to "validate this judge", which launches
``validate-judge`` (the CLI's code, :mod:`benger.analysis._validate_run`) for one of the run's judges, against
the release's picks or the organisation's own reviews of one of the run's corpora; its page shows the progress
and then the result table.

Every route takes its :class:`~benger.web.access.OrgScope` from the access layer's one dependency and reads
runs and validations only through the scope (``scope.get``): another organisation's run or validation is 404,
whatever its id. Launches are written to the organisation's audit log.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from sqlalchemy import select

from benger.errors import BengerError, InputError
from benger.study._models import StudyUser
from benger.study._workbench_models import ACTIVE_STATES, VALIDATION_SOURCES, WorkbenchRun, WorkbenchValidation
from benger.web._security import check_csrf
from benger.web.access import OrgCap, OrgScope, org_access
from benger.web.runs._setup import parse_web_config
from benger.web.validations._launch import ValidationLauncher, release_dir
from benger.web.validations._render import render, result_view

router = APIRouter(prefix="/orgs/{org_id}")
ReadScope = Annotated[OrgScope, Depends(org_access(OrgCap.RUNS_READ))]
WriteScope = Annotated[OrgScope, Depends(org_access(OrgCap.RUNS_WRITE))]
ResultsScope = Annotated[OrgScope, Depends(org_access(OrgCap.RESULTS_READ))]
#: The run states whose judgements a validation can use.
VALIDATABLE = ("finished", "incomplete")


def launcher_of(request: Request) -> ValidationLauncher:
    launcher: ValidationLauncher = request.app.state.validation_launcher
    return launcher


def _choices(scope: OrgScope, run: WorkbenchRun) -> dict[str, Any]:
    """What the form offers for ``run``: its judges, and those of its corpora that belong to the organisation."""
    config = parse_web_config(run.config_yaml, f"run-{run.id}.yaml")
    own = {c.stored: c.label for c in scope.corpora()}
    return {
        "judges": [j.name for j in config.resolved_judges()],
        "corpora": {c: own[c] for c in config.corpora if c in own},
    }


def _form(request: Request, scope: OrgScope, run: WorkbenchRun, error: str | None = None, status: int = 200,
          chosen: dict[str, str] | None = None) -> Response:  # fmt: skip
    return render(request, "validation_new.html", scope, status, org=scope.org_id, run=run, error=error,
                  validatable=run.status in VALIDATABLE, release=release_dir() is not None,
                  chosen=chosen or {}, **_choices(scope, run))  # fmt: skip


@router.get("/runs/{run_id}/validations/new")
def new_validation_page(request: Request, scope: ReadScope, run_id: int) -> Response:
    with scope.session() as session:
        run = scope.get(session, WorkbenchRun, run_id)
        session.expunge(run)
    return _form(request, scope, run)


def _checked(scope: OrgScope, run: WorkbenchRun, form: dict[str, str]) -> tuple[str, str, str | None]:
    """(judge, source, corpus) of the form, each checked against what the run offers; InputError naming the
    field otherwise."""
    if run.status not in VALIDATABLE:
        raise InputError(f"the run is {run.status}; a finished run's judge can be validated", field="run")
    choices = _choices(scope, run)
    judge = form.get("judge", "")
    if judge not in choices["judges"]:
        raise InputError(f"{judge!r} is not a judge of this run ({', '.join(choices['judges']) or 'none'})",
                         field="judge")  # fmt: skip
    source = form.get("source", "")
    if source not in VALIDATION_SOURCES:
        raise InputError(f"{source!r}: expected one of {', '.join(VALIDATION_SOURCES)}", field="source")
    if source == "release":
        if release_dir() is None:
            raise InputError("the server has no release to validate against (BENGER_RELEASE)", field="source")
        return judge, source, None
    corpus = form.get("corpus", "")
    if corpus not in choices["corpora"]:
        raise InputError(f"{corpus!r} is not a corpus of this run in the organisation", field="corpus")
    return judge, source, corpus


@router.post("/runs/{run_id}/validations", dependencies=[Depends(check_csrf)])
async def launch_validation(request: Request, scope: WriteScope, run_id: int) -> Response:
    """Create a validation of one of the run's judges and launch it."""
    form = {k: str(v) for k, v in (await request.form()).items() if k != "csrf_token"}
    with scope.session() as session:
        run = scope.get(session, WorkbenchRun, run_id)
        session.expunge(run)
    try:
        judge, source, corpus = _checked(scope, run, form)
    except BengerError as exc:
        return _form(request, scope, run, str(exc), 422, chosen=form)
    with scope.session() as session:
        row = WorkbenchValidation(organisation_id=scope.org_id, run_id=run.id, judge=judge, source=source,
                                  corpus=corpus, executor=launcher_of(request).executor, status="queued",
                                  done=0, total=0, created_by=scope.member.user_id)  # fmt: skip
        session.add(row)
        session.flush()
        validation_id = row.id
        scope.audit(session, "launch", "validation", str(validation_id), run=run.id, judge=judge, source=source,
                    corpus=corpus)  # fmt: skip
    launcher_of(request).launch(validation_id)
    return RedirectResponse(f"/orgs/{scope.org_id}/validations/{validation_id}", status_code=303)


@router.get("/validations")
def validations_page(request: Request, scope: ResultsScope) -> Response:
    with scope.session() as session:
        rows = list(session.scalars(select(WorkbenchValidation).where(scope.where(WorkbenchValidation))
                                    .order_by(WorkbenchValidation.id.desc())))  # fmt: skip
        for row in rows:
            session.expunge(row)
    return render(request, "validations_list.html", scope, org=scope.org_id, validations=rows)


def _state(row: WorkbenchValidation) -> dict[str, Any]:
    return {"status": row.status, "done": row.done, "total": row.total, "message": row.message,
            "finished_at": row.finished_at.isoformat() if row.finished_at else None}  # fmt: skip


@router.get("/validations/{validation_id}")
def validation_page(request: Request, scope: ResultsScope, validation_id: int) -> Response:
    with scope.session() as session:
        row = scope.get(session, WorkbenchValidation, validation_id)
        session.expunge(row)
        creator = session.get(StudyUser, row.created_by) if row.created_by else None
        created_by = creator.username if creator else "–"
    return render(request, "validation.html", scope, org=scope.org_id, validation=row, created_by=created_by,
                  active=row.status in ACTIVE_STATES, view=result_view(row.result),
                  can_launch=row.status in ("incomplete", "failed", "interrupted"))  # fmt: skip


@router.get("/validations/{validation_id}/progress")
def validation_progress(request: Request, scope: ResultsScope, validation_id: int) -> Response:
    with scope.session() as session:
        return JSONResponse(_state(scope.get(session, WorkbenchValidation, validation_id)))


@router.post("/validations/{validation_id}/launch", dependencies=[Depends(check_csrf)])
def relaunch_validation(request: Request, scope: WriteScope, validation_id: int) -> Response:
    """Launch an incomplete, failed or interrupted validation again (stored judgements are reused)."""
    with scope.session() as session:
        row = scope.get(session, WorkbenchValidation, validation_id)
        if row.status in ACTIVE_STATES or row.status == "finished" or launcher_of(request).alive(validation_id):
            raise InputError(f"the validation is {row.status}", field="status")
        row.status, row.message, row.finished_at = "queued", None, None
        scope.audit(session, "resume", "validation", str(validation_id), judge=row.judge)
    launcher_of(request).launch(validation_id)
    return RedirectResponse(f"/orgs/{scope.org_id}/validations/{validation_id}", status_code=303)
