"""Corpus and rubric pages of an organisation: upload a corpus (JSONL/CSV, or the release as an archive) with
the CLI's validation, browse its tasks, upload a rubric (YAML, the rubric loader's checks) and attach one (an
uploaded rubric or the paper's) to a corpus.

An upload that fails stores nothing (one transaction) and shows every problem with its line and field.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from fastapi import APIRouter, Depends, File, Form, Request, UploadFile
from fastapi.responses import RedirectResponse, Response

from benger.errors import InputError
from benger.judge import RUBRICS, load_rubric
from benger.judge._rubric import BUILTIN_RUBRICS
from benger.schema import FalloesungTask
from benger.study import StudyError
from benger.web._i18n import message
from benger.web._render import lang_of
from benger.web._security import check_csrf
from benger.web.access import OrgScope
from benger.web.workbench._common import CorporaReading, CorporaWriting, flash, page, page_number
from benger.web.workbench._upload import MAX_UPLOAD, UploadError, UploadProblem, problems_of, read_upload, safe_name

router = APIRouter(prefix="/orgs/{org_id}")


def _corpora_page(request: Request, scope: OrgScope, status_code: int = 200, **context: object) -> Response:
    return page(request, "corpora.html", scope, status_code, corpora=scope.corpora(), **context)


def _refusal(request: Request, exc: Exception, file: str) -> list[UploadProblem]:
    if isinstance(exc, UploadError):
        return exc.problems
    if isinstance(exc, StudyError):
        return [UploadProblem(file, message(exc, lang_of(request)))]
    assert isinstance(exc, InputError)
    return problems_of(exc, [], file)


@router.get("/corpora")
def corpora_page(request: Request, scope: CorporaReading) -> Response:
    return _corpora_page(request, scope)


@router.post("/corpora", dependencies=[Depends(check_csrf)])
async def corpora_upload(
    request: Request, scope: CorporaWriting, file: UploadFile = File(...), replace: str = Form("")
) -> Response:
    """Import the uploaded corpus file or release archive; on any problem nothing is stored (422, the problems
    listed with line and field)."""
    name = file.filename or ""
    data = await file.read(MAX_UPLOAD + 1)
    try:
        name = safe_name(name)
        corpora = read_upload(name, data)
        changes = scope.import_corpora(corpora, replace=replace == "1", source=name)
    except (UploadError, InputError) as exc:
        name = exc.file if isinstance(exc, UploadError) else name
        return _corpora_page(request, scope, 422, upload=name, problems=_refusal(request, exc, name))
    flash(request, "Importiert: {what}", what=", ".join(f"{c.corpus} ({c.tasks})" for c in changes))
    return RedirectResponse(f"/orgs/{scope.org_id}/corpora", status_code=303)


@router.get("/corpora/{label}")
def corpus_page(request: Request, scope: CorporaReading, label: str) -> Response:
    info = scope.corpus(label)
    number = page_number(request.query_params.get("page", "1"))
    tasks, pages = scope.tasks(label, number)
    return page(
        request,
        "corpus.html",
        scope,
        corpus=info,
        tasks=tasks,
        page=min(number, pages),
        pages=pages,
        rubrics=scope.rubrics(),
        builtins=RUBRICS.names(),
        paper_rubrics=BUILTIN_RUBRICS,
    )


@router.get("/corpora/{label}/tasks/{task_id}")
def task_page(request: Request, scope: CorporaReading, label: str, task_id: str) -> Response:
    task = scope.task(label, task_id)
    return page(
        request, "task.html", scope, corpus=scope.corpus(label), task=task, is_case=isinstance(task, FalloesungTask)
    )


@router.post("/corpora/{label}/rubric", dependencies=[Depends(check_csrf)])
def corpus_rubric(request: Request, scope: CorporaWriting, label: str, rubric: str = Form("")) -> Response:
    scope.attach_rubric(label, rubric)
    flash(request, "Die Rubrik ist zugeordnet.")
    return RedirectResponse(f"/orgs/{scope.org_id}/corpora/{label}", status_code=303)


def _rubrics_page(request: Request, scope: OrgScope, status_code: int = 200, **context: object) -> Response:
    return page(request, "rubrics.html", scope, status_code, rubrics=scope.rubrics(), **context)


@router.get("/rubrics")
def rubrics_page(request: Request, scope: CorporaReading) -> Response:
    return _rubrics_page(request, scope)


@router.post("/rubrics", dependencies=[Depends(check_csrf)])
async def rubrics_upload(request: Request, scope: CorporaWriting, file: UploadFile = File(...)) -> Response:
    """Keep an uploaded rubric (YAML) after the rubric loader's checks; 422 with the faulty field otherwise."""
    try:
        name = safe_name(file.filename or "")
    except UploadError as exc:
        return _rubrics_page(request, scope, 422, upload=exc.file, problems=exc.problems)
    data = await file.read(MAX_UPLOAD + 1)
    with tempfile.TemporaryDirectory(prefix="benger-rubric-") as temp:
        path = Path(temp) / name
        path.write_bytes(data[:MAX_UPLOAD])
        try:
            rubric = load_rubric(path)
        except InputError as exc:
            problems = problems_of(exc, [(str(path), name)], name)
            return _rubrics_page(request, scope, 422, upload=name, problems=problems)
    ref = scope.add_rubric(rubric, name)
    flash(request, "Rubrik {rubric} gespeichert.", rubric=rubric.id)
    return RedirectResponse(f"/orgs/{scope.org_id}/rubrics/{ref}", status_code=303)


@router.get("/rubrics/{ref}")
def rubric_page(request: Request, scope: CorporaReading, ref: int) -> Response:
    return page(request, "rubric.html", scope, ref=ref, rubric=scope.rubric(ref))
