"""Native Anthropic and Google providers: over HTTP against the stub, plus the response mapping."""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import pytest
from google.genai import types
from llm_test_helpers import FAST_POLICY

from benger.errors import ConfigError, MissingDependencyError
from benger.llm import ChatMessage, ChatRequest, ContentFilterError, PermanentError, create_model
from benger.llm._google import map_generate_response
from benger.schema import SystemConfig
from benger.testing import run_stub_server

SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string", "enum": ["Ja", "Nein"]}, "reasoning": {"type": "string"}},
    "required": ["answer", "reasoning"],
}
REQUEST = ChatRequest(
    messages=[
        ChatMessage(role="system", content="Du bist eine Juristin."),
        ChatMessage(role="user", content="Ist der Vertrag wirksam?"),
    ],
    json_schema=SCHEMA,
    schema_name="antwort",
    max_tokens=500,
)


def _system(provider: str, base_url: str) -> SystemConfig:
    return SystemConfig(
        name=f"{provider}-stub",
        provider=provider,
        model=f"{provider}-model",
        base_url=base_url,
        temperature=1.0,
        price_in_per_mtok=3.0,
        price_out_per_mtok=15.0,
    )


@pytest.mark.parametrize("provider", ["anthropic", "google"])
async def test_native_provider_against_stub(provider: str) -> None:
    seen: list[dict[str, Any]] = []

    def capture(request: dict[str, Any]) -> str:
        seen.append(request)
        return json.dumps({"answer": "Nein", "reasoning": "Es fehlt an einer Annahme."})

    with run_stub_server(responder=capture, faults={"wirksam": ["429:0.5"]}) as stub:
        model = create_model(_system(provider, stub.root_url), policy=FAST_POLICY)
        started = time.perf_counter()
        response = await model.complete(REQUEST)
        elapsed = time.perf_counter() - started
        await model.aclose()
    assert json.loads(response.text) == {"answer": "Nein", "reasoning": "Es fehlt an einer Annahme."}
    assert response.finish_reason == "stop"
    assert response.retries == 1 and elapsed >= 0.5  # the 429's Retry-After of 0.5 s was honoured
    # prompt "Du bist eine Juristin." + "Ist der Vertrag wirksam?" = 8 words -> ceil(10.4) = 11 tokens;
    # reply JSON '{"answer": "Nein", "reasoning": "Es fehlt an einer Annahme."}' = 8 words -> 11 tokens
    assert (response.usage.input_tokens, response.usage.output_tokens) == (11, 11)
    assert response.cost_usd == pytest.approx((11 * 3.0 + 11 * 15.0) / 1e6)
    request = seen[-1]
    # the system prompt travelled in the provider's own field and arrived as the first message
    assert request["messages"][0] == {"role": "system", "content": "Du bist eine Juristin."}
    assert request["response_format"]["json_schema"]["schema"] == SCHEMA
    assert request["max_tokens"] == 500


async def test_anthropic_maps_truncation_and_errors() -> None:
    with run_stub_server(faults={"kaputt": ["403"]}) as stub:
        model = create_model(_system("anthropic", stub.root_url), policy=FAST_POLICY)
        long = await model.complete(
            ChatRequest(messages=[ChatMessage(role="user", content="Falllösung")], max_tokens=13)
        )
        with pytest.raises(PermanentError) as info:
            await model.complete(ChatRequest(messages=[ChatMessage(role="user", content="kaputt")]))
        await model.aclose()
    assert long.finish_reason == "length" and long.truncated
    assert len(long.text.split()) == 10  # 13 tokens / 1.3 = 10 words
    assert info.value.status == 403


