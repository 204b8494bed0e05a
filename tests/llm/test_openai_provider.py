"""The OpenAI-compatible provider against the stub server over real HTTP."""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path
from typing import Any

import pytest
from llm_test_helpers import FAST_POLICY, ask

from benger.errors import ConfigError
from benger.llm import (
    ChatMessage,
    ChatRequest,
    PermanentError,
    RateLimitError,
    RetryPolicy,
    TransientError,
    create_model,
)
from benger.schema import SystemConfig
from benger.testing import StubServer, run_stub_server


def _system(base_url: str, **kwargs: Any) -> SystemConfig:
    values: dict[str, Any] = {
        "name": "stub-model",
        "provider": "openai-compatible",
        "model": "stub-1",
        "base_url": base_url,
    }
    values.update(kwargs)
    return SystemConfig(**values)


async def test_usage_finish_reason_latency_and_cost_recorded() -> None:
    with run_stub_server(latency_ms=100, responder=lambda req: "eins zwei drei vier") as stub:
        system = _system(stub.base_url, price_in_per_mtok=2.0, price_out_per_mtok=8.0)
        model = create_model(system)
        response = await model.complete(ask("a b c d e f g h i j"))
        await model.aclose()
    assert response.text == "eins zwei drei vier"
    assert response.finish_reason == "stop" and not response.truncated and not response.refusal
    # stub tokens = ceil(words * 1.3): prompt 10 words -> 13, reply 4 words -> ceil(5.2) = 6
    assert (response.usage.input_tokens, response.usage.output_tokens) == (13, 6)
    # (13 * 2.0 + 6 * 8.0) / 1e6 = 74e-6 USD
    assert response.cost_usd == pytest.approx(74e-6)
    assert 0.1 <= response.latency_s < 2.0
    assert response.retries == 0
    assert response.model == "stub-1"


async def test_unknown_prices_give_no_cost(stub: StubServer) -> None:
    model = create_model(_system(stub.base_url, price_in_per_mtok=1.0))
    response = await model.complete(ask("Hallo"))
    assert response.cost_usd is None  # the output price is unknown: no guess


async def test_429_retry_after_is_honoured() -> None:
    with run_stub_server(faults={"*": ["429:1.2"]}) as stub:
        model = create_model(_system(stub.base_url), policy=FAST_POLICY)
        started = time.perf_counter()
        response = await model.complete(ask("Kaufvertrag?"))
        elapsed = time.perf_counter() - started
        log = list(stub.log)
    assert response.retries == 1
    assert [e["status"] for e in log] == [429, 200]
    # the backoff alone would be 0.01 s; the server asked for 1.2 s
    assert elapsed >= 1.2
    assert log[1]["ts"] - log[0]["ts"] >= 1.2
    assert elapsed < 4.0


async def test_500_then_success_and_timeout_then_success() -> None:
    with run_stub_server(faults={"erste": ["500"], "zweite": ["timeout"], "dritte": ["badjson"]}) as stub:
        model = create_model(_system(stub.base_url), policy=FAST_POLICY)
        first = await model.complete(ask("erste Frage"))
        second = await model.complete(ask("zweite Frage", timeout_s=0.3))
        third = await model.complete(ask("dritte Frage"))
        statuses = [(e["fault"], e["status"]) for e in stub.log]
    assert (first.retries, second.retries, third.retries) == (1, 1, 1)
    assert statuses == [("500", 500), (None, 200), ("timeout", 0), (None, 200), ("badjson", 200), (None, 200)]


async def test_budget_exhausted_propagates_provider_error() -> None:
    with run_stub_server(faults={"*": ["500", "502", "503", "500", "500"]}) as stub:
        model = create_model(_system(stub.base_url), policy=FAST_POLICY)
        with pytest.raises(TransientError) as info:
            await model.complete(ask("Frage"))
        assert len(stub.log) == 4  # 1 attempt + budget of 3 retries
    assert info.value.retries == 3
    assert info.value.status == 500


async def test_400_is_not_retried() -> None:
    with run_stub_server(faults={"*": ["400"]}) as stub:
        model = create_model(_system(stub.base_url), policy=FAST_POLICY)
        with pytest.raises(PermanentError) as info:
            await model.complete(ask("Frage"))
        assert len(stub.log) == 1
    assert info.value.status == 400


