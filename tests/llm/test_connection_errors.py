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


class InternalServerError(Exception):
    """Shaped like litellm's: what it raises for a refused connection too (``status_code`` 500)."""

    status_code = 500


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
        (_chained(InternalServerError("Connection error."), ConnectionRefusedError(111, "Connect call failed")),
         "connection failed (InternalServerError from ConnectionRefusedError"),
        (InternalServerError("upstream failed"), "HTTP 500: upstream failed"),  # a server's own 500: a status
        (_chained(InternalServerError("upstream failed"), ValueError("bad JSON")), "HTTP 500: upstream failed"),
    ],
)  # fmt: skip
def test_sdk_errors_name_what_happened(error: BaseException, expected: str) -> None:
    mapped = map_sdk_error(error, "p")
    assert isinstance(mapped, TransientError) and expected in str(mapped)


# (provider, model, params): every SDK path benger calls an OpenAI-compatible server through
PATHS = [
    ("openai-compatible", "m", {}),  # the openai SDK over aiohttp: APITimeoutError
    ("openai-compatible", "m", {"http_client": "httpx"}),  # over httpx: APIConnectionError
    ("litellm", "openai/m", {}),  # litellm's openai route: InternalServerError, status 500
    ("litellm", "hosted_vllm/m", {}),  # litellm's own aiohttp handler: the same
]


@pytest.mark.parametrize(("provider", "model", "params"), PATHS, ids=[f"{p}-{m}-{len(q)}" for p, m, q in PATHS])
def test_a_refused_connection_is_named_so_on_every_path(provider: str, model: str, params: dict[str, str]) -> None:
    """Before: litellm's paths stored "HTTP 500: ... Connection error." (found with a run at a wrong port)."""
    if provider == "litellm":
        from benger.llm._litellm import litellm_installed

        if not litellm_installed():
            pytest.skip("the litellm extra (pip install 'benger[litellm]')")
    system = SystemConfig(
        name="dead", provider=provider, model=model, base_url=f"http://127.0.0.1:{_free_port()}/v1", params=params
    )

    async def call() -> None:
        model = create_model(system, policy=RetryPolicy(max_retries=0))
        try:
            await model.complete(ChatRequest(messages=[ChatMessage(role="user", content="x")]))
        finally:
            await model.aclose()

    with pytest.raises(TransientError, match="connection failed") as caught:
        asyncio.run(call())
    assert "timed out" not in str(caught.value) and "HTTP" not in str(caught.value), caught.value
