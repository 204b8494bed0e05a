"""Structured output that negotiates: which ``response_format`` an OpenAI-compatible endpoint accepts.

Servers differ: api.openai.com and vLLM take ``json_schema``; llama.cpp's and llama-cpp-python's servers,
Ollama and LM Studio answer it with HTTP 400/422/500 ("Input should be 'text' or 'json_object'") but take
``{"type": "json_object", "schema": ...}`` and constrain the reply with it; some take only a bare
``json_object``; some take no ``response_format`` at all. The modes, tried in this order:

=======================  ==========================================================================
``json_schema``          ``{"type": "json_schema", "json_schema": {"name", "schema", "strict": false}}``
``json_object_schema``   ``{"type": "json_object", "schema": schema}`` (llama.cpp, vLLM, Ollama)
``json_object``          ``{"type": "json_object"}``; the schema is written into the prompt
``prompt``               no ``response_format``; the schema is written into the prompt
``none``                 no ``response_format`` and nothing added (only when forced)
=======================  ==========================================================================

An HTTP 400/422/500 whose body names the request's form (``response_format``, ``json_schema``, ...) is a
capability answer, not a transient error: the endpoint (base URL + model) is remembered for the process in
the next mode and the call is sent again in that form at once — the refused form is never resent. The mode
used is returned with each reply (``ChatResponse.structured_output``) and stored with the generation's and
judgement's provenance (``meta["structured_output"]``). ``params.structured_output`` forces one mode; a
forced mode the server refuses is a :class:`~benger.llm.PermanentError` naming the modes to try instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import textwrap
import threading
import weakref
from collections.abc import AsyncIterator
from typing import Any

from benger.errors import ConfigError
from benger.llm._protocol import ChatMessage, ChatRequest

log = logging.getLogger("benger.llm")

MODES: tuple[str, ...] = ("json_schema", "json_object_schema", "json_object", "prompt")
FORCED_ONLY = ("none",)
#: statuses with which servers refuse a form they do not know (llama-cpp-python: 500; FastAPI: 422)
FORM_STATUSES = frozenset({400, 415, 422, 500, 501})
_FORM_WORDS = re.compile(
    r"response_format|json_schema|json_object|structured[ _]output|guided_json|response_schema|grammar",
    re.IGNORECASE,
)
_OTHER_CAUSES = re.compile(r"context[ _]length|context window|maximum context|too many tokens", re.IGNORECASE)

SCHEMA_NOTE = "Antworte ausschließlich mit einem JSON-Objekt, das diesem JSON-Schema entspricht:\n{schema}"

_lock = threading.Lock()
_known: dict[tuple[str, str], str] = {}
_confirmed: set[tuple[str, str]] = set()
_probes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[tuple[str, str], asyncio.Lock]] = (
    weakref.WeakKeyDictionary()
)


def check_mode(mode: str) -> str:
    """``mode`` if it is a known structured-output mode; ConfigError otherwise."""
    if mode not in MODES and mode not in FORCED_ONLY:
        known = ", ".join((*MODES, *FORCED_ONLY))
        raise ConfigError(f"structured_output must be one of {known}, not {mode!r}")
    return mode


def is_form_refusal(status: int | None, body: str) -> bool:
    """True when an HTTP error refuses the request's structured-output form (not overload, not length)."""
    return status in FORM_STATUSES and bool(_FORM_WORDS.search(body)) and not _OTHER_CAUSES.search(body)


def current_mode(endpoint: tuple[str, str]) -> str:
    """The mode this process uses for ``endpoint`` (base URL, model): the first not yet refused."""
    with _lock:
        return _known.get(endpoint, MODES[0])


def next_mode(endpoint: tuple[str, str], refused: str, detail: str) -> str | None:
    """Remember that ``endpoint`` refused ``refused``; the mode to use instead (None: none left)."""
    with _lock:
        now = _known.get(endpoint, MODES[0])
        if MODES.index(now) > MODES.index(refused):  # another call already moved on
            return now
        index = MODES.index(refused) + 1
        if index >= len(MODES):
            return None
        _known[endpoint] = MODES[index]
    log.warning(
        "%s (model %s) refused response_format %s (%s); using %s for this endpoint",
        endpoint[0], endpoint[1], refused, textwrap.shorten(detail, 200, placeholder=" …"), MODES[index],
    )  # fmt: skip
    return MODES[index]


def confirm(endpoint: tuple[str, str]) -> None:
    """``endpoint`` answered a structured request: its mode is settled, calls need not wait for a probe."""
    with _lock:
        _confirmed.add(endpoint)


@contextlib.asynccontextmanager
async def first_answer(endpoint: tuple[str, str]) -> AsyncIterator[None]:
    """Until ``endpoint`` has answered one structured request, let one call at a time ask it (per event loop):
    the calls of a run that start together would otherwise all be sent in a form the server refuses."""
    with _lock:
        settled = endpoint in _confirmed
        probe = (
            None if settled else _probes.setdefault(asyncio.get_running_loop(), {}).setdefault(endpoint, asyncio.Lock())
        )
    if probe is None:
        yield
        return
    async with probe:
        yield


def forget(endpoint: tuple[str, str] | None = None) -> None:
    """Forget what was learnt about ``endpoint`` (every endpoint when None); for tests and long processes."""
    with _lock:
        if endpoint is None:
            _known.clear()
            _confirmed.clear()
        else:
            _known.pop(endpoint, None)
            _confirmed.discard(endpoint)


def response_format(request: ChatRequest, mode: str) -> dict[str, Any] | None:
    """The OpenAI ``response_format`` for a request's JSON schema under ``mode`` (None: send none)."""
    check_mode(mode)
    if request.json_schema is None or mode in ("prompt", "none"):
        return None
    if mode == "json_object":
        return {"type": "json_object"}
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": request.json_schema}
    return {
        "type": "json_schema",
        "json_schema": {"name": request.schema_name, "schema": request.json_schema, "strict": False},
    }


def messages_for(request: ChatRequest, mode: str) -> list[ChatMessage]:
    """The request's messages; in ``json_object`` and ``prompt`` mode the schema follows the last message."""
    if request.json_schema is None or mode not in ("json_object", "prompt"):
        return list(request.messages)
    note = SCHEMA_NOTE.format(schema=json.dumps(request.json_schema, ensure_ascii=False))
    *head, last = request.messages
    return [*head, ChatMessage(role=last.role, content=f"{last.content}\n\n{note}")]
