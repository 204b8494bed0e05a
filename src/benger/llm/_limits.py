"""Per-endpoint concurrency limits shared by every model of the process that talks to the same endpoint."""

from __future__ import annotations

import asyncio
import threading
import weakref

DEFAULT_REMOTE_CONCURRENCY = 32
DEFAULT_LOCAL_CONCURRENCY = 1

EndpointKey = tuple[str, str]

_lock = threading.Lock()
_per_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[EndpointKey, asyncio.Semaphore]] = (
    weakref.WeakKeyDictionary()
)


def endpoint_key(provider: str, base_url: str | None) -> EndpointKey:
    """The key that identifies an endpoint: provider family and base URL (no trailing slash)."""
    family = "openai" if provider in {"openai", "openai-compatible"} else provider
    return (family, (base_url or "default").rstrip("/"))


def endpoint_semaphore(key: EndpointKey, size: int) -> asyncio.Semaphore:
    """The semaphore of ``key`` on the running event loop, created lazily with ``size`` slots.

    The first model to ask for an endpoint on a loop fixes its size; later callers share it.
    """
    loop = asyncio.get_running_loop()
    with _lock:
        table = _per_loop.setdefault(loop, {})
        semaphore = table.get(key)
        if semaphore is None:
            semaphore = asyncio.Semaphore(size)
            table[key] = semaphore
        return semaphore
