"""THE retry policy: exponential backoff with jitter, Retry-After honoured, a bounded budget (tenacity)."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from benger.llm._errors import RateLimitError, TransientError

T = TypeVar("T")

DEFAULT_RETRY_ON: tuple[type[BaseException], ...] = (RateLimitError, TransientError)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry.

    ``max_retries`` is the budget of retries after the first attempt (3 as in the paper, so at most 4
    attempts). The n-th retry waits ``min(max_wait, initial_wait * 2**(n-1))`` plus a random share of up to
    ``jitter`` times that, and never less than a RateLimitError's ``retry_after`` (capped at
    ``max_retry_after``).
    """

    max_retries: int = 3
    initial_wait: float = 1.0
    max_wait: float = 60.0
    jitter: float = 0.5
    max_retry_after: float = 300.0
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.max_retries < 0:
            raise ValueError("max_retries must be >= 0")
        if self.initial_wait < 0 or self.max_wait < 0 or self.jitter < 0:
            raise ValueError("waits and jitter must be >= 0")

    def backoff(self, retry_number: int) -> float:
        """The wait before retry ``retry_number`` (1-based), jitter included, Retry-After not."""
        base = min(self.max_wait, self.initial_wait * 2 ** max(0, retry_number - 1))
        return float(base + base * self.jitter * self.rng.random())

    def wait_for(self, retry_number: int, error: BaseException | None) -> float:
        """The wait before retry ``retry_number`` after ``error``: backoff, at least the server's Retry-After."""
        wait = self.backoff(retry_number)
        retry_after = getattr(error, "retry_after", None) if isinstance(error, RateLimitError) else None
        if retry_after is not None:
            wait = max(wait, min(float(retry_after), self.max_retry_after))
        return wait


NO_RETRY = RetryPolicy(max_retries=0)


def after_first_retry(policy: RetryPolicy) -> RetryPolicy:
    """``policy`` once its first retry is spent: one retry fewer, its n-th wait the original's (n+1)-th
    (``backoff(n) = min(max_wait, initial_wait * 2**(n-1))``; the same random source for the jitter)."""
    return dataclasses.replace(policy, max_retries=policy.max_retries - 1, initial_wait=policy.initial_wait * 2)


async def retry_async(
    policy: RetryPolicy,
    fn: Callable[..., Awaitable[T]],
    *args: Any,
    retry_on: tuple[type[BaseException], ...] = DEFAULT_RETRY_ON,
    retry_if: Callable[[BaseException], bool] | None = None,
    on_retry: Callable[[int, BaseException, float], None] | None = None,
    **kwargs: Any,
) -> T:
    """Await ``fn(*args, **kwargs)``, retrying per ``policy`` on exceptions of ``retry_on`` (and ``retry_if``).

    Other exceptions propagate at once; when the budget is spent the last exception propagates.
    ``on_retry(retry_number, error, wait_s)`` is called before each wait (for logging/counting).

    The first attempt runs outside tenacity (most calls succeed at once, and its machinery costs ~40 us per
    call); the retries after a first failure run in tenacity under :func:`after_first_retry`, so the waits,
    their jitter draws, the numbering and the budget are those of one tenacity loop over the whole policy.
    """

    def should_retry(exc: BaseException) -> bool:
        if not isinstance(exc, retry_on):
            return False
        return retry_if(exc) if retry_if is not None else True

    try:
        return await fn(*args, **kwargs)
    except Exception as exc:
        if policy.max_retries == 0 or not should_retry(exc):
            raise
        first: BaseException = exc
    wait_s = policy.wait_for(1, first)
    if on_retry is not None:
        on_retry(1, first, wait_s)
    await asyncio.sleep(wait_s)
    rest = after_first_retry(policy)

    def wait(state: RetryCallState) -> float:
        error = state.outcome.exception() if state.outcome is not None else None
        return rest.wait_for(state.attempt_number, error)

    def before_sleep(state: RetryCallState) -> None:
        if on_retry is None or state.outcome is None:
            return
        error = state.outcome.exception()
        wait_s = state.next_action.sleep if state.next_action is not None else 0.0
        if error is not None:
            on_retry(state.attempt_number + 1, error, float(wait_s))

    retrying = AsyncRetrying(
        stop=stop_after_attempt(rest.max_retries + 1),
        wait=wait,
        retry=retry_if_exception(should_retry),
        before_sleep=before_sleep,
        sleep=asyncio.sleep,
        reraise=True,
    )
    async for attempt in retrying:
        with attempt:
            return await fn(*args, **kwargs)
    raise AssertionError("unreachable: tenacity either returns or re-raises")  # pragma: no cover
