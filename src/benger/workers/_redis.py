"""Cross-worker coordination in Redis: a per-endpoint rate limit and per-unit leases.

Both live in the broker's Redis so every worker on every machine sees the same state.
"""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, cast

import redis

from benger.workers._settings import broker_url, lease_seconds

# Token bucket: KEYS[1] = bucket; ARGV = rate per second, capacity, units (default 1). The clock is Redis's own
# (TIME), so workers on machines with skewed clocks still share one bucket correctly.
# Returns the seconds to wait before the token is available (0 = granted now). A reservation may drive the
# bucket negative: later callers then wait their turn behind it (fair queueing instead of polling).
_TOKEN_BUCKET = """
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local amount = tonumber(ARGV[3]) or 1
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil then tokens = capacity; ts = now end
tokens = math.min(capacity, tokens + (now - ts) * rate)
local wait = 0
if tokens >= amount then
  tokens = tokens - amount
else
  wait = (amount - tokens) / rate
  tokens = tokens - amount
end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', now)
redis.call('EXPIRE', KEYS[1], math.ceil(capacity / rate) + 60)
return tostring(wait)
"""

# Release a lease only if we still hold it.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
_REFRESH = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return 0
"""


def redis_client(url: str | None = None) -> redis.Redis:
    """A client for the broker's Redis (coordination state lives next to the queues)."""
    return redis.Redis.from_url(url or broker_url(), socket_timeout=10, socket_connect_timeout=5)


class RateLimiter:
    """A token bucket per endpoint, shared by all workers: at most ``per_minute`` calls a minute.

    A call reserves a token and learns how long to wait for it, so concurrent workers queue fairly
    instead of polling.
    """

    def __init__(self, client: redis.Redis, *, prefix: str = "benger:rate:") -> None:
        self.client = client
        self.prefix = prefix
        self._script = client.register_script(_TOKEN_BUCKET)

    def reserve(self, endpoint: str, per_minute: float, *, amount: float = 1.0, burst: float | None = None) -> float:
        """Reserve ``amount`` units (calls or tokens) on ``endpoint``; returns the seconds to wait before using
        them (the algorithm of ``benger.llm.LocalRateLimiter``, shared by every worker)."""
        rate = per_minute / 60.0
        capacity = burst if burst is not None else max(1.0, rate)
        wait = self._script(keys=[self.prefix + endpoint], args=[rate, capacity, amount])
        return float(cast(Any, wait))

    def acquire(self, endpoint: str, per_minute: float) -> float:
        """Block until a call on ``endpoint`` is allowed; returns the time waited."""
        wait = self.reserve(endpoint, per_minute)
        if wait > 0:
            time.sleep(wait)
        return wait


class LeaseHeld(Exception):
    """Another worker is running this unit right now."""


class Leases:
    """A lease per unit key so that a redelivered task never runs while the first delivery still runs.

    The lease expires ``ttl`` seconds after its holder stops refreshing it (a killed worker), so the
    redelivered task can take over.
    """

    def __init__(self, client: redis.Redis, *, prefix: str = "benger:lease:", ttl: int | None = None) -> None:
        self.client = client
        self.prefix = prefix
        self.ttl = ttl if ttl is not None else lease_seconds()
        self._release = client.register_script(_RELEASE)
        self._refresh = client.register_script(_REFRESH)

    @contextmanager
    def hold(self, key: str) -> Iterator[None]:
        token = uuid.uuid4().hex
        name = self.prefix + key
        if not self.client.set(name, token, nx=True, ex=self.ttl):
            raise LeaseHeld(key)
        stop = threading.Event()

        def refresh() -> None:
            while not stop.wait(self.ttl / 3):
                try:
                    self._refresh(keys=[name], args=[token, self.ttl])
                except redis.RedisError:  # Redis away for a moment: try again at the next tick
                    continue

        thread = threading.Thread(target=refresh, daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join(timeout=1)
            with contextlib.suppress(redis.RedisError):  # else the lease simply expires after ``ttl``
                self._release(keys=[name], args=[token])
