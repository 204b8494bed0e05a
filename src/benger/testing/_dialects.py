"""Server dialects of the stub: how real OpenAI-compatible servers differ from api.openai.com.

A :class:`Dialect` applies to every request of a stub (``run_stub_server(dialect=Dialect(...))`` or
``benger stub-server --dialect '{"usage": false}'``):

=========================  =====================================================================================
``usage: false``           replies carry no ``usage`` (some gateways and proxies)
``refuse_formats``         ``{"json_schema": 500}``: a ``response_format`` of that type is answered with that
                           status and a body naming ``response_format`` (llama-cpp-python: HTTP 500 "Input
                           should be 'text' or 'json_object'"); ``"json_object_schema"`` is a json_object with
                           a schema, ``"json_object"`` a bare one
``rate_limit``             requests per second over a sliding second; more get 429 with ``Retry-After:
                           retry_after`` (whole seconds, as servers send)
``trickle_bytes_per_s``    the reply body is sent in small pieces at that rate (a slow or stuck proxy)
``context_window``         tokens of prompt + ``max_tokens`` the model takes: more is HTTP 400
                           ``context_length_exceeded``; advertised as vLLM's ``max_model_len`` in ``/v1/models``
                           and llama.cpp's ``n_ctx`` in ``/props``
=========================  =====================================================================================
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from benger.testing._http import HttpResponse

TOKENS_PER_WORD = 1.3


def count_tokens(text: str) -> int:
    """The stub's token count: words x 1.3, rounded up."""
    return math.ceil(len(text.split()) * TOKENS_PER_WORD)


def format_kind(request: dict[str, Any]) -> str | None:
    """``json_schema``, ``json_object_schema``, ``json_object`` or None: the request's response_format."""
    fmt = request.get("response_format")
    if not isinstance(fmt, dict):
        return None
    kind = fmt.get("type")
    if kind == "json_object" and isinstance(fmt.get("schema"), dict):
        return "json_object_schema"
    return str(kind) if kind in ("json_schema", "json_object") else None


@dataclass
class Dialect:
    """How this stub differs from api.openai.com (module table)."""

    usage: bool = True
    refuse_formats: dict[str, int] = field(default_factory=dict)
    rate_limit: float | None = None
    retry_after: float = 2.0
    trickle_bytes_per_s: float | None = None
    context_window: int | None = None
    _recent: deque[float] = field(default_factory=deque, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @classmethod
    def from_json(cls, text: str | None) -> Dialect:
        """A dialect from the JSON of ``--dialect`` (keys as the fields above)."""
        if not text:
            return cls()
        data = json.loads(text)
        return cls(**{k: v for k, v in data.items() if not k.startswith("_")})

    def refusal(self, request: dict[str, Any], prompt_text: str) -> HttpResponse | None:
        """The error a real server of this dialect answers ``request`` with, or None to answer it."""
        if self.rate_limit is not None and not self._admit():
            headers = {"Retry-After": f"{self.retry_after:g}"}
            error = {"message": "Rate limit reached for requests", "type": "rate_limit_error", "code": 429}
            return HttpResponse.json({"error": error}, 429, headers)
        kind = format_kind(request)
        if kind is not None and kind in self.refuse_formats:
            status = int(self.refuse_formats[kind])
            loc = "response_format.type" if kind != "json_object_schema" else "response_format.schema"
            detail = [{"loc": ["body", *loc.split(".")], "msg": "Input should be 'text' or 'json_object'"}]
            return HttpResponse.json({"error": {"message": json.dumps(detail), "type": "invalid"}}, status)
        if self.context_window is not None:
            max_tokens = request.get("max_completion_tokens") or request.get("max_tokens") or 0
            needed = count_tokens(prompt_text) + int(max_tokens)
            if needed > self.context_window:
                message = (
                    f"This model's maximum context length is {self.context_window} tokens. However, you "
                    f"requested {needed} tokens. Please reduce the length of the messages or completion."
                )
                error = {"message": message, "type": "invalid_request_error", "code": "context_length_exceeded"}
                return HttpResponse.json({"error": error}, 400)
        return None

    def _admit(self) -> bool:
        assert self.rate_limit is not None
        now = time.monotonic()
        with self._lock:
            while self._recent and now - self._recent[0] >= 1.0:
                self._recent.popleft()
            if len(self._recent) >= self.rate_limit:
                return False
            self._recent.append(now)
            return True

    def models(self) -> dict[str, Any]:
        """The ``/v1/models`` body (vLLM's ``max_model_len`` when a context window is set)."""
        entry: dict[str, Any] = {"id": "stub", "object": "model"}
        if self.context_window is not None:
            entry["max_model_len"] = self.context_window
        return {"object": "list", "data": [entry]}

    def props(self) -> dict[str, Any] | None:
        """llama.cpp's ``/props`` body, or None (404) without a context window."""
        if self.context_window is None:
            return None
        return {"default_generation_settings": {"n_ctx": self.context_window}, "total_slots": 1}

    def shape(self, response: HttpResponse) -> HttpResponse:
        """The reply as this dialect sends it (usage dropped, body trickled)."""
        if not self.usage and response.status == 200 and response.body:
            data = json.loads(response.body)
            data.pop("usage", None)
            response = HttpResponse.json(data, response.status, response.headers)
        if self.trickle_bytes_per_s:
            response.trickle_bytes_per_s = self.trickle_bytes_per_s
        return response
