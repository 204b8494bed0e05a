"""Anthropic's native Messages API (optional ``anthropic`` SDK; imported lazily)."""

from __future__ import annotations

import inspect
import json
from typing import Any

from benger.errors import MissingDependencyError
from benger.llm._base import ProviderModel
from benger.llm._errors import TransientError, map_sdk_error
from benger.llm._openai import DEFAULT_TIMEOUT_S, resolve_api_key
from benger.llm._protocol import ChatRequest, ChatResponse, Usage
from benger.llm._retry import RetryPolicy
from benger.schema import SystemConfig

STOP_REASONS = {"end_turn": "stop", "stop_sequence": "stop", "tool_use": "stop", "max_tokens": "length"}


class AnthropicChatModel(ProviderModel):
    """Claude through ``anthropic.AsyncAnthropic``; a JSON schema becomes one forced tool call."""

    provider = "anthropic"
    uses_client = True

    def __init__(self, system: SystemConfig, policy: RetryPolicy | None = None) -> None:
        super().__init__(system, policy)
        try:
            from anthropic.resources.messages import AsyncMessages
        except ImportError as exc:
            raise MissingDependencyError("the Anthropic provider", "anthropic", "anthropic") from exc
        self._api_key = resolve_api_key(system, "ANTHROPIC_API_KEY")
        self._sdk_takes_temperature = "temperature" in inspect.signature(AsyncMessages.create).parameters

    def _new_client(self) -> Any:
        from anthropic import AsyncAnthropic

        return AsyncAnthropic(
            api_key=self._api_key, base_url=self.system.base_url, max_retries=0, timeout=DEFAULT_TIMEOUT_S
        )

    def build_request(self, request: ChatRequest) -> dict[str, Any]:
        """Keyword arguments of ``messages.create``: system prompts go to ``system``."""
        system_text = "\n\n".join(m.content for m in request.messages if m.role == "system")
        kwargs: dict[str, Any] = {
            "model": self.system.model,
            "max_tokens": self.max_tokens(request),
            "messages": [{"role": m.role, "content": m.content} for m in request.messages if m.role != "system"],
        }
        if system_text:
            kwargs["system"] = system_text
        temperature = self.temperature(request)
        extra = self.extra_params(request)
        if temperature is not None:
            if self._sdk_takes_temperature:
                kwargs["temperature"] = temperature
            elif temperature != 1.0:  # newer SDKs dropped the argument; 1.0 is the API default anyway
                extra.setdefault("temperature", temperature)
        if request.json_schema is not None and self.params(request).get("structured_output", "tool") != "none":
            kwargs["tools"] = [
                {
                    "name": request.schema_name,
                    "description": "Gib die Antwort als Argumente dieses Werkzeugs zurück.",
                    "input_schema": request.json_schema,
                }
            ]
            kwargs["tool_choice"] = {"type": "tool", "name": request.schema_name}
        if extra:
            kwargs["extra_body"] = extra
        timeout = self.read_timeout(request)
        if timeout is not None:
            kwargs["timeout"] = timeout
        return kwargs

    async def _call(self, request: ChatRequest) -> ChatResponse:
        kwargs = self.build_request(request)  # outside the try: a bad config is not a provider error
        try:
            message = await self._client().messages.create(**kwargs)
        except json.JSONDecodeError as exc:
            raise TransientError(f"{self.name}: the server sent a body that is not JSON ({exc})") from exc
        except Exception as exc:
            raise map_sdk_error(exc, self.name) from exc
        return map_message(message)


def map_message(message: Any) -> ChatResponse:
    """Map an Anthropic Message: text blocks joined, or the forced tool call's input as JSON text.

    Thinking blocks become ``reasoning``; ``stop_reason: refusal`` becomes ``refusal_text`` (the reply's
    text when there is one) and finish reason ``content_filter``."""
    texts: list[str] = []
    thoughts: list[str] = []
    for block in getattr(message, "content", None) or []:
        kind = getattr(block, "type", None)
        if kind == "thinking" and getattr(block, "thinking", None):
            thoughts.append(str(block.thinking))
        elif kind == "tool_use":
            texts = [json.dumps(block.input, ensure_ascii=False)]
            break
        elif kind == "text":
            texts.append(block.text)
    stop = getattr(message, "stop_reason", None)
    usage = getattr(message, "usage", None)
    text = "".join(texts)
    return ChatResponse(
        text=text,
        finish_reason="content_filter" if stop == "refusal" else STOP_REASONS.get(str(stop), stop),
        usage=Usage(
            input_tokens=int(getattr(usage, "input_tokens", 0) or 0),
            output_tokens=int(getattr(usage, "output_tokens", 0) or 0),
        ),
        model=getattr(message, "model", None),
        refusal=stop == "refusal",
        refusal_text=(text.strip() or "stop_reason refusal") if stop == "refusal" else None,
        reasoning="\n\n".join(thoughts) or None,
        raw={"id": getattr(message, "id", None), "stop_reason": stop},
    )
