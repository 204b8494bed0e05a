"""Google Gemini through the native ``google-genai`` SDK (optional; imported lazily)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from benger.errors import ConfigError, MissingDependencyError
from benger.llm._base import ProviderModel
from benger.llm._errors import ContentFilterError, ProviderError, TransientError, error_from_status, map_sdk_error
from benger.llm._openai import resolve_api_key
from benger.llm._protocol import ChatRequest, ChatResponse, Usage
from benger.llm._retry import RetryPolicy
from benger.schema import SystemConfig

FINISH_REASONS = {"STOP": "stop", "MAX_TOKENS": "length"}
FILTER_REASONS = {"SAFETY", "RECITATION", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY"}


class GoogleChatModel(ProviderModel):
    """Gemini via ``genai.Client(...).aio.models.generate_content``; JSON schemas use response_json_schema."""

    provider = "google"
    uses_client = True

    def __init__(self, system: SystemConfig, policy: RetryPolicy | None = None) -> None:
        super().__init__(system, policy)
        try:
            from google import genai
            from google.genai import types
        except ImportError as exc:
            raise MissingDependencyError("the Google Gemini provider", "google", "google-genai") from exc
        self._types = types
        self._genai = genai
        self._api_key = resolve_api_key(system, "GEMINI_API_KEY")

    def _new_client(self) -> Any:
        types = self._types
        options = types.HttpOptions(base_url=self.system.base_url, retry_options=types.HttpRetryOptions(attempts=1))
        return self._genai.Client(api_key=self._api_key, http_options=options)

    def build_request(self, request: ChatRequest) -> dict[str, Any]:
        """Keyword arguments of ``generate_content`` (contents plus a GenerateContentConfig)."""
        types = self._types
        system_text = "\n\n".join(m.content for m in request.messages if m.role == "system")
        contents = [
            types.Content(role="model" if m.role == "assistant" else "user", parts=[types.Part(text=m.content)])
            for m in request.messages
            if m.role != "system"
        ]
        config: dict[str, Any] = {"max_output_tokens": self.max_tokens(request)}
        if system_text:
            config["system_instruction"] = system_text
        temperature = self.temperature(request)
        if temperature is not None:
            config["temperature"] = temperature
        seed = self.seed(request)
        if seed is not None:
            config["seed"] = seed
        if request.json_schema is not None and self.params(request).get("structured_output", "json_schema") != "none":
            config["response_mime_type"] = "application/json"
            config["response_json_schema"] = request.json_schema
        timeout = self.read_timeout(request)
        if timeout is not None:
            config["http_options"] = types.HttpOptions(timeout=int(timeout * 1000))
        config.update(self.extra_params(request))
        try:
            generation_config = types.GenerateContentConfig(**config)
        except ValidationError as exc:  # an unknown or mistyped entry in params
            problems = "; ".join(f"'{'.'.join(map(str, e['loc']))}': {e['msg']}" for e in exc.errors())
            raise ConfigError(f"system '{self.name}': invalid Gemini parameters in params: {problems}") from exc
        return {"model": self.system.model, "contents": contents, "config": generation_config}

    async def _call(self, request: ChatRequest) -> ChatResponse:
        kwargs = self.build_request(request)  # outside the try: a bad config is not a provider error
        try:
            response = await self._client().aio.models.generate_content(**kwargs)
        except Exception as exc:
            raise map_google_error(exc, self.name) from exc
        return map_generate_response(response, self.name)

    async def _close_client(self, client: Any) -> None:
        close = getattr(client.aio, "aclose", None)
        if close is not None:
            await close()


def map_google_error(exc: BaseException, provider: str) -> ProviderError:
    """google.genai errors carry ``code`` (the HTTP status); others go through the generic mapping."""
    code = getattr(exc, "code", None)
    if isinstance(code, int) and code >= 400:
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
        return error_from_status(
            code, str(getattr(exc, "message", None) or exc)[:500], headers=headers, provider=provider
        )
    return map_sdk_error(exc, provider)


def map_generate_response(response: Any, provider: str = "google") -> ChatResponse:
    """Map a GenerateContentResponse; a blocked prompt raises ContentFilterError, a blocked reply is a refusal."""
    candidates = getattr(response, "candidates", None) or []
    feedback = getattr(response, "prompt_feedback", None)
    if not candidates:
        block = getattr(feedback, "block_reason", None)
        if block is not None:
            raise ContentFilterError(f"{provider}: prompt blocked ({getattr(block, 'name', block)})", provider=provider)
        raise TransientError(f"{provider}: the response has no candidates", provider=provider)
    candidate = candidates[0]
    reason = getattr(candidate, "finish_reason", None)
    reason_name = str(getattr(reason, "name", reason)) if reason is not None else None
    parts = getattr(getattr(candidate, "content", None), "parts", None) or []
    text = "".join(p.text for p in parts if getattr(p, "text", None) and not getattr(p, "thought", False))
    thoughts = "".join(p.text for p in parts if getattr(p, "text", None) and getattr(p, "thought", False))
    meta = getattr(response, "usage_metadata", None)
    thinking = int(getattr(meta, "thoughts_token_count", 0) or 0)
    output = int(getattr(meta, "candidates_token_count", 0) or 0) + thinking
    filtered = reason_name in FILTER_REASONS
    return ChatResponse(
        text=text,
        finish_reason="content_filter" if filtered else FINISH_REASONS.get(str(reason_name), reason_name),
        usage=Usage(
            input_tokens=int(getattr(meta, "prompt_token_count", 0) or 0),
            output_tokens=output,
            reasoning_tokens=thinking or None,
        ),
        model=getattr(response, "model_version", None),
        refusal=filtered,
        refusal_text=f"Gemini finish_reason {reason_name}" if filtered else None,
        reasoning=thoughts or None,
        raw={"finish_reason": reason_name},
    )