async def test_429_without_budget_raises_rate_limit_error_with_retry_after() -> None:
    with run_stub_server(faults={"*": ["429:7"]}) as stub:
        model = create_model(_system(stub.base_url), policy=RetryPolicy(max_retries=0))
        with pytest.raises(RateLimitError) as info:
            await model.complete(ask("Frage"))
    assert info.value.retry_after == 7.0


async def test_refusal_content_filter_and_truncation_flags() -> None:
    with run_stub_server(faults={"filter": ["content_filter"], "weigern": ["refusal"]}) as stub:
        model = create_model(_system(stub.base_url))
        filtered = await model.complete(ask("filter mich"))
        refused = await model.complete(ask("weigern bitte"))
        truncated = await model.complete(ask("Schreibe eine Falllösung.", max_tokens=20))
    assert filtered.refusal and filtered.finish_reason == "content_filter" and filtered.text == ""
    assert refused.refusal and refused.raw is not None and refused.raw["refusal"]
    # 20 tokens / 1.3 = 15.4 -> the stub keeps 15 words and reports finish_reason "length"
    assert truncated.truncated and len(truncated.text.split()) == 15


async def test_structured_output_request_shape() -> None:
    seen: list[dict[str, Any]] = []

    def capture(request: dict[str, Any]) -> str:
        seen.append(request)
        return '{"answer": "Nein"}'

    schema = {"type": "object", "properties": {"answer": {"type": "string", "enum": ["Ja", "Nein"]}}}
    with run_stub_server(responder=capture) as stub:
        compatible = create_model(_system(stub.base_url, temperature=0.6, max_output_tokens=16000, seed=7))
        await compatible.complete(ChatRequest(messages=[ChatMessage(role="user", content="?")], json_schema=schema))
        openai = create_model(_system(stub.base_url, provider="openai", params={"reasoning_effort": "low"}))
        await openai.complete(ask("?", json_schema=schema, schema_name="antwort", max_tokens=123, temperature=0.1))
        plain = create_model(_system(stub.base_url, params={"structured_output": "json_object"}))
        await plain.complete(ask("?", json_schema=schema))
    first, second, third = seen
    assert first["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "response", "schema": schema, "strict": False},
    }
    # system defaults apply when the request does not set them
    assert (first["temperature"], first["max_tokens"], first["seed"]) == (0.6, 16000, 7)
    # api.openai.com gets max_completion_tokens; request values win; extra params pass through
    assert second["max_completion_tokens"] == 123 and "max_tokens" not in second
    assert second["temperature"] == 0.1 and second["reasoning_effort"] == "low"
    assert second["response_format"]["json_schema"]["name"] == "antwort"
    assert third["response_format"] == {"type": "json_object"}


async def test_api_key_never_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    secret = "sk-test-5e3b9f0c2d7a41"
    monkeypatch.setenv("BENGER_STUB_KEY", secret)
    caplog.set_level(logging.DEBUG)
    log_file = tmp_path / "requests.jsonl"
    with run_stub_server(faults={"kaputt": ["401"]}, request_log=log_file) as stub:
        model = create_model(_system(stub.base_url, api_key_env="BENGER_STUB_KEY"))
        response = await model.complete(ask("Hallo"))
        with pytest.raises(PermanentError) as info:
            await model.complete(ask("kaputt"))
    texts = [caplog.text, repr(model), str(model), response.model_dump_json(), str(info.value), log_file.read_text()]
    assert caplog.text  # the SDK did log at DEBUG, so the check below is meaningful
    assert all(secret not in text for text in texts)


def test_missing_api_key_names_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEEPINFRA_API_KEY", raising=False)
    remote = _system("https://api.deepinfra.com/v1/openai", api_key_env="DEEPINFRA_API_KEY")
    with pytest.raises(ConfigError, match="DEEPINFRA_API_KEY"):
        create_model(remote)
    # a server on this machine needs no key
    assert create_model(_system("http://127.0.0.1:9/v1")).name == "stub-model"


