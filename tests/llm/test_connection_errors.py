"""A refused or unreachable host is a failed connection, not a timeout (H3's hostile run: a run against port 9
stored "request timed out (APITimeoutError)" as the reason of every failed generation)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from benger.llm import ChatMessage, ChatRequest, RetryPolicy, TransientError, create_model
from benger.llm._errors import map_sdk_error
from benger.schema import SystemConfig


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])  # closed again: nothing listens there


class APITimeoutError(Exception):
    """Named like the SDK's: what it raises for a connect failure."""


def _chained(outer: BaseException, inner: BaseException) -> BaseException:
    try:
        try:
            raise inner
        except BaseException as exc:
            raise outer from exc
    except BaseException as caught:
        return caught


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (_chained(APITimeoutError("Request timed out."), ConnectionRefusedError(111, "Connect call failed")),
         "connection failed (APITimeoutError from ConnectionRefusedError"),
        (APITimeoutError("Request timed out."), "request timed out (APITimeoutError)"),
        (_chained(APITimeoutError("Request timed out."), TimeoutError("read")), "request timed out (APITimeoutError)"),
        (ConnectionResetError("reset"), "connection failed (ConnectionResetError: reset)"),
    ],
)  # fmt: skip
def test_sdk_errors_name_what_happened(error: BaseException, expected: str) -> None:
    mapped = map_sdk_error(error, "p")
    assert isinstance(mapped, TransientError) and expected in str(mapped)


def test_a_refused_connection_through_the_openai_provider() -> None:
    system = SystemConfig(
        name="dead", provider="openai-compatible", model="m", base_url=f"http://127.0.0.1:{_free_port()}/v1"
    )

    async def call() -> None:
        model = create_model(system, policy=RetryPolicy(max_retries=0))
        try:
            await model.complete(ChatRequest(messages=[ChatMessage(role="user", content="x")]))
        finally:
            await model.aclose()

    with pytest.raises(TransientError, match="connection failed") as caught:
        asyncio.run(call())
    assert "timed out" not in str(caught.value)
