"""One protocol for chat models; every provider (OpenAI-compatible, Anthropic, Google, local) implements it."""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field


class ChatMessage(BaseModel):
    role: Literal["system", "user", "assistant"]
    content: str


class ChatRequest(BaseModel):
    """What the pipeline asks of a model. ``json_schema`` asks for schema-constrained JSON where supported."""

    messages: list[ChatMessage]
    temperature: float | None = None
    max_tokens: int = 8000
    seed: int | None = None
    json_schema: dict[str, Any] | None = None
    schema_name: str = "response"
    timeout_s: float | None = None
    params: dict[str, Any] = Field(default_factory=dict, description="provider-specific extras")


class Usage(BaseModel):
    """Token counts of one reply; ``output_tokens`` includes reasoning tokens, ``reasoning_tokens`` is the
    provider's count of them when it reports one (OpenAI ``completion_tokens_details``, Gemini thoughts)."""

    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int | None = None
    estimated: bool = Field(
        default=False, description="the server sent no usage; the counts are estimated (benger.llm._tokens)"
    )


class ChatResponse(BaseModel):
    """A model reply with the call's metadata (tokens, latency, finish reason, cost, retries).

    ``text`` is the reply content as sent (inline ``<think>`` blocks included; ``benger.llm.split_reasoning``
    separates them); ``reasoning`` is reasoning the provider returned in a field of its own
    (``reasoning_content`` / ``reasoning``, Anthropic thinking blocks, Gemini thought parts);
    ``refusal_text`` is the provider's own refusal signal (OpenAI ``message.refusal``, Anthropic
    ``stop_reason: refusal``, Gemini safety finish reasons), ``refusal`` is true for it and for
    ``finish_reason == "content_filter"``.
    """

    text: str
    finish_reason: str | None = None
    usage: Usage = Field(default_factory=Usage)
    latency_s: float = 0.0
    model: str | None = None
    refusal: bool = False
    refusal_text: str | None = None
    reasoning: str | None = None
    cost_usd: float | None = None
    retries: int = 0
    raw: dict[str, Any] | None = None
    structured_output: str | None = Field(
        default=None, description="the structured-output mode the endpoint accepted (benger.llm._structured)"
    )

    @property
    def truncated(self) -> bool:
        return self.finish_reason in {"length", "max_tokens", "MAX_TOKENS"}


@runtime_checkable
class ChatModel(Protocol):
    """An async chat model. Implementations raise ``ProviderError`` subclasses on failure."""

    name: str

    async def complete(self, request: ChatRequest) -> ChatResponse: ...

    async def aclose(self) -> None: ...
