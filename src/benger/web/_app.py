"""The FastAPI app of the human study: server-rendered German pages, signed session cookies, CSRF on every form."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.sessions import SessionMiddleware

from benger.errors import InputError
from benger.store import Store
from benger.study import AlreadySubmitted, expire_overdue
from benger.study._accounts import secret_key
from benger.web import _admin, _auth, _grading, _participant
from benger.web._render import HERE, render
from benger.web._security import CsrfError, Forbidden, LoginRequired

#: Every router of the app (the authorization test walks their routes).
ROUTERS = (_auth.router, _participant.router, _grading.router, _admin.router)
SESSION_COOKIE = "benger_session"
_LOG = logging.getLogger(__name__)


def _wants_json(request: Request) -> bool:
    return "application/json" in request.headers.get("accept", "") or request.url.path.endswith("/draft")


def create_app(store: Store, *, secure_cookies: bool = False, sweep_every_s: float | None = None) -> FastAPI:
    """The web app on ``store``; ``sweep_every_s`` runs ``expire_overdue`` periodically (benger serve does)."""

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        task = asyncio.create_task(_sweep(store, sweep_every_s)) if sweep_every_s else None
        yield
        if task is not None:
            task.cancel()

    app = FastAPI(title="BenGER Studie", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.store = store
    with store.session() as session:
        key = secret_key(session)
    app.add_middleware(
        SessionMiddleware,
        secret_key=key,
        session_cookie=SESSION_COOKIE,
        same_site="lax",
        https_only=secure_cookies,
        max_age=12 * 60 * 60,
    )
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

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
        # 409: the thing is already submitted (the page must reload); 422: fix the input and try again
        status = 409 if isinstance(exc, AlreadySubmitted) else 422
        if _wants_json(request):
            return JSONResponse({"error": exc.reason, "field": exc.field}, status_code=status)
        return render(request, "error.html", status, message=exc.reason)

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
