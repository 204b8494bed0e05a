"""OpenAI and every OpenAI-compatible endpoint (DeepInfra, Together, vLLM, llama.cpp server, Ollama, ...)."""

from __future__ import annotations

import importlib
import json
import os
import textwrap
import threading
from typing import Any
from urllib.parse import urlparse

from benger.errors import ConfigError, MissingKeyError
from benger.llm._base import ProviderModel
from benger.llm._errors import ContentFilterError, PermanentError, TransientError, map_sdk_error
from benger.llm._keys import api_key_from_env
from benger.llm._protocol import ChatRequest, ChatResponse, Usage
from benger.llm._retry import RetryPolicy
from benger.llm._structured import (
    check_mode,
    confirm,
    current_mode,
    first_answer,
    is_form_refusal,
    messages_for,
    next_mode,
    response_format,
)
from benger.llm._tokens import estimated_usage
from benger.schema import SystemConfig

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1", "0.0.0.0"})
DUMMY_KEY = "not-needed"
DEFAULT_TIMEOUT_S = 600.0


def is_local_url(url: str | None) -> bool:
    """True when ``url`` points at this machine (a local server needs no API key)."""
    return url is not None and (urlparse(url).hostname or "") in LOCAL_HOSTS


def resolve_api_key(system: SystemConfig, default_env: str, *, allow_dummy: bool = True) -> str:
    """The API key from ``system.api_key_env`` (or ``default_env``); a dummy key for local servers.

    Raises MissingKeyError (a ConfigError) naming the environment variable (never its value) when a remote
    endpoint has no key.
    """
    env = system.api_key_env or default_env
    key = api_key_from_env(env)
    if key:
        return key
    if allow_dummy and is_local_url(system.base_url):
        return DUMMY_KEY
    raise MissingKeyError(system.name, system.provider, system.model, (env,))


_SSL_CONTEXTS: dict[tuple[str, str | None, str | None], Any] = {}
_ssl_lock = threading.Lock()


def shared_ssl_context(client_cls: type) -> Any:
    """The verifying SSL context the SDK's HTTP client class would build for itself (its httpx package's
    ``create_ssl_context()``: the CA bundle, or ``SSL_CERT_FILE`` / ``SSL_CERT_DIR``), built once per process
    and per those variables instead of once per client: every model of every event loop built one, all
    alike, and loading the CA bundle made a client cost 16 ms CPU (0.1 ms with the shared context)."""
    package = next(c.__module__.split(".")[0] for c in client_cls.__mro__ if c.__name__ == "AsyncClient")
    key = (package, os.environ.get("SSL_CERT_FILE"), os.environ.get("SSL_CERT_DIR"))
    with _ssl_lock:
        context = _SSL_CONTEXTS.get(key)
        if context is None:
            context = _SSL_CONTEXTS[key] = importlib.import_module(package).create_ssl_context()
    return context


def http_client(kind: str) -> Any:
    """The SDK's HTTP client: ``aiohttp`` (the SDK's documented transport for high concurrency, measured
    0.3-0.6 ms less client CPU per call than the default at 64 parallel calls) or ``httpx`` (the SDK default;
    also the fallback when the aiohttp extra is not installed), each with the SDK's defaults (timeout, limits,
    redirects) and the process's one SSL context (``shared_ssl_context``)."""
    if kind not in ("aiohttp", "httpx"):
        raise ConfigError(f"params.http_client must be 'aiohttp' or 'httpx', not {kind!r}")
    from openai import DefaultAioHttpClient, DefaultAsyncHttpxClient

    if kind == "aiohttp":
        try:
            return DefaultAioHttpClient(timeout=DEFAULT_TIMEOUT_S, verify=shared_ssl_context(DefaultAioHttpClient))
        except RuntimeError:  # the SDK's stand-in when aiohttp is missing
            pass
    return DefaultAsyncHttpxClient(timeout=DEFAULT_TIMEOUT_S, verify=shared_ssl_context(DefaultAsyncHttpxClient))


