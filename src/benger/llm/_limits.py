"""Per-endpoint concurrency limits shared by every model of the process that talks to the same endpoint."""

from __future__ import annotations

import asyncio
import threading
import weakref

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
