"""The one request-body size limit of the web app, in the ASGI layer (outside every router).

A multipart upload is spooled by Starlette to a temporary file before a route sees it, so the routes' own
limit (``MAX_UPLOAD``) cannot keep a multi-GB POST off the disk. :class:`BodyLimit` refuses a request whose
``Content-Length`` is above the limit with 413 before any of the body is read, and counts the bytes of a body
sent without one (chunked), stopping with 413 as soon as the count passes the limit.
"""

from __future__ import annotations

import json
from html import escape

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from benger.web._i18n import translator
from benger.web._render import lang_of
from benger.web._requests import SECURITY_HEADERS

#: Default limit (bytes) of ``benger serve --max-body-mb``: above the upload routes' 64 MiB plus form overhead.
DEFAULT_MAX_BODY = 80 * 1024 * 1024
_TEXT = "Die Anfrage ist zu groß: höchstens {mib} MiB."


class BodyTooLarge(HTTPException):
    """Raised from ``receive`` when a streamed body passes the limit; ``detail`` names the limit in the UI
    language. An HTTPException, so that a route parsing a form lets it through (FastAPI turns other errors of
    the body into 400) and the app's error handler shows ``detail`` on its error page."""

    def __init__(self, text: str) -> None:
        super().__init__(413, detail=text)


def limit_text(scope: Scope, max_bytes: int) -> str:
    """The message of a refused body, in the request's UI language."""
    return translator(lang_of(Request(scope)))(_TEXT).format(mib=f"{max_bytes / 2**20:g}")


def _declared_length(scope: Scope) -> int | None:
    value = Headers(scope=scope).get("content-length", "")
    return int(value) if value.strip().isdigit() else None


class BodyLimit:
    """Pure ASGI middleware: HTTP request bodies of at most ``max_bytes`` bytes reach ``app``."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = _declared_length(scope)
        if declared is not None and declared > self.max_bytes:
            await self._refuse(scope, send)
            return
        seen = 0
        started = False

        async def counted() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.max_bytes:
                    raise BodyTooLarge(limit_text(scope, self.max_bytes))
            return msg

        async def watched(msg: Message) -> None:
            nonlocal started
            started = started or msg["type"] == "http.response.start"
            await send(msg)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if started:
                raise
            await self._refuse(scope, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        """413 with the limit named: JSON for a script (``Accept: application/json``), else a small page."""
        headers = Headers(scope=scope)
        lang = lang_of(Request(scope))
        text = limit_text(scope, self.max_bytes)
        if "application/json" in headers.get("accept", ""):
            body, kind = json.dumps({"error": text}).encode(), "application/json"
        else:
            page = f'<!doctype html><html lang="{lang}"><meta charset="utf-8"><title>413</title><p>{escape(text)}</p>'
            body, kind = page.encode(), "text/html; charset=utf-8"
        raw = [(k.lower().encode(), v.encode()) for k, v in {**SECURITY_HEADERS, "Cache-Control": "no-store"}.items()]
        raw += [
            (b"content-type", kind.encode()),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        await send({"type": "http.response.start", "status": 413, "headers": raw})
        await send({"type": "http.response.body", "body": body})
