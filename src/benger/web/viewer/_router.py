"""The viewer's routes (``/view/...``, GET and HEAD only) and the app of ``benger view``.

The router has ONE dependency, :func:`benger.web._requests.results_access` (``benger.web.access`` re-exports it):
under ``benger serve`` it admits organisers (every corpus) and the owners/organisers of workbench organisations
(their organisations' corpora only; anonymous: the login page; any other role: 403), under ``benger view`` the
app's fixed local principal.
Handlers receive the same :class:`~benger.web._policy.Access` and read only through a
:class:`~benger.web.viewer._reader.ResultsReader` built on it, or pass its ``corpora`` to the library.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles

from benger import __version__
from benger.store import Store
from benger.web._policy import Access, Principal
from benger.web._requests import SECURITY_HEADERS, ResultsAccess, results_access
from benger.web.viewer import _pages
from benger.web.viewer._browse_query import beyond_notice, parse_query, problems_title
from benger.web.viewer._kept import leaderboard_model, system_names_model, validation_model
from benger.web.viewer._links import PREFIX, Links
from benger.web.viewer._reader import FLAGS, BrowsePage, ResultsReader
from benger.web.viewer._render import HERE, LANGS, render

Handler = TypeVar("Handler", bound=Callable[..., Any])
router = APIRouter(prefix=PREFIX, dependencies=[Depends(results_access)])


def _page(path: str) -> Callable[[Handler], Handler]:
    """A page's route: GET and HEAD (the same status and headers; the server sends no body for HEAD)."""
    return router.api_route(path, methods=["GET", "HEAD"])


def _lang(request: Request) -> str:
    lang = request.query_params.get("lang") or request.cookies.get("lang") or "de"
    return lang if lang in LANGS else "de"


def _other_lang(request: Request, lang: str) -> str:
    params = {k: v for k, v in request.query_params.items() if k != "lang"}
    if lang == "de":
        params["lang"] = "en"
    query = urlencode(params)
    return request.url.path + (f"?{query}" if query else "")


def respond(request: Request, access: Access, page: _pages.Page, nav: str, status: int = 200, **extra: Any) -> Response:
    lang = _lang(request)
    html = render(
        page.template,
        lang,
        title=page.title,
        subtitle=extra.pop("subtitle", ""),
        links=Links(lang),
        nav=nav,
        other_lang=_other_lang(request, lang),
        source=access.store.url,
        version=__version__,
        systems=system_names_model(access),
        **page.context,
        **extra,
    )
    return HTMLResponse(html, status_code=status)


def _missing(request: Request, access: Access, message: str) -> Response:
    return respond(request, access, _pages.Page("error.html", "Seite nicht gefunden"), "", 404, message=message)


@_page("/")
def leaderboard_page(request: Request, access: ResultsAccess) -> Response:
    return respond(request, access, leaderboard_model(access), "leaderboard")


@_page("/browse")
def browse_page(request: Request, access: ResultsAccess) -> Response:
    """Browse: 400 (the page with its alert, no list) when a parameter cannot be a filter
    (:func:`~benger.web.viewer._browse_query.parse_query`); a page past the last shows the last with a notice."""
    lang = _lang(request)
    reader = ResultsReader(access)
    options = reader.options()
    f, problems = parse_query(request.query_params.multi_items(), options)
    notice, status = "", 200
    if problems:
        result, status = BrowsePage([], 0, 1, 1, f), 400
    else:
        asked = f.page
        result = reader.browse(f)
        notice = beyond_notice(asked, result.pages, lang) if asked > result.page else ""
    links = Links(lang)
    context = {"page": result, "options": options, "flags": FLAGS}
    return respond(
        request,
        access,
        _pages.Page("browse.html", "Lösungen", context),
        "browse",
        status,
        page_link=lambda n: links.browse(**f.params(page=n)),
        heading="",
        pairs=[],
        problems=[p.text(lang) for p in problems],
        problems_title=problems_title(lang),
        page_notice=notice,
    )


@_page("/solution")
def solution_page(request: Request, access: ResultsAccess, kind: str = "", id: str = "") -> Response:
    reader = ResultsReader(access)
    rec = reader.solution(kind, id)
    if rec is None:
        return _missing(request, access, "Diese Lösung gibt es nicht (oder sie gehört zu einer laufenden Studie).")
    others = []
    if rec.task is not None:
        others = [o for o in reader.task_solutions(rec.task.corpus, rec.task.task_id) if o[1] != rec.id]
    page = _pages.solution(access.store, rec, others)
    return respond(request, access, page, "browse", subtitle=f"{rec.system} · {rec.task.task_id if rec.task else ''}")


@_page("/compare")
def compare_page(
    request: Request, access: ResultsAccess, corpus: str = "", task: str = "", a: str = "", b: str = ""
) -> Response:
    reader = ResultsReader(access)
    record = access.store.get_task(task, corpus) if corpus in access.corpus_names() else None
    if record is None:
        return _missing(request, access, "Diese Aufgabe gibt es nicht.")
    solutions = reader.task_solutions(corpus, task)
    kinds = {sid: kind for kind, sid, _ in solutions}
    picked = [reader.solution(kinds[x], x) for x in (a, b) if x in kinds]
    page = _pages.compare(access.store, record, solutions, [p for p in picked if p is not None])
    return respond(request, access, page, "browse", chosen=(a, b), subtitle=task)


@_page("/validation")
def validation_page(request: Request, access: ResultsAccess) -> Response:
    page = _pages.validation(validation_model(access))
    return respond(request, access, page, "validation")


@_page("/errors")
def errors_page(request: Request, access: ResultsAccess) -> Response:
    return respond(request, access, _pages.errors(access.store, access.corpora), "errors", limit=25)


def mount_static(app: FastAPI) -> None:
    """Serve the viewer's CSS and script under ``/view/static`` (no login: they hold no data)."""
    app.mount(f"{PREFIX}/static", StaticFiles(directory=str(HERE / "static")), name="viewer-static")


def create_viewer_app(store: Store, principal: Principal) -> FastAPI:
    """The app of ``benger view``: the viewer router with a fixed principal, no accounts, GET and HEAD only."""
    app = FastAPI(title="BenGER viewer", docs_url=None, redoc_url=None, openapi_url=None)
    app.state.store = store
    app.state.principal = principal
    mount_static(app)

    @app.middleware("http")
    async def _headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def _home() -> Response:
        return RedirectResponse(f"{PREFIX}/", status_code=303)

    app.include_router(router)
    return app