class OpenAIChatModel(ProviderModel):
    """Chat completions through the official ``openai`` SDK (its own retries off: benger's policy applies)."""

    provider = "openai"
    uses_client = True

    def __init__(self, system: SystemConfig, policy: RetryPolicy | None = None) -> None:
        super().__init__(system, policy)
        self._api_key = resolve_api_key(system, "OPENAI_API_KEY")

    def _new_client(self) -> Any:
        from openai import AsyncOpenAI

        # one client (one connection pool) per model and event loop; the SDK's pool (1000 connections,
        # 100 kept alive) is above any endpoint limit, so the endpoint semaphore is the only throttle
        return AsyncOpenAI(
            api_key=self._api_key,
            base_url=self.system.base_url,
            max_retries=0,
            timeout=DEFAULT_TIMEOUT_S,
            http_client=http_client(str(self.system.params.get("http_client", "aiohttp"))),
        )

    @property
    def form_endpoint(self) -> tuple[str, str]:
        """The key under which the accepted structured-output mode is remembered: (base URL, model)."""
        return (self._endpoint[1], self.system.model)

    def structured_mode(self, request: ChatRequest) -> tuple[str, bool]:
        """(mode, forced): ``params.structured_output`` when set, else what the endpoint accepted so far."""
        forced = self.params(request).get("structured_output")
        if forced is not None:
            return check_mode(str(forced)), True
        return current_mode(self.form_endpoint), False

    def build_request(self, request: ChatRequest, mode: str | None = None) -> dict[str, Any]:
        """The keyword arguments of ``chat.completions.create`` for ``request`` (``mode``: structured output,
        default :meth:`structured_mode`)."""
        params = self.params(request)
        mode = mode or self.structured_mode(request)[0]
        # api.openai.com wants max_completion_tokens (reasoning models); most other servers know max_tokens
        default_param = "max_completion_tokens" if self.system.provider == "openai" else "max_tokens"
        kwargs: dict[str, Any] = {
            "model": self.system.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages_for(request, mode)],
            str(params.get("max_tokens_param", default_param)): self.max_tokens(request),
        }
        temperature = self.temperature(request)
        if temperature is not None:
            kwargs["temperature"] = temperature
        seed = self.seed(request)
        if seed is not None:
            kwargs["seed"] = seed
        fmt = response_format(request, mode)
        if fmt is not None:
            kwargs["response_format"] = fmt
        extra = self.extra_params(request)
        if extra:
            kwargs["extra_body"] = extra
        timeout = self.read_timeout(request)
        if timeout is not None:
            kwargs["timeout"] = timeout
        return kwargs

    async def _call(self, request: ChatRequest) -> ChatResponse:
        if request.json_schema is None or self.params(request).get("structured_output") is not None:
            return await self._negotiate(request)
        async with first_answer(self.form_endpoint):  # one probe at a time until the endpoint has answered
            response = await self._negotiate(request)
        confirm(self.form_endpoint)
        return response

    async def _negotiate(self, request: ChatRequest) -> ChatResponse:
        """Send ``request`` in the endpoint's mode, stepping down the modes on a form refusal (llm._structured)."""
        mode, forced = self.structured_mode(request)
        while True:
            try:
                response = await self._post(request, mode)
            except _FormRefused as refused:
                following = None if forced else next_mode(self.form_endpoint, mode, refused.detail)
                if following is None:
                    advice = "remove params.structured_output" if forced else "the server accepts none of them"
                    detail = textwrap.shorten(refused.detail, 300, placeholder=" …")  # at a word
                    raise PermanentError(
                        f"{self.name}: the server refused structured_output {mode} (HTTP {refused.status}: "
                        f"{detail}); modes: json_schema, json_object_schema, json_object, prompt "
                        f"({advice})",
                        status=refused.status,
                        provider=self.name,
                    ) from None
                mode = following
                continue
            if request.json_schema is not None:
                response.structured_output = mode
            if response.usage.estimated:
                response.usage = estimated_usage(request, response)
            return response

    async def _post(self, request: ChatRequest, mode: str) -> ChatResponse:
        kwargs = self.build_request(request, mode)  # outside the try: a bad config is not a provider error
        # The SDK's generic ``post`` (its documented way to call an endpoint with a plain body) sends the
        # same request as ``chat.completions.create`` with the SDK's headers, auth, timeouts and error
        # mapping, but skips re-validating our already-valid params against the TypedDicts and building
        # pydantic models for the reply: together ~40 % of the client CPU per call at high concurrency.
        body = {**kwargs.pop("extra_body", {}), **kwargs}
        options: dict[str, Any] = {}
        if "timeout" in body:
            options["timeout"] = body.pop("timeout")
        try:
            data = await self._client().post("/chat/completions", body=body, cast_to=object, options=options)
        except json.JSONDecodeError as exc:
            raise TransientError(f"{self.name}: the server sent a body that is not JSON ({exc})") from exc
        except Exception as exc:
            status = getattr(exc, "status_code", None)
            if "response_format" in body and is_form_refusal(status, str(getattr(exc, "message", "") or exc)):
                raise _FormRefused(int(status or 0), str(getattr(exc, "message", "") or exc)) from exc
            mapped = map_sdk_error(exc, self.name)
            if isinstance(mapped, PermanentError) and "content_filter" in str(exc):
                raise ContentFilterError(str(mapped), status=mapped.status, provider=self.name) from exc
            raise mapped from exc
        if isinstance(data, str):  # a JSON body without a JSON content type
            try:
                data = json.loads(data)
            except json.JSONDecodeError as exc:
                raise TransientError(f"{self.name}: the server sent a body that is not JSON ({exc})") from exc
        if not isinstance(data, dict):
            raise TransientError(f"{self.name}: the server sent {type(data).__name__}, not a JSON object")
        return map_completion_dict(data)


