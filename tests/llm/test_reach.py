"""``llm.endpoint_problem``: whether a server answers HTTP at a ``base_url``, against real sockets.

Each kind of place a ``base_url`` can point at, bound on this machine: a port nothing listens on (bound and
closed again), the stub server, a server answering 404 (an Anthropic/Gemini root), a port that accepts and
closes, one that answers something that is not HTTP, and one that accepts but does not answer in time (a busy
server: taken as there).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import pytest

from benger.llm._reach import endpoint_problem, endpoint_problems
from benger.testing import StubServer

Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def free_port() -> int:
    """A port nothing listens on: bound, then closed again."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _close_at_once(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.close()


async def _not_http(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    writer.write(b"SSH-2.0-OpenSSH_9.6\r\n")
    await writer.drain()
    writer.close()


async def _not_found(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await reader.readuntil(b"\r\n\r\n")
    writer.write(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
    await writer.drain()
    writer.close()


async def _silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    await asyncio.sleep(5)
    writer.close()


@asynccontextmanager
async def serving(handler: Handler) -> AsyncIterator[str]:
    server = await asyncio.start_server(handler, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/v1"
    finally:
        server.close()


# (what listens, a phrase of the problem; None: a server is there)
KINDS: list[tuple[str, str | None]] = [
    ("nothing", "connection refused (nothing listens on 127.0.0.1:"),
    ("stub", None),
    ("404", None),
    ("closes", "accepts connections but gives no HTTP reply"),
    ("not-http", "accepts connections but gives no HTTP reply"),
    ("silent", None),
]
HANDLERS: dict[str, Handler] = {"closes": _close_at_once, "not-http": _not_http, "404": _not_found, "silent": _silent}


@pytest.mark.parametrize(("kind", "phrase"), KINDS, ids=[k for k, _ in KINDS])
def test_what_listens_at_a_base_url(kind: str, phrase: str | None) -> None:
    async def ask() -> str | None:
        if kind == "nothing":
            return await endpoint_problem(f"http://127.0.0.1:{free_port()}/v1")
        if kind == "stub":
            stub = StubServer()
            await stub.start()
            try:
                return await endpoint_problem(stub.base_url)
            finally:
                await stub.stop()
        async with serving(HANDLERS[kind]) as url:
            return await endpoint_problem(url, timeout=0.5)

    problem = asyncio.run(ask())
    if phrase is None:
        assert problem is None
    else:
        assert problem is not None and phrase in problem, problem


def test_each_distinct_url_is_asked_once_and_only_the_dead_ones_are_named() -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"

    async def ask() -> dict[str, str]:
        stub = StubServer()
        await stub.start()
        try:
            return await endpoint_problems([stub.base_url, dead, stub.base_url, dead])
        finally:
            await stub.stop()

    problems = asyncio.run(ask())
    assert list(problems) == [dead] and "connection refused" in problems[dead]
