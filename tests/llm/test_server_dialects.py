"""Servers benger did not write (issue 30): structured-output negotiation, missing usage, shared rate limits,
deadlines. Each behaviour against the stub's dialects (real HTTP), never a mocked SDK."""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Iterator
from typing import Any

import pytest

from benger.llm import ChatMessage, ChatRequest, PermanentError, RetryPolicy, TransientError, create_model
from benger.llm._structured import forget, is_form_refusal
from benger.schema import SystemConfig
from benger.testing import Dialect, run_stub_server

SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string", "enum": ["Ja", "Nein"]}},
    "required": ["answer"],
}


@pytest.fixture(autouse=True)
def _fresh_negotiation() -> Iterator[None]:
    forget()
    yield
    forget()


def _system(url: str, **fields: Any) -> SystemConfig:
    return SystemConfig(name="srv", provider="openai-compatible", model="m", base_url=url, **fields)


def _ask(text: str = "Ist das so? Antworte mit Ja oder Nein.", **kw: Any) -> ChatRequest:
    return ChatRequest(messages=[ChatMessage(role="user", content=text)], json_schema=SCHEMA, **kw)


@pytest.mark.parametrize("status", [400, 422, 500])
async def test_a_refused_json_schema_is_a_capability_answer_asked_once_per_endpoint(status: int) -> None:
    seen: list[dict[str, Any]] = []

    def capture(request: dict[str, Any]) -> str:
        seen.append(request)
        return '{"answer": "Ja"}'

    with run_stub_server(responder=capture, dialect=Dialect(refuse_formats={"json_schema": status})) as stub:
        model = create_model(_system(stub.base_url))
        first = await model.complete(_ask())
        second = await model.complete(_ask("Noch eine Frage: Ja oder Nein?"))
        log = list(stub.log)
    assert first.structured_output == second.structured_output == "json_object_schema"
    assert json.loads(first.text) == {"answer": "Ja"} and first.retries == 0
    # one refused request in all (the first call's); the second call goes straight to the accepted form
    assert [e["status"] for e in log] == [status, 200, 200]
    assert all(r["response_format"] == {"type": "json_object", "schema": SCHEMA} for r in seen)


async def test_the_modes_step_down_to_the_prompt_and_the_schema_moves_into_it() -> None:
    seen: list[dict[str, Any]] = []

    def capture(request: dict[str, Any]) -> str:
        seen.append(request)
        return '{"answer": "Nein"}'

    refuse = {"json_schema": 500, "json_object_schema": 422, "json_object": 400}
    with run_stub_server(responder=capture, dialect=Dialect(refuse_formats=refuse)) as stub:
        reply = await create_model(_system(stub.base_url)).complete(_ask())
        statuses = [e["status"] for e in stub.log]
    assert reply.structured_output == "prompt" and statuses == [500, 422, 400, 200]
    assert "response_format" not in seen[0]
    assert json.dumps(SCHEMA, ensure_ascii=False) in seen[0]["messages"][-1]["content"]


async def test_a_forced_mode_the_server_refuses_is_one_permanent_error_naming_the_modes() -> None:
    dialect = Dialect(refuse_formats={"json_schema": 500})
    with run_stub_server(dialect=dialect) as stub:
        model = create_model(_system(stub.base_url, params={"structured_output": "json_schema"}))
        with pytest.raises(PermanentError, match=r"refused structured_output json_schema.*json_object_schema"):
            await model.complete(_ask())
        assert [e["status"] for e in stub.log] == [500]  # never retried: the form, not the moment, was wrong


def test_form_refusals_are_told_from_other_errors() -> None:
    assert is_form_refusal(500, "1 validation error: response_format.type Input should be 'text' or 'json_object'")
    assert is_form_refusal(400, "Unsupported value: 'json_schema'")
    assert not is_form_refusal(500, "internal server error")  # overload: transient, retried
    assert not is_form_refusal(429, "response_format")
    assert not is_form_refusal(400, "maximum context length is 8192 tokens; response_format json_schema")


