"""THE retry policy: exponential backoff with jitter, Retry-After honoured, a bounded budget (tenacity)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception

from benger.llm._errors import RateLimitError, TransientError

T = TypeVar("T")

DEFAULT_RETRY_ON: tuple[type[BaseException], ...] = (RateLimitError, TransientError)


@dataclass(frozen=True)
class RetryPolicy:
    """How often and how long to retry.

    ``max_retries`` is the budget of retries after the first attempt (3 as in the paper, so at most 4
    attempts). The n-th retry waits ``min(max_wait, initial_wait * 2**(n-1))`` plus a random share of up to
    ``jitter`` times that.

    A rate limit that says how long to wait (HTTP 429 / 503 with ``Retry-After``) is the endpoint's budget,
    not a fault of the call: such retries do not spend ``max_retries`` (0 still means no retry at all); they
    wait what the server asks (capped at ``max_retry_after``, plus up to ``jitter`` / 2 of it, so paused calls
    do not return all at once) for at most ``max_retry_after`` seconds in all and at most
    ``max_rate_limit_retries`` times.
    """

    max_retries: int = 3
    initial_wait: float = 1.0
    max_wait: float = 60.0
    jitter: float = 0.5
    max_retry_after: float = 300.0
    max_rate_limit_retries: int = 50
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
        """The wait before retry ``retry_number`` after ``error``: backoff, at least the server's Retry-After;
        after a paced rate limit (:func:`paced`) the Retry-After with up to ``jitter`` / 2 of it on top."""
        retry_after = paced(error)
        if retry_after is not None:
            base = min(retry_after, self.max_retry_after)
            return float(base + base * self.jitter / 2 * self.rng.random())
        return self.backoff(retry_number)


def paced(error: BaseException | None) -> float | None:
    """The Retry-After seconds (> 0) of a rate limit that names them (HTTP 429, or 503 with Retry-After), else None."""
    if isinstance(error, RateLimitError) and error.retry_after:
        return float(error.retry_after)
    return None


NO_RETRY = RetryPolicy(max_retries=0)


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
    call); the retries after a first failure run in tenacity, numbered and budgeted (``_Budget``) as one loop
    over the whole policy, the jitter drawn from the policy's one random source.
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
    budget = _Budget(policy)
    budget.spend(first)
    wait_s = policy.wait_for(1, first)
    if on_retry is not None:
        on_retry(1, first, wait_s)
    await asyncio.sleep(wait_s)

    # tenacity asks wait and stop once per failed attempt (in an order of its own): the first of them spends
    def settle(state: RetryCallState) -> tuple[BaseException | None, bool]:
        error = state.outcome.exception() if state.outcome is not None else None
        if state.attempt_number not in budget.settled:
            budget.settled[state.attempt_number] = error is None or budget.spend(error)
        return error, budget.settled[state.attempt_number]

    def wait(state: RetryCallState) -> float:
        error, _ = settle(state)
        return policy.wait_for(max(1, budget.faults), error)

    def stop(state: RetryCallState) -> bool:
        return not settle(state)[1]

    def before_sleep(state: RetryCallState) -> None:
        if on_retry is None or state.outcome is None:
            return
        error = state.outcome.exception()
        wait_s = state.next_action.sleep if state.next_action is not None else 0.0
        if error is not None:
            on_retry(state.attempt_number + 1, error, float(wait_s))

    retrying = AsyncRetrying(
        stop=stop,
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


class _Budget:
    """What is left of a policy's budgets: ``max_retries`` for faults, time and count for paced rate limits."""

    def __init__(self, policy: RetryPolicy) -> None:
        self.policy = policy
        self.faults = 0
        self.paced = 0
        self.paced_s = 0.0
        self.settled: dict[int, bool] = {}  # tenacity attempt number -> within the budget

    def spend(self, error: BaseException) -> bool:
        """Count one retry after ``error``; False when that retry is over the budget."""
        seconds = paced(error)
        if self.policy.max_retries == 0:  # no retries at all, paced or not
            return False
        if seconds is None:
            self.faults += 1
            return self.faults <= self.policy.max_retries
        self.paced += 1
        self.paced_s += min(seconds, self.policy.max_retry_after)
        return self.paced <= self.policy.max_rate_limit_retries and self.paced_s <= self.policy.max_retry_after
