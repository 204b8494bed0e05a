"""Does a prompt fit its model's context window? One rule for the dry run and the run.

A unit whose prompt tokens plus the system's ``max_output_tokens`` exceed the context window
(:func:`benger.llm._context.context_window`: config, ``n_ctx``, or what the server says) cannot be answered in
full: the dry run and the estimate count it (``too long``), and the run skips it before any call — a
generation is stored ``excluded``, a judgement ``unscored``, with the reason ``too long: …``; it is never sent.
Prompt tokens come from the model's own tokenizer where benger has it (a local GGUF vocabulary), else
``characters / CHARS_PER_TOKEN`` (:mod:`benger.llm._tokens`).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Sequence

from benger.llm import ChatMessage
from benger.llm._context import context_window
from benger.llm._tokens import CHARS_PER_TOKEN, estimate_tokens
from benger.schema import SystemConfig

Counter = Callable[[str], int]
chars_counter: Counter = estimate_tokens

__all__ = ["CHARS_PER_TOKEN", "Counter", "TooLong", "chars_counter", "fit_problem", "token_counter", "unit_fit_problem"]


class TooLong(Exception):
    """A unit that is not sent: its prompt does not fit the context window (``reason``: :func:`fit_problem`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def token_counter(system: SystemConfig) -> tuple[Counter, str]:
    """(counter, source): the GGUF vocabulary of a local model when it can be read, else :func:`chars_counter`."""
    if system.provider == "local":
        try:
            from benger.llm._llama import load_vocabulary
            from benger.llm._local import _resolve

            vocab = load_vocabulary(str(_resolve(system)))
        except Exception:
            return chars_counter, f"characters / {CHARS_PER_TOKEN}"

        def count(text: str) -> int:
            return len(vocab.tokenize(text.encode("utf-8"), add_bos=False, special=True))

        return count, "model tokenizer (GGUF)"
    return chars_counter, f"characters / {CHARS_PER_TOKEN}"


def fit_problem(system: SystemConfig, prompt_tokens: int) -> str | None:
    """``too long: …`` when ``prompt_tokens`` + ``max_output_tokens`` exceed ``system``'s context window; None
    when it fits or the window is unknown."""
    window, source = context_window(system)
    if window is None or prompt_tokens + system.max_output_tokens <= window:
        return None
    return (
        f"too long: prompt ~{prompt_tokens:,} tokens + max_output_tokens {system.max_output_tokens:,} > context "
        f"window {window:,} ({source}); not sent (lower max_output_tokens or use a larger window)"
    )


_lock = threading.Lock()
_prepared: dict[tuple[object, ...], tuple[Counter, int | None]] = {}


def _key(system: SystemConfig) -> tuple[object, ...]:
    local = (
        (str(system.params.get("model_path")), str(system.params.get("n_ctx"))) if system.provider == "local" else ()
    )
    return (system.provider, system.base_url, system.model, system.context_window, *local)


def _prepare(system: SystemConfig) -> tuple[Counter, int | None]:
    """(counter, window) of ``system``, worked out once per process and endpoint (it may read a GGUF
    vocabulary or ask the server)."""
    window, _ = context_window(system)
    counter = token_counter(system)[0] if window is not None else chars_counter
    with _lock:
        return _prepared.setdefault(_key(system), (counter, window))


async def unit_fit_problem(system: SystemConfig, messages: Sequence[ChatMessage]) -> str | None:
    """:func:`fit_problem` for a unit's prompt ``messages`` (the first look-up per endpoint runs in a thread)."""
    with _lock:
        known = _prepared.get(_key(system))
    counter, window = known if known is not None else await asyncio.to_thread(_prepare, system)
    if window is None:
        return None
    return fit_problem(system, sum(counter(m.content) for m in messages))
