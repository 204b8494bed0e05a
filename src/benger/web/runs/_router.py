"""Runs from the browser: set up (form or YAML upload), estimate, launch, watch (server-sent events), cancel,
resume, failures, results links; and the organisation's API keys (write-only).

Every route takes its :class:`~benger.web.access.OrgScope` from the access layer's one dependency
(``org_access(OrgCap.X)``: membership and role checked there) and reads runs only through the scope
(``scope.get`` / ``scope.where``) and keys only by the scope's organisation: a run of another organisation is
404 to it, whatever its id. Launch, cancel, resume and key changes are written to the organisation's audit log
(never with a key in it).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Form, Request, UploadFile
from fastapi.responses import JSONResponse, RedirectResponse, Response, StreamingResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from benger.errors import BengerError, InputError
from benger.llm import load_catalog
from benger.study._models import StudyUser
from benger.study._workbench_models import ACTIVE_STATES, WorkbenchRun
from benger.web._security import check_csrf, store_of
from benger.web.access import OrgCap, OrgScope, org_access, reads_results
from benger.web.runs import _setup
from benger.web.runs._keys import delete_key, key_statuses, set_key
from benger.web.runs._launch import RunLauncher
from benger.web.runs._progress import RunProgress, run_progress, with_eta
from benger.web.runs._render import render

router = APIRouter(prefix="/orgs/{org_id}")
ReadScope = Annotated[OrgScope, Depends(org_access(OrgCap.RUNS_READ))]
WriteScope = Annotated[OrgScope, Depends(org_access(OrgCap.RUNS_WRITE))]
ExportScope = Annotated[OrgScope, Depends(org_access(OrgCap.RESULTS_EXPORT))]
KeyScope = Annotated[OrgScope, Depends(org_access(OrgCap.KEYS))]
#: Seconds between two progress events of a running run.
EVENT_EVERY_S = 1.0
MAX_UPLOAD_BYTES = 256 * 1024


def launcher_of(request: Request) -> RunLauncher:
    launcher: RunLauncher = request.app.state.run_launcher
    return launcher


def org_corpora(scope: OrgScope) -> dict[str, str]:
    """The corpora a run of the organisation may use: stored name (a run config's ``corpora:`` entry) -> label."""
    return {c.stored: c.label for c in scope.corpora()}


def _scoped_run(session: Session, scope: OrgScope, run_id: int) -> WorkbenchRun:
    run: WorkbenchRun = scope.get(session, WorkbenchRun, run_id)
    return run


def _form_page(request: Request, scope: OrgScope, error: str | None = None, status: int = 200) -> Response:
    catalog = load_catalog()
    with scope.session() as session:
        key_names = [k.name for k in key_statuses(session, scope.org_id)]
    return render(
        request,
        "run_new.html",
        scope,
        status,
        org=scope.org_id,
        error=error,
        corpora=org_corpora(scope),
        catalog_systems=[s.name for s in catalog.systems],
        catalog_judges=[j.name for j in catalog.judges],
        rows=type("Rows", (), _setup.ENDPOINT_ROWS),
        rubrics=_setup.web_rubrics(),
        uploaded_rubrics=scope.rubrics(),
        key_names=sorted({*key_names, "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY"}),
    )


@router.get("/runs")
def runs_page(request: Request, scope: ReadScope) -> Response:
    with scope.session() as session:
        runs = list(
            session.scalars(
                select(WorkbenchRun).filter_by(organisation_id=scope.org_id).order_by(WorkbenchRun.id.desc())
            )
        )
        users = {u.id: u.username for u in session.scalars(select(StudyUser))}
        return render(request, "runs_list.html", scope, org=scope.org_id, runs=runs, users=users)


@router.get("/runs/new")
def new_run_page(request: Request, scope: ReadScope) -> Response:
    return _form_page(request, scope)


def _create(request: Request, scope: OrgScope, config: Any) -> Response:
    with scope.session() as session:
        run = WorkbenchRun(
            organisation_id=scope.org_id,
            name=config.name[:200],
            config_yaml=_setup.config_text(config),
            executor=launcher_of(request).executor,
            status="draft",
            created_by=scope.member.user_id,
            reused=0,
            launches=0,
        )
        session.add(run)
        session.flush()
        run_id = run.id
    return RedirectResponse(f"/orgs/{scope.org_id}/runs/{run_id}", status_code=303)


@router.post("/runs", dependencies=[Depends(check_csrf)])
async def create_run(request: Request, scope: WriteScope) -> Response:
    """The form's run as a draft (its estimate is shown before launch)."""
    form = await request.form()
    choice = str(form.get("rubric") or "").strip()
    try:  # the rubric through the organisation's scope: another organisation's uploaded rubric is 404
        rubric = scope.run_rubric(choice) if choice else None
        config = _setup.config_from_form(form, org_corpora(scope), scope.attached_rubrics(), rubric)
    except BengerError as exc:
        return _form_page(request, scope, str(exc), 422)
    return _create(request, scope, config)


@router.post("/runs/upload", dependencies=[Depends(check_csrf)])
async def upload_run(request: Request, scope: WriteScope, file: UploadFile) -> Response:
    """A run config uploaded as YAML: the CLI's loader and messages (file, line, field)."""
    raw = await file.read(MAX_UPLOAD_BYTES + 1)
    name = (file.filename or "run.yaml").rsplit("/", 1)[-1][:100]
    try:
        if len(raw) > MAX_UPLOAD_BYTES:
            raise InputError(f"larger than {MAX_UPLOAD_BYTES // 1024} KiB", file=name)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("not UTF-8 text", file=name) from None
        parsed = _setup.parse_web_config(text, name, org_corpora(scope))
    except BengerError as exc:
        return _form_page(request, scope, str(exc), 422)
    return _create(request, scope, parsed)


def _progress(request: Request, run: WorkbenchRun) -> RunProgress | None:
    if run.status == "draft":
        return None
    store = store_of(request)
    config = _setup.parse_web_config(run.config_yaml, f"run-{run.id}.yaml")
    corpora = [c for c in config.corpora if c in set(store.corpus_names())]
    progress = run_progress(store, config, corpora)
    return with_eta(progress, run.reused, run.started_at, run.status in ACTIVE_STATES)


def _results(run: WorkbenchRun) -> dict[str, Any] | None:
    """Links into the results pages for the run's systems, each with the run's (first) judge."""
    if run.status not in ("finished", "incomplete"):
        return None
    config = _setup.parse_web_config(run.config_yaml, f"run-{run.id}.yaml")
    judges = [j.name for j in config.resolved_judges()]
    browse = []
    for system in config.resolved_systems():
        params = {"system": system.name} | ({"judge": judges[0]} if judges else {})
        browse.append((system.name, "/view/browse?" + urlencode(params)))
    return {"leaderboard": "/view/", "browse": browse}


@router.get("/runs/{run_id}")
def run_page(request: Request, scope: ReadScope, run_id: int) -> Response:
    with scope.session() as session:
        run = _scoped_run(session, scope, run_id)
        session.expunge(run)
        creator = session.get(StudyUser, run.created_by) if run.created_by else None
        created_by = creator.username if creator else "–"
    estimate = None
    if run.status == "draft":
        try:
            estimate = _setup.estimate(_setup.parse_web_config(run.config_yaml), store_of(request))
        except BengerError as exc:
            run.message = str(exc)
    active = run.status in ACTIVE_STATES
    return render(
        request,
        "run.html",
        scope,
        org=scope.org_id,
        run=run,
        created_by=created_by,
        estimate=estimate,
        progress=_progress(request, run),
        active=active,
        can_launch=not active and run.status != "finished",
        results=_results(run),
        results_readable=reads_results(request),
    )


@router.get("/runs/{run_id}/config.yaml")
def run_yaml(request: Request, scope: ExportScope, run_id: int) -> Response:
    with scope.session() as session:
        run = _scoped_run(session, scope, run_id)
        filename = "".join(c if c.isalnum() or c in "-_." else "-" for c in run.name) or "run"
        return Response(run.config_yaml, media_type="application/yaml",
                        headers={"Content-Disposition": f'attachment; filename="{filename}.yaml"'})  # fmt: skip


def _state(request: Request, run_id: int, scope: OrgScope) -> dict[str, Any]:
    with scope.session() as session:
        run = _scoped_run(session, scope, run_id)
        session.expunge(run)
    progress = _progress(request, run)
    return {
        "status": run.status,
        "message": run.message,
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "progress": progress.as_dict() if progress else None,
    }


@router.get("/runs/{run_id}/progress")
def run_progress_json(request: Request, scope: ReadScope, run_id: int) -> Response:
    return JSONResponse(_state(request, run_id, scope))


@router.get("/runs/{run_id}/events")
async def run_events(request: Request, scope: ReadScope, run_id: int) -> Response:
    """Server-sent events: the run's state every second while it is active, then one ``end`` event."""
    first = await asyncio.to_thread(_state, request, run_id, scope)  # 404 before the stream starts

    async def stream() -> AsyncIterator[str]:
        state = first
        while True:
            yield f"data: {json.dumps(state)}\n\n"
            if state["status"] not in ACTIVE_STATES or await request.is_disconnected():
                yield "event: end\ndata: {}\n\n"
                return
            await asyncio.sleep(EVENT_EVERY_S)
            state = await asyncio.to_thread(_state, request, run_id, scope)

    return StreamingResponse(stream(), media_type="text/event-stream", headers={"X-Accel-Buffering": "no"})


@router.post("/runs/{run_id}/launch", dependencies=[Depends(check_csrf)])
def launch_run(request: Request, scope: WriteScope, run_id: int) -> Response:
    """Launch a draft, or resume a cancelled, interrupted, failed or incomplete run."""
    with scope.session() as session:
        run = _scoped_run(session, scope, run_id)
        if run.status in ACTIVE_STATES or run.status == "finished":
            raise InputError(f"the run is {run.status}", field="status")
        action = "launch" if run.status == "draft" else "resume"
        scope.audit(session, action, "run", str(run_id), name=run.name, executor=launcher_of(request).executor)
    launcher_of(request).launch(run_id)
    return RedirectResponse(f"/orgs/{scope.org_id}/runs/{run_id}", status_code=303)


@router.post("/runs/{run_id}/cancel", dependencies=[Depends(check_csrf)])
def cancel_run(request: Request, scope: WriteScope, run_id: int) -> Response:
    with scope.session() as session:
        run = _scoped_run(session, scope, run_id)
        if run.status not in ACTIVE_STATES:
            raise InputError(f"the run is {run.status}", field="status")
        scope.audit(session, "cancel", "run", str(run_id), name=run.name)
    launcher_of(request).cancel(run_id)
    return RedirectResponse(f"/orgs/{scope.org_id}/runs/{run_id}", status_code=303)


@router.get("/keys")
def keys_page(request: Request, scope: ReadScope) -> Response:
    with scope.session() as session:
        keys = key_statuses(session, scope.org_id)
    return render(request, "keys.html", scope, org=scope.org_id, keys=keys, can_edit=scope.can(OrgCap.KEYS))


@router.post("/keys", dependencies=[Depends(check_csrf)])
def keys_set(request: Request, scope: KeyScope, name: str = Form(...), key: str = Form(...)) -> Response:
    with scope.session() as session:
        set_key(session, scope.org_id, name, key, scope.member.user_id)
        scope.audit(session, "key", "api_key", name.strip(), change="set")
    return RedirectResponse(f"/orgs/{scope.org_id}/keys", status_code=303)


@router.post("/keys/delete", dependencies=[Depends(check_csrf)])
def keys_delete(request: Request, scope: KeyScope, name: str = Form(...)) -> Response:
    with scope.session() as session:
        if delete_key(session, scope.org_id, name):
            scope.audit(session, "key", "api_key", name.strip(), change="deleted")
    return RedirectResponse(f"/orgs/{scope.org_id}/keys", status_code=303)