async def test_a_reply_without_usage_gets_estimated_counts_never_zero() -> None:
    with run_stub_server(dialect=Dialect(usage=False)) as stub:
        model = create_model(_system(stub.base_url))
        reply = await model.complete(
            ChatRequest(messages=[ChatMessage(role="user", content="Schreibe eine Falllösung.")])
        )
        await model.aclose()
    assert reply.usage.estimated and len(reply.text.split()) > 300
    assert reply.usage.output_tokens == math.ceil(len(reply.text) / 3.16)  # characters / 3.16, rounded up
    assert reply.usage.input_tokens == math.ceil(len("Schreibe eine Falllösung.") / 3.16)


async def test_a_429_pauses_every_call_to_the_endpoint_and_nothing_fails() -> None:
    """5 requests a second, Retry-After 1: 40 calls 20 at a time all succeed, and after each 429 no new request
    reaches the server until the pause is over (before: each call waited alone and most items failed)."""
    with run_stub_server(dialect=Dialect(rate_limit=5, retry_after=1)) as stub:
        model = create_model(_system(stub.base_url, max_concurrency=20), policy=RetryPolicy(max_retries=3))
        replies = await asyncio.gather(*(model.complete(_ask(f"Frage {i}: Ja oder Nein?")) for i in range(40)))
        await model.aclose()
        log = list(stub.log)
    statuses = [e["status"] for e in log]
    assert len(replies) == 40 and statuses.count(200) == 40
    # the pause and the pace learnt from it keep the refusals to a fraction of the calls: without them every
    # call retried on its own and most of 40 calls at once were refused several times (benchmarks/bench_rate_limit.py)
    assert 0 < statuses.count(429) < 40, statuses.count(429)


async def test_requests_per_minute_is_honoured_by_a_plain_model() -> None:
    with run_stub_server(dialect=Dialect(rate_limit=5, retry_after=1)) as stub:
        model = create_model(_system(stub.base_url, requests_per_minute=120))  # 2 a second: under the limit
        started = time.monotonic()
        await asyncio.gather(*(model.complete(_ask(f"F{i}: Ja oder Nein?")) for i in range(8)))
        elapsed = time.monotonic() - started
        await model.aclose()
        statuses = [e["status"] for e in stub.log]
    assert statuses == [200] * 8 and elapsed >= 2.5  # a burst of 2, then one every 0.5 s


async def test_timeout_s_is_a_deadline_for_a_trickled_reply() -> None:
    with run_stub_server(dialect=Dialect(trickle_bytes_per_s=40)) as stub:
        model = create_model(_system(stub.base_url, params={"timeout_s": 1.5}), policy=RetryPolicy(max_retries=0))
        started = time.monotonic()
        with pytest.raises(TransientError, match=r"deadline of 1\.5 s"):
            await model.complete(_ask())
    assert time.monotonic() - started < 3.0


def test_the_fallback_notice_cuts_a_long_refusal_at_a_word(caplog: pytest.LogCaptureFixture) -> None:
    """The notice of a refused response_format ended mid-word (``'ctx': {'expecte)``, llama_cpp.server's
    pydantic error of 2,000 characters): it is cut at a word and says so."""
    from benger.llm._structured import next_mode

    endpoint = ("http://127.0.0.1:1/v1", "notice-test")
    forget(endpoint)
    detail = " ".join(f"word{i}" for i in range(400))
    with caplog.at_level("WARNING", logger="benger.llm._structured"):
        assert next_mode(endpoint, "json_schema", detail) == "json_object_schema"
    forget(endpoint)
    [record] = [r for r in caplog.records if "refused response_format" in r.getMessage()]
    shown = record.getMessage().split("(", 2)[2].rsplit(")", 1)[0]
    assert shown.endswith(" …") and len(shown) <= 200
    assert detail.startswith(shown.removesuffix(" …") + " ")  # whole words only
