"""Per-endpoint concurrency limits shared by every model of the process that talks to the same endpoint."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
import weakref
from collections import deque
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


# --- rate limits: one budget per endpoint ---------------------------------------------------------------------
class _Pace:
    """What a process knows of an endpoint's rate limit: a pause (Retry-After) and a learnt spacing of calls.

    On a 429/503 with Retry-After every call waits for the pause; after it, calls start no closer than
    ``spacing`` seconds apart, ``spacing`` being the inverse of the rate the endpoint accepted before it
    refused (replies in the ``WINDOW_S`` before the refusal). Each accepted reply shortens the spacing by 2 %,
    so the pace creeps back up to what the server allows (and a later refusal learns it again).
    """

    WINDOW_S = 2.0

    def __init__(self) -> None:
        self.until = 0.0
        self.spacing = 0.0
        self.next_start = 0.0
        self.accepted: deque[float] = deque(maxlen=512)

    def refused(self, seconds: float, now: float) -> None:
        self.until = max(self.until, now + max(0.0, seconds))
        recent = sum(1 for t in self.accepted if now - t <= self.WINDOW_S)
        learnt = self.WINDOW_S / recent if recent else max(seconds, 0.1)
        self.spacing = max(self.spacing, learnt)

    def start_at(self, now: float) -> float:
        """When a call may start (reserving that moment): after the pause, one spacing after the previous."""
        start = max(now, self.until, self.next_start if self.spacing else 0.0)
        if self.spacing:
            self.next_start = start + self.spacing
        return start


_pause_lock = threading.Lock()
_paces: dict[EndpointKey, _Pace] = {}


def pause_endpoint(key: EndpointKey, seconds: float) -> None:
    """Hold every call to ``key`` (all models, loops and threads of the process) for ``seconds`` from now and
    pace the calls after it: the server's ``Retry-After`` of a 429 or 503 is a limit of the endpoint, not of
    the one call that got it."""
    with _pause_lock:
        _paces.setdefault(key, _Pace()).refused(seconds, time.monotonic())


def call_accepted(key: EndpointKey) -> None:
    """Note an answered call of ``key`` (the pace after a refusal is learnt from these)."""
    with _pause_lock:
        pace = _paces.get(key)
        if pace is None:
            pace = _paces[key] = _Pace()
        pace.accepted.append(time.monotonic())
        pace.spacing *= 0.98


def endpoint_pause(key: EndpointKey) -> float:
    """Seconds left of ``key``'s pause (0 when calls may go)."""
    with _pause_lock:
        pace = _paces.get(key)
        until = pace.until if pace is not None else 0.0
    return max(0.0, until - time.monotonic())


async def wait_for_endpoint(key: EndpointKey) -> float:
    """Sleep until a call to ``key`` may start: its pause is over (it may be extended meanwhile) and, after a
    refusal, one learnt spacing after the previous call. Returns the seconds waited."""
    waited = 0.0
    while True:
        with _pause_lock:
            pace = _paces.get(key)
            if pace is None:
                return waited
            now = time.monotonic()
            left = pace.start_at(now) - now
        if left <= 0:
            return waited
        await asyncio.sleep(left)
        waited += left
        if endpoint_pause(key) <= 0:
            return waited


class LocalRateLimiter:
    """A token bucket per endpoint in this process: at most ``per_minute`` units (calls or tokens) a minute.

    The same algorithm as the Celery workers' Redis bucket (``benger.workers.RateLimiter``, which shares it
    between processes): a reservation returns how long to wait for its units and may drive the bucket
    negative, so later callers queue behind it fairly instead of polling. The local executor uses the
    process's :data:`LOCAL_RATE_LIMITER`; a Celery worker gives its models the Redis one.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._buckets: dict[str, tuple[float, float]] = {}  # endpoint -> (tokens, monotonic time)

    def reserve(self, endpoint: str, per_minute: float, *, amount: float = 1.0, burst: float | None = None) -> float:
        """Reserve ``amount`` units on ``endpoint``; returns the seconds to wait before using them."""
        rate = per_minute / 60.0
        capacity = burst if burst is not None else max(1.0, rate)
        now = time.monotonic()
        with self._lock:
            tokens, ts = self._buckets.get(endpoint, (capacity, now))
            tokens = min(capacity, tokens + (now - ts) * rate)
            wait = 0.0 if tokens >= amount else (amount - tokens) / rate
            self._buckets[endpoint] = (tokens - amount, now)
        return wait


LOCAL_RATE_LIMITER = LocalRateLimiter()
