"""A small asyncio HTTP/1.1 server (keep-alive, Content-Length bodies) for the stub: fast and dependency-free."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any


@dataclass
class HttpResponse:
    """A response; ``body=None`` means: send nothing and close the connection (a simulated hang-up)."""

    status: int = 200
    body: bytes | None = b""
    headers: dict[str, str] = field(default_factory=dict)
    #: send the body in pieces at this rate (bytes per second; None: at once)
    trickle_bytes_per_s: float | None = None

    @classmethod
    def json(cls, payload: Any, status: int = 200, headers: dict[str, str] | None = None) -> HttpResponse:
        body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        return cls(status, body, {"Content-Type": "application/json", **(headers or {})})


Handler = Callable[[str, str, dict[str, str], bytes], Awaitable[HttpResponse]]

MAX_BODY = 64 * 1024 * 1024


def _encode(response: HttpResponse, keep_alive: bool) -> bytes:
    body = response.body or b""
    try:
        reason = HTTPStatus(response.status).phrase
    except ValueError:
        reason = "Status"
    lines = [f"HTTP/1.1 {response.status} {reason}"]
    headers = {**response.headers, "Content-Length": str(len(body))}
    headers["Connection"] = "keep-alive" if keep_alive else "close"
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


class HttpServer:
    """Serves ``handler(method, path, headers, body)`` on host:port (port 0 picks a free port)."""

    def __init__(self, handler: Handler, host: str = "127.0.0.1", port: int = 0) -> None:
        self._handler = handler
        self.host = host
        self.port = port
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._on_connection, self.host, self.port, backlog=1024)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for task in list(self._connections):
            task.cancel()
        for task in list(self._connections):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)

    async def _on_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._connections.add(task)
        try:
            await self._serve(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            if task is not None:
                self._connections.discard(task)
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            request_line = await reader.readline()
            if not request_line:
                return
            parts = request_line.decode("latin-1").split()
            if len(parts) != 3:
                writer.write(_encode(HttpResponse.json({"error": "bad request line"}, 400), False))
                await writer.drain()
                return
            method, path, version = parts
            headers: dict[str, str] = {}
            while True:
                line = await reader.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                name, _, value = line.decode("latin-1").partition(":")
                headers[name.strip().lower()] = value.strip()
            if "chunked" in headers.get("transfer-encoding", "").lower():
                writer.write(_encode(HttpResponse.json({"error": "chunked bodies are not supported"}, 411), False))
                await writer.drain()
                return
            length = int(headers.get("content-length", "0") or 0)
            if length > MAX_BODY:
                writer.write(_encode(HttpResponse.json({"error": "body too large"}, 413), False))
                await writer.drain()
                return
            body = await reader.readexactly(length) if length else b""
            response = await self._handler(method, path, headers, body)
            if response.body is None:
                return
            keep_alive = headers.get("connection", "").lower() != "close" and version == "HTTP/1.1"
            data = _encode(response, keep_alive)
            if response.trickle_bytes_per_s:
                await _trickle(writer, data, response.trickle_bytes_per_s)
            else:
                writer.write(data)
            await writer.drain()
            if not keep_alive:
                return


async def _trickle(writer: asyncio.StreamWriter, data: bytes, rate: float) -> None:
    """Write ``data`` in pieces of 1/4 s at ``rate`` bytes per second (headers first, at once)."""
    head, sep, body = data.partition(b"\r\n\r\n")
    writer.write(head + sep)
    await writer.drain()
    step = max(1, int(rate / 4))
    for start in range(0, len(body), step):
        writer.write(body[start : start + step])
        await writer.drain()
        await asyncio.sleep(step / rate)
