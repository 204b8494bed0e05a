"""Provider errors: every SDK exception is mapped to one of these so the retry policy can decide."""

from __future__ import annotations

import email.utils
import re
import time
from collections.abc import Mapping
from typing import Any

from benger.errors import BengerError

#: how servers say that a prompt does not fit (OpenAI/vLLM, llama.cpp, Ollama, litellm)
OVERFLOW = re.compile(
    r"context_length_exceeded|maximum context length|exceeds? (?:the )?context (?:window|length|size)|"
    r"context window of|too many tokens|prompt is too long|input is too long",
    re.IGNORECASE,
)


class ProviderError(BengerError):
    """A chat call failed. ``status`` is the HTTP status when there was one."""

    def __init__(self, message: str, *, status: int | None = None, provider: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.provider = provider
        self.retries = 0


class RateLimitError(ProviderError):
    """HTTP 429 (or a provider's quota signal); ``retry_after`` seconds come from the Retry-After header."""

    def __init__(
        self,
        message: str,
        *,
        retry_after: float | None = None,
        status: int | None = 429,
        provider: str | None = None,
    ) -> None:
        super().__init__(message, status=status, provider=provider)
        self.retry_after = retry_after


class TransientError(ProviderError):
    """5xx, timeouts and connection errors: worth retrying."""


class PermanentError(ProviderError):
    """Other 4xx (bad request, authentication, unknown model): retrying will not help."""


class ContextOverflowError(PermanentError):
    """The server says the prompt and the reply do not fit the model's context window (HTTP 400
    ``context_length_exceeded``, "maximum context length", llama.cpp "exceed context window")."""


class ContentFilterError(ProviderError):
    """The provider blocked the request or the reply (content filter / safety)."""


def parse_retry_after(value: str | None, *, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After header: delta-seconds or an HTTP date; None when absent/invalid."""
    if value is None:
        return None
    text = value.strip()
    if not text:
        return None
    try:
        seconds = float(text)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    return max(0.0, seconds)


def _header(headers: Mapping[str, str] | None, name: str) -> str | None:
    if headers is None:
        return None
    value = headers.get(name)
    if value is None:
        value = headers.get(name.lower())
    return value


def error_from_status(
    status: int,
    message: str,
    *,
    headers: Mapping[str, str] | None = None,
    provider: str | None = None,
) -> ProviderError:
    """Classify an HTTP failure: 429 -> RateLimitError, 408/409/5xx -> TransientError, other -> PermanentError."""
    text = f"{provider or 'provider'} HTTP {status}: {message}"
    if status == 503 and parse_retry_after(_header(headers, "Retry-After")):  # overloaded, and says for how long
        return RateLimitError(text, retry_after=parse_retry_after(_header(headers, "Retry-After")), status=503,
                              provider=provider)  # fmt: skip
    if status == 429:
        retry_after = parse_retry_after(_header(headers, "Retry-After"))
        if retry_after is None:
            ms = _header(headers, "retry-after-ms")
            try:
                retry_after = float(ms) / 1000.0 if ms is not None else None
            except ValueError:
                retry_after = None
        return RateLimitError(text, retry_after=retry_after, provider=provider)
    if status in (408, 409) or status >= 500 or status < 400:  # < 400: a reply the SDK could not read
        return TransientError(text, status=status, provider=provider)
    if OVERFLOW.search(message):
        return ContextOverflowError(text, status=status, provider=provider)
    return PermanentError(text, status=status, provider=provider)


def _root_cause(exc: BaseException) -> BaseException:
    """The innermost exception of ``exc``'s ``__cause__``/``__context__`` chain (at most 10 links)."""
    for _ in range(10):
        inner = exc.__cause__ or exc.__context__
        if inner is None:
            break
        exc = inner
    return exc


def map_sdk_error(exc: BaseException, provider: str) -> ProviderError:
    """Map an exception of the openai/anthropic SDKs (same shape), litellm or httpx to a ProviderError: a failed
    connection (the innermost cause a ``Connect...`` error: refused, reset, unreachable) first, then the HTTP
    status, then timeouts and the rest by name."""
    if isinstance(exc, ProviderError):
        return exc
    name = type(exc).__name__
    root = _root_cause(exc)
    if root is not exc and "Connect" in type(root).__name__:
        # no reply came, whatever the SDK calls it: the openai SDK reports a refused or unreachable host as
        # APITimeoutError (its httpx layer says ConnectTimeout for "Connect call failed"), litellm as an
        # InternalServerError with status_code 500 (it was stored as "HTTP 500"): name what happened
        detail = f"{name} from {type(root).__name__}: {str(root)[:300]}"
        return TransientError(f"{provider}: connection failed ({detail})", provider=provider)
    status: Any = getattr(exc, "status_code", None)
    if isinstance(status, int):
        response = getattr(exc, "response", None)
        headers = getattr(response, "headers", None)
        message = getattr(exc, "message", None) or str(exc)
        return error_from_status(status, str(message)[:500], headers=headers, provider=provider)
    if "Timeout" in name or isinstance(exc, TimeoutError):
        return TransientError(f"{provider}: request timed out ({name})", provider=provider)
    if "Connection" in name or isinstance(exc, ConnectionError | OSError):
        return TransientError(f"{provider}: connection failed ({name}: {exc})", provider=provider)
    if "ContentFilter" in name:
        return ContentFilterError(f"{provider}: content filter ({exc})", provider=provider)
    return PermanentError(f"{provider}: {name}: {exc}", provider=provider)