def test_unknown_provider_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown provider 'cohere'"):
        create_model(SystemConfig(name="x", provider="cohere", model="m"))
    with pytest.raises(ConfigError, match="needs a base_url"):
        create_model(SystemConfig(name="x", provider="openai-compatible", model="m"))


async def test_concurrency_limit_bounds_in_flight_requests() -> None:
    with run_stub_server(latency_ms=100) as stub:
        limited_a = create_model(_system(stub.base_url, name="a", max_concurrency=3))
        limited_b = create_model(_system(stub.base_url, name="b", max_concurrency=3))
        requests = [ask(f"Frage {i}") for i in range(12)]
        await asyncio.gather(*(m.complete(r) for m, r in zip([limited_a, limited_b] * 6, requests, strict=True)))
        limited_peak = stub.max_in_flight
    with run_stub_server(latency_ms=100) as stub:
        free = create_model(_system(stub.base_url, name="free"))
        await asyncio.gather(*(free.complete(r) for r in requests))
        free_peak = stub.max_in_flight
    # both models share one endpoint semaphore of 3 slots
    assert limited_peak == 3
    # without a limit (default 32) all 12 requests overlap at the stub
    assert free_peak == 12


def test_one_model_works_across_event_loops() -> None:
    """Semaphores are per event loop: the same model (and endpoint) can be used from two asyncio.run calls."""
    with run_stub_server(latency_ms=0) as stub:
        model = create_model(_system(stub.base_url, max_concurrency=2))
        first = asyncio.run(model.complete(ask("eins")))
        second = asyncio.run(model.complete(ask("zwei")))
    assert first.text and second.text and first.text != second.text


async def test_a_broken_responder_becomes_a_500() -> None:
    def broken(request: dict[str, Any]) -> str:
        raise KeyError("no such field")

    with run_stub_server(responder=broken) as stub:
        model = create_model(_system(stub.base_url), policy=RetryPolicy(max_retries=1, initial_wait=0.0))
        with pytest.raises(TransientError, match="responder failed: KeyError"):
            await model.complete(ask("Hallo"))
        assert [e["status"] for e in stub.log] == [500, 500]


async def test_http_client_choice_and_one_ssl_context(monkeypatch: pytest.MonkeyPatch) -> None:
    import ssl

    from openai import DefaultAioHttpClient, DefaultAsyncHttpxClient

    import benger.llm._openai as oa
    from benger.llm._openai import http_client, shared_ssl_context

    monkeypatch.setattr(oa, "_SSL_CONTEXTS", {})
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    aio, plain, again = http_client("aiohttp"), http_client("httpx"), http_client("aiohttp")
    assert isinstance(aio, DefaultAioHttpClient)  # the SDK's transport for many parallel calls
    assert isinstance(plain, DefaultAsyncHttpxClient) and not isinstance(plain, DefaultAioHttpClient)
    assert plain.timeout.read == aio.timeout.read == oa.DEFAULT_TIMEOUT_S and plain.follow_redirects
    # every client verifies with the process's one context, the SDK's own default (certificates and host names)
    context = shared_ssl_context(DefaultAioHttpClient)
    assert aio._transport.ssl_context is context and again._transport.ssl_context is context
    assert plain._transport._pool._ssl_context is context
    assert len(oa._SSL_CONTEXTS) == 1
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    ca_file = ssl.get_default_verify_paths().openssl_cafile
    monkeypatch.setenv("SSL_CERT_FILE", ca_file)  # the SDK honours it; so does the shared context
    other = shared_ssl_context(DefaultAioHttpClient)
    assert other is not context and shared_ssl_context(DefaultAioHttpClient) is other
    for client in (aio, plain, again):
        await client.aclose()
    with pytest.raises(ConfigError, match="http_client must be 'aiohttp' or 'httpx'"):
        http_client("requests")


async def test_both_http_clients_reach_the_stub() -> None:
    with run_stub_server(latency_ms=0) as stub:
        for kind in ("aiohttp", "httpx"):
            model = create_model(_system(stub.base_url, name=kind, params={"http_client": kind}))
            response = await model.complete(ask(f"Frage über {kind}"))
            assert response.text and response.finish_reason == "stop"
            await model.aclose()
    assert [entry["status"] for entry in stub.log] == [200, 200]
