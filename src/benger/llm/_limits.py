"""Per-endpoint concurrency limits shared by every model of the process that talks to the same endpoint."""

from __future__ import annotations

import asyncio
import threading
import weakref
from contextlib import AbstractAsyncContextManager
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


class _CallSlot:
    """``call_slot``'s context: one of the run's slots (when a run set ``run_call_slots``), then one of the
    endpoint's; released in the reverse order. A plain class: entered once per model call, it costs a few
    microseconds less than a generator-based context manager wrapping the two ``async with``."""

    __slots__ = ("_endpoint", "_key", "_run", "_size")

    def __init__(self, key: EndpointKey, size: int) -> None:
        self._key, self._size = key, size
        self._run: asyncio.Semaphore | None = None
        self._endpoint: asyncio.Semaphore | None = None

    async def __aenter__(self) -> None:
        run = run_call_slots.get()
        if run is not None:
            await run.acquire()
        try:
            endpoint = endpoint_semaphore(self._key, self._size)
            await endpoint.acquire()
        except BaseException:  # cancelled while waiting for the endpoint: give the run's slot back
            if run is not None:
                run.release()
            raise
        self._run, self._endpoint = run, endpoint

    async def __aexit__(self, *exc_info: object) -> None:
        if self._endpoint is not None:
            self._endpoint.release()
        if self._run is not None:
            self._run.release()
        self._run = self._endpoint = None


def call_slot(key: EndpointKey, size: int) -> AbstractAsyncContextManager[None]:
    """Hold one of the run's call slots (when a run set ``run_call_slots``) and one of the endpoint's.

    The run's slots bound the calls in flight to the run's concurrency while more units than that are in
    progress (the extra ones render their prompts and wait here, so a finished call's slot is refilled at
    once instead of after its result is parsed and saved).
    """
    return _CallSlot(key, size)
