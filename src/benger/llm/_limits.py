"""Per-endpoint concurrency limits shared by every model of the process that talks to the same endpoint."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import weakref
from collections.abc import AsyncIterator
from contextvars import ContextVar

DEFAULT_REMOTE_CONCURRENCY = 32
DEFAULT_LOCAL_CONCURRENCY = 1

EndpointKey = tuple[str, str]

_lock = threading.Lock()


class _Limit:
    """A semaphore and its current number of slots."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.semaphore = asyncio.Semaphore(size)


_per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[EndpointKey, _Limit]] = weakref.WeakKeyDictionary()


def endpoint_key(provider: str, base_url: str | None) -> EndpointKey:
    """The key that identifies an endpoint: provider family and base URL (no trailing slash)."""
    family = "openai" if provider in {"openai", "openai-compatible"} else provider
    return (family, (base_url or "default").rstrip("/"))


def endpoint_semaphore(key: EndpointKey, size: int) -> asyncio.Semaphore:
    """The semaphore of ``key`` on the running event loop, created lazily with ``size`` slots.

    Every model of an endpoint shares it; its size is the largest ``size`` any of them asked for (a model
    asking for more slots adds them; nobody shrinks it), so one model with a small limit cannot throttle
    another that was given a larger one.
    """
    loop = asyncio.get_running_loop()
    with _lock:
        table = _per_loop.setdefault(loop, {})
        limit = table.get(key)
        if limit is None:
            limit = table[key] = _Limit(size)
        elif size > limit.size:
            for _ in range(size - limit.size):
                limit.semaphore.release()
            limit.size = size
        return limit.semaphore


#: The running run's limit on calls in flight (set by the runner's executor; None outside a run).
run_call_slots: ContextVar[asyncio.Semaphore | None] = ContextVar("benger_run_call_slots", default=None)


@contextlib.asynccontextmanager
async def call_slot(key: EndpointKey, size: int) -> AsyncIterator[None]:
    """Hold one of the run's call slots (when a run set ``run_call_slots``) and one of the endpoint's.

    The run's slots bound the calls in flight to the run's concurrency while more units than that are in
    progress (the extra ones render their prompts and wait here, so a finished call's slot is refilled at
    once instead of after its result is parsed and saved).
    """
    run_slots = run_call_slots.get()
    async with run_slots if run_slots is not None else contextlib.nullcontext(), endpoint_semaphore(key, size):
        yield