class _FormRefused(Exception):
    """The server refused the request's structured-output form (a capability answer; never resent as is)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


def _field(value: Any, name: str) -> Any:
    return value.get(name) if isinstance(value, dict) else None


def _reasoning_of(message: Any) -> str | None:
    """Reasoning an OpenAI-compatible server returns beside the content (vLLM/DeepSeek ``reasoning_content``,
    vLLM >= 0.10 / OpenRouter ``reasoning``)."""
    parts = [_field(message, key) for key in ("reasoning_content", "reasoning")]
    texts = [p for p in parts if isinstance(p, str) and p.strip()]
    return "\n\n".join(dict.fromkeys(texts)) or None


def _reasoning_tokens(usage: Any) -> int | None:
    value = _field(_field(usage, "completion_tokens_details"), "reasoning_tokens")
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def map_completion_dict(data: dict[str, Any]) -> ChatResponse:
    """Map a chat completion body (decoded JSON) to a ChatResponse (reasoning and refusal fields included)."""
    choices = data.get("choices")
    if not choices or not isinstance(choices, list):
        raise TransientError("the server returned no choices")
    choice = choices[0] if isinstance(choices[0], dict) else {}
    message = _field(choice, "message") or {}
    refusal_text = _field(message, "refusal")
    refusal_text = refusal_text if isinstance(refusal_text, str) and refusal_text.strip() else None
    finish = choice.get("finish_reason")
    usage = data.get("usage")
    counted = isinstance(usage, dict) and isinstance(usage.get("completion_tokens"), int)
    raw: dict[str, Any] = {"id": data.get("id"), "system_fingerprint": data.get("system_fingerprint")}
    if refusal_text:
        raw["refusal"] = refusal_text
    content = _field(message, "content")
    return ChatResponse(
        text=content if isinstance(content, str) else "",
        finish_reason=finish if isinstance(finish, str) else None,
        usage=Usage(
            input_tokens=int(_field(usage, "prompt_tokens") or 0),
            output_tokens=int(_field(usage, "completion_tokens") or 0),
            reasoning_tokens=_reasoning_tokens(usage),
            estimated=not counted,  # the counts are filled in from the text by the caller (llm._tokens)
        ),
        model=data.get("model") if isinstance(data.get("model"), str) else None,
        refusal=bool(refusal_text) or finish == "content_filter",
        refusal_text=refusal_text,
        reasoning=_reasoning_of(message),
        raw=raw,
    )