def test_google_mapping_of_filters_thoughts_and_usage() -> None:
    response = types.GenerateContentResponse(
        candidates=[
            types.Candidate(
                content=types.Content(
                    role="model", parts=[types.Part(text="Überlegung", thought=True), types.Part(text="Antwort")]
                ),
                finish_reason=types.FinishReason.MAX_TOKENS,
            )
        ],
        usage_metadata=types.GenerateContentResponseUsageMetadata(
            prompt_token_count=40, candidates_token_count=7, thoughts_token_count=100
        ),
    )
    mapped = map_generate_response(response)
    assert mapped.text == "Antwort"  # thought parts are not part of the answer
    assert mapped.finish_reason == "length" and mapped.truncated
    # thinking tokens are billed as output: 7 + 100 = 107
    assert (mapped.usage.input_tokens, mapped.usage.output_tokens) == (40, 107)

    unsafe = types.GenerateContentResponse(
        candidates=[types.Candidate(content=types.Content(role="model", parts=[]), finish_reason="SAFETY")]
    )
    assert map_generate_response(unsafe).refusal
    assert map_generate_response(unsafe).finish_reason == "content_filter"

    blocked = types.GenerateContentResponse(
        candidates=[],
        prompt_feedback=types.GenerateContentResponsePromptFeedback(block_reason=types.BlockedReason.SAFETY),
    )
    with pytest.raises(ContentFilterError, match="prompt blocked"):
        map_generate_response(blocked)


def test_native_providers_need_keys_for_remote_endpoints(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("GEMINI_API_KEY", raising=False)
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        create_model(SystemConfig(name="opus", provider="anthropic", model="claude-opus-4-7"))
    with pytest.raises(ConfigError, match="GEMINI_API_KEY"):
        create_model(SystemConfig(name="gemini", provider="google", model="gemini-3.1-pro-preview"))


async def test_google_rejects_unknown_params_with_a_config_error() -> None:
    with run_stub_server() as stub:
        system = _system("google", stub.root_url).model_copy(update={"params": {"temprature": 0.3}})
        model = create_model(system)
        with pytest.raises(ConfigError, match=r"invalid Gemini parameters.*temprature"):
            await model.complete(REQUEST)
        assert len(stub.log) == 0  # nothing was sent


def test_missing_optional_sdks_raise_missing_dependency(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)  # makes `import anthropic` fail like an absent package
    monkeypatch.setitem(sys.modules, "anthropic.resources.messages", None)
    monkeypatch.setitem(sys.modules, "google.genai", None)
    local = "http://127.0.0.1:9"
    with pytest.raises(MissingDependencyError, match=r"pip install 'benger\[anthropic\]'"):
        create_model(_system("anthropic", local))
    with pytest.raises(MissingDependencyError, match=r"pip install 'benger\[google\]'"):
        create_model(_system("google", local))


# issue 11, items 1 and 3: every provider maps reasoning and refusals the same way
# (provider, stub model behaviour, expected reasoning prefix or None, expected refusal source or None)
DIALECT_ROWS = [
    ("openai-compatible", "reasoning", "Erst ein Entwurf", None),
    ("anthropic", "reasoning", "Erst ein Entwurf", None),
    ("google", "reasoning", "Erst ein Entwurf", None),
    ("openai-compatible", "refusal", None, "provider"),
    ("anthropic", "refusal", None, "provider"),
    ("google", "refusal", None, "provider"),
    ("openai-compatible", "content_filter", None, "content_filter"),
]


@pytest.mark.parametrize(("provider", "behaviour", "reasoning", "refused"), DIALECT_ROWS)
async def test_reasoning_and_refusal_in_every_dialect(
    provider: str, behaviour: str, reasoning: str | None, refused: str | None
) -> None:
    from benger.llm import detect_refusal, read_json_reply

    def answer(request: dict[str, Any]) -> str:
        return json.dumps({"answer": "Nein", "reasoning": "Es fehlt an einer Annahme."})

    with run_stub_server(responder=answer) as stub:
        url = stub.base_url if provider == "openai-compatible" else stub.root_url
        system = _system(provider, url).model_copy(update={"model": f"m+{behaviour}"})
        model = create_model(system, policy=FAST_POLICY)
        response = await model.complete(REQUEST)
        await model.aclose()
    found = detect_refusal(response)
    assert (found.source if found else None) == refused
    if reasoning is not None:
        assert response.reasoning is not None and response.reasoning.startswith(reasoning)
        assert '"Ja"' in response.reasoning  # the stub's draft flips the answer
        assert read_json_reply(response.text, lambda d: d["answer"], reasoning=response.reasoning).value == "Nein"
