"""``provider: litellm`` (issue 30 item 8) through the real litellm library against the stub's server dialects:
the same negotiation, usage, rate-limit and overflow behaviour as ``openai-compatible``, and keys checked before
any call.

Before: litellm answered a server on this machine without OPENAI_API_KEY with "Missing credentials" as an HTTP
500 on every call (retried 4 times, every item failed), a missing key anywhere was found per call, and every
exception printed litellm's "Give Feedback / Get Help" banner.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benger.llm._litellm import litellm_installed

if not litellm_installed():  # not importorskip: an import of litellm outside benger's fetches its price map
    pytest.skip("the litellm extra (pip install 'benger[litellm]')", allow_module_level=True)

from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.errors import ConfigError
from benger.llm import ChatMessage, ChatRequest, ContextOverflowError, RetryPolicy, create_model
from benger.llm._context import forget_probes
from benger.llm._structured import forget
from benger.schema import SystemConfig
from benger.testing import Dialect, run_stub_server

pytestmark = pytest.mark.slow  # importing litellm takes seconds
KEYS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY", "DEEPINFRA_API_KEY", "MY_KEY")
SCHEMA = {
    "type": "object",
    "properties": {"answer": {"type": "string", "enum": ["Ja", "Nein"]}},
    "required": ["answer"],
}


@pytest.fixture(autouse=True)
def _clean(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for key in KEYS:
        monkeypatch.delenv(key, raising=False)
    forget()
    forget_probes()
    yield
    forget()
    forget_probes()


def _system(url: str | None, model: str = "openai/m", **fields: Any) -> SystemConfig:
    return SystemConfig(name="lt", provider="litellm", model=model, base_url=url, **fields)


def _ask(i: int = 0, words: int = 0) -> ChatRequest:
    text = f"Frage {i}: Ja oder Nein?" + " lang" * words
    return ChatRequest(messages=[ChatMessage(role="user", content=text)], json_schema=SCHEMA)


# (litellm model, base_url, api_key_env, the variable(s) the message names): litellm's own knowledge of its
# providers, asked before any call
MISSING = [
    ("openai/gpt-5.4-mini", None, None, "OPENAI_API_KEY"),
    ("anthropic/claude-opus-4-7", None, None, "ANTHROPIC_API_KEY"),
    ("gemini/gemini-3.1-pro-preview", None, None, "GOOGLE_API_KEY or GEMINI_API_KEY"),
    ("deepinfra/deepseek-ai/DeepSeek-V4-Pro", None, None, "DEEPINFRA_API_KEY"),
    ("openai/m", "https://gateway.example/v1", None, "OPENAI_API_KEY"),
    ("openai/m", "https://gateway.example/v1", "MY_KEY", "MY_KEY"),
    ("openai/m", "http://127.0.0.1:9/v1", "MY_KEY", "MY_KEY"),  # named explicitly: needed even on this machine
]


@pytest.mark.parametrize(("model", "url", "env", "named"), MISSING)
def test_a_missing_key_is_a_config_error_naming_litellms_variable(
    model: str, url: str | None, env: str | None, named: str
) -> None:
    with pytest.raises(ConfigError, match=f"needs an API key: set the environment variable {named}$"):
        create_model(_system(url, model, api_key_env=env))


@pytest.mark.parametrize(
    ("model", "url"), [("openai/m", "http://127.0.0.1:9/v1"), ("ollama/qwen3", "http://gpu-box:11434")]
)
def test_servers_that_need_no_key_are_built(model: str, url: str) -> None:
    assert create_model(_system(url, model)).provider == "litellm"


def test_a_key_given_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KEY", "k-1")
    assert create_model(_system("https://gateway.example/v1", api_key_env="MY_KEY"))._api_key == "k-1"


async def test_negotiation_usage_and_no_banner_against_the_stub(capfd: pytest.CaptureFixture[str]) -> None:
    """llama-cpp-python's dialect behind litellm: json_schema refused once with HTTP 500, then json_object with the
    schema for every call; no usage: estimated counts, never 0."""
    seen: list[dict[str, Any]] = []

    def answer(request: dict[str, Any]) -> str:
        seen.append(request)
        return '{"answer": "Ja"}'

    with run_stub_server(responder=answer, dialect=Dialect(refuse_formats={"json_schema": 500}, usage=False)) as stub:
        model = create_model(_system(stub.base_url), policy=RetryPolicy(max_retries=3))
        replies = [await model.complete(_ask(i)) for i in range(3)]
        statuses = [e["status"] for e in stub.log]
    assert statuses == [500, 200, 200, 200]  # the refused form is never sent again
    assert all(json.loads(r.text) == {"answer": "Ja"} and r.retries == 0 for r in replies)
    assert {r.structured_output for r in replies} == {"json_object_schema"}
    assert all(r.usage.estimated and r.usage.output_tokens == 6 for r in replies)  # 16 characters / 3.16, up
    assert all(r["response_format"] == {"type": "json_object", "schema": SCHEMA} for r in seen)
    assert "Give Feedback" not in "".join(capfd.readouterr())


async def test_a_429_pauses_the_endpoint_and_nothing_fails() -> None:
    with run_stub_server(dialect=Dialect(rate_limit=3, retry_after=1)) as stub:
        model = create_model(_system(stub.base_url, max_concurrency=8), policy=RetryPolicy(max_retries=3))
        replies = await asyncio.gather(*(model.complete(_ask(i)) for i in range(12)))
        statuses = [e["status"] for e in stub.log]
    assert len(replies) == 12 and statuses.count(200) == 12 and 0 < statuses.count(429) < 12


async def test_an_overflow_is_a_context_overflow_and_not_retried() -> None:
    with run_stub_server(dialect=Dialect(context_window=50)) as stub:
        model = create_model(_system(stub.base_url, max_output_tokens=10), policy=RetryPolicy(max_retries=3))
        with pytest.raises(ContextOverflowError):
            await model.complete(_ask(0, words=60))
        assert [e["status"] for e in stub.log] == [400]


def test_litellm_on_the_command_line_end_to_end(tmp_path: Path) -> None:
    """``--model litellm/openai/NAME --model-base-url URL`` alone, system and judge: exit 0, every unit usable."""
    _register_commands()
    db = tmp_path / "s.db"
    with run_stub_server(dialect=Dialect(refuse_formats={"json_schema": 422})) as stub:
        result = CliRunner().invoke(
            app,
            ["run", "--model", "litellm/openai/stub", "--model-base-url", stub.base_url,
             "--judge-model", "litellm/openai/stub-judge", "--judge-model-base-url", stub.base_url,
             "--corpus", "demo", "--limit", "1", "--db", str(db), "-q"],
            env={"COLUMNS": "300"},
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "litellm/openai/stub" in result.output
