"""The FastAPI app of the human study: server-rendered German pages, signed session cookies, CSRF on every form.

Every response carries the security headers of ``SECURITY_HEADERS`` and ``Cache-Control: no-store``
(static files excepted): pages show reference solutions, solutions and reviews, which a shared computer's
Back button must not show after logout. Every error reaches a browser as a German (or English) HTML page,
a script (``Accept: application/json`` or an autosave) as JSON; messages go through the i18n table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable

from fastapi import Depends, FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware

from benger.errors import InputError
from benger.store import Store
from benger.study import AlreadySubmitted, DraftConflict, RateLimited, StudyError, WrongState, expire_overdue
from benger.study._accounts import secret_key
from benger.web import _admin, _auth, _grading, _participant
from benger.web._body_limit import DEFAULT_MAX_BODY, BodyLimit, BodyTooLarge
from benger.web._i18n import message, translator
from benger.web._policy import Forbidden, LoginRequired
from benger.web._render import HERE, lang_of, render
from benger.web._requests import SECURITY_HEADERS
from benger.web._security import CsrfError
from benger.web.access import account_principal
from benger.web.runs import RunLauncher
from benger.web.runs import router as runs_router
from benger.web.validations import ValidationLauncher
from benger.web.validations import router as validations_router
from benger.web.viewer import mount_static as mount_viewer_static
from benger.web.viewer import router as viewer_router
from benger.web.workbench import ROUTERS as WORKBENCH_ROUTERS

#: Every router of the app (the authorization tests walk their routes); the results viewer is for organisers, the
#: workbench (/orgs, runs included) for the members of each organisation.
ROUTERS = (
    _auth.router,
    _participant.router,
    _grading.router,
    _admin.router,
    _admin.study_router,
    viewer_router,
    *WORKBENCH_ROUTERS,
    runs_router,
    validations_router,
)
SESSION_COOKIE = "benger_session"
_LOG = logging.getLogger(__name__)
_HTTP_MESSAGES = {
    404: "Diese Seite gibt es nicht.",
    405: "Diese Aktion ist hier nicht möglich.",
}


#: Database ids are signed 64-bit integers on every backend.
MAX_ID = 2**63 - 1


def ids_in_range(request: Request) -> None:
    """Every route: an ``int`` path parameter outside the 64-bit range (``/studies/99999999999999999999``)
    names nothing that can exist: 404, before a handler hands it to the database (which raised: HTTP 500)."""
    route = request.scope.get("route")
    for name in int_path_params(route.dependant) if isinstance(route, APIRoute) else set():
        text = str(request.path_params.get(name, "")).lstrip("+-")
        if text.isdigit() and int(text) > MAX_ID:
            raise HTTPException(404)


def int_path_params(dependant: Dependant) -> set[str]:
    """The names of a route's ``int`` path parameters, its own and those of its dependencies (``org_id`` is
    taken by ``org_access``'s dependency, not by the route's function)."""
    found = {param.name for param in dependant.path_params if param.field_info.annotation is int}
    for sub in dependant.dependencies:
        found |= int_path_params(sub)
    return found


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "") or request.url.path.endswith("/draft")


def create_app(
    store: Store,
    *,
    secure_cookies: bool = False,
    sweep_every_s: float | None = None,
    run_executor: str = "local",
    max_body_bytes: int = DEFAULT_MAX_BODY,
) -> FastAPI:
    """The web app on ``store``; ``sweep_every_s`` runs ``expire_overdue`` periodically (benger serve does);
    ``run_executor``: where runs launched from the browser make their calls (``local``: threads of this server;
    ``celery``: ``benger worker`` processes); ``max_body_bytes``: the largest request body taken (413 above)."""

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(_sweep(store, sweep_every_s)) if sweep_every_s else None
        yield
        if task is not None:
            task.cancel()

    app = FastAPI(
        title="BenGER Studie",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        dependencies=[Depends(ids_in_range)],
    )
    app.state.store = store
    app.state.accounts = account_principal  # who asks: the logged-in account (benger.web._requests.principal_of)
    app.state.run_launcher = RunLauncher(store, run_executor)
    app.state.run_launcher.recover()  # runs left active by a stopped server: interrupted (resume continues)
    app.state.validation_launcher = ValidationLauncher(store, run_executor)
    app.state.validation_launcher.recover()
    with store.session() as session:
        key = secret_key(session)
    app.state.secret_key = key
    # innermost of the app's own middleware: the routes read the body through it (BaseHTTPMiddleware between
    # would turn its 413 into an exception group, and FastAPI that into a 400)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    app.add_middleware(
        SessionMiddleware,
        secret_key=key,
        session_cookie=SESSION_COOKIE,
        same_site="lax",
        https_only=secure_cookies,
        max_age=12 * 60 * 60,
    )
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    mount_viewer_static(app)

    @app.middleware("http")
    async def _headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        response.headers.update(SECURITY_HEADERS)
        if not request.url.path.startswith("/static/"):
            response.headers["Cache-Control"] = "no-store"
        return response

    @app.exception_handler(LoginRequired)
    async def _login(request: Request, _exc: LoginRequired) -> Response:
        if _wants_json(request):
            return JSONResponse({"error": "Anmeldung erforderlich"}, status_code=401)
        return RedirectResponse("/login", status_code=303)

    @app.exception_handler(Forbidden)
    async def _forbidden(request: Request, _exc: Forbidden) -> Response:
        return render(request, "error.html", 403, message="Keine Berechtigung für diese Seite.")

    @app.exception_handler(PermissionError)
    async def _not_yours(request: Request, _exc: PermissionError) -> Response:
        return render(request, "error.html", 403, message="Keine Berechtigung für diesen Eintrag.")

    @app.exception_handler(CsrfError)
    async def _csrf(request: Request, _exc: CsrfError) -> Response:
        if _wants_json(request):
            return JSONResponse({"error": "CSRF-Token fehlt oder ist ungültig"}, status_code=403)
        return render(request, "error.html", 403, message="Das Formular ist abgelaufen (CSRF). Bitte neu laden.")

    @app.exception_handler(InputError)
    async def _input(request: Request, exc: InputError) -> Response:
        # 409: already submitted or the study moved on (the page must reload); 422: fix the input, try again
        status = 409 if isinstance(exc, AlreadySubmitted | WrongState | DraftConflict) else 422
        status = 429 if isinstance(exc, RateLimited) else status
        text = message(exc, lang_of(request)) if isinstance(exc, StudyError) else exc.reason
        if _wants_json(request):
            return JSONResponse({"error": text, "field": exc.field}, status_code=status)
        return render(request, "error.html", status, message=text)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> Response:
        fields = sorted({str(e.get("loc", ("", "?"))[-1]) for e in exc.errors()})
        text = message(StudyError("Ungültige Angabe in: {fields}", fields=", ".join(fields)), lang_of(request))
        if _wants_json(request):
            return JSONResponse({"error": text, "field": fields[0] if fields else None}, status_code=422)
        return render(request, "error.html", 422, message=text)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        text = translator(lang_of(request))(_HTTP_MESSAGES.get(exc.status_code, "Die Anfrage ist fehlgeschlagen."))
        text = exc.detail if isinstance(exc, BodyTooLarge) else text
        if _wants_json(request):
            return JSONResponse({"error": text}, status_code=exc.status_code, headers=exc.headers)
        return render(request, "error.html", exc.status_code, message=text)

    for router in ROUTERS:
        app.include_router(router)
    return app


async def _sweep(store: Store, every_s: float) -> None:
    """Auto-submit overdue drafts every ``every_s`` seconds; a failed round is logged and retried."""
    while True:
        await asyncio.sleep(every_s)
        try:
            await asyncio.to_thread(expire_overdue, store)
        except Exception:
            _LOG.exception("auto-submit sweep failed")
