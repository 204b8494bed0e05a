"""The one retry policy: backoff, Retry-After, budget, which errors are retried."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from benger.llm import (
    PermanentError,
    RateLimitError,
    RetryPolicy,
    TransientError,
    parse_retry_after,
    retry_async,
)
from benger.llm._errors import error_from_status


def test_parse_retry_after_seconds_and_http_date() -> None:
    assert parse_retry_after("2") == 2.0
    assert parse_retry_after(" 1.5 ") == 1.5
    # the date is 30 s after "now" (2026-11-29 12:00:00 UTC = 1795953600)
    assert parse_retry_after("Sun, 29 Nov 2026 12:00:30 GMT", now=1795953600.0) == pytest.approx(30.0)
    assert parse_retry_after("Sun, 29 Nov 2026 11:59:00 GMT", now=1795953600.0) == 0.0  # in the past
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None


def test_status_classification() -> None:
    limited = error_from_status(429, "slow down", headers={"Retry-After": "7"})
    assert isinstance(limited, RateLimitError) and limited.retry_after == 7.0
    assert isinstance(error_from_status(503, "x"), TransientError)
    assert isinstance(error_from_status(408, "x"), TransientError)
    for status in (400, 401, 403, 404, 422):
        assert isinstance(error_from_status(status, "x"), PermanentError)


def test_backoff_is_exponential_capped_and_jittered() -> None:
    plain = RetryPolicy(initial_wait=1.0, max_wait=5.0, jitter=0.0)
    # 1 * 2**(n-1) for n = 1..5 -> 1, 2, 4, 8 -> capped 5, 16 -> capped 5
    assert [plain.backoff(n) for n in range(1, 6)] == [1.0, 2.0, 4.0, 5.0, 5.0]
    jittered = RetryPolicy(initial_wait=1.0, jitter=0.5, rng=random.Random(1))
    waits = [jittered.backoff(3) for _ in range(50)]
    # base 4 s, jitter adds up to 0.5 * 4 = 2 s
    assert all(4.0 <= w <= 6.0 for w in waits)
    assert len(set(waits)) > 40


def test_retry_after_is_what_the_server_asks_and_capped() -> None:
    policy = RetryPolicy(initial_wait=1.0, jitter=0.0, max_retry_after=100.0)
    assert policy.wait_for(1, RateLimitError("x", retry_after=12.0)) == 12.0
    assert policy.wait_for(3, RateLimitError("x", retry_after=0.2)) == 0.2  # the server's pace, not the backoff
    assert policy.wait_for(1, RateLimitError("x", retry_after=1000.0)) == 100.0
    assert policy.wait_for(2, RateLimitError("x")) == 2.0  # a 429 without Retry-After backs off
    jittered = RetryPolicy(jitter=0.5, rng=random.Random(3))
    assert all(2.0 <= jittered.wait_for(1, RateLimitError("x", retry_after=2.0)) <= 2.5 for _ in range(20))
    assert policy.wait_for(2, TransientError("x")) == 2.0


async def test_transient_errors_are_retried_until_success() -> None:
    calls: list[int] = []
    seen: list[tuple[int, str]] = []

    async def flaky(value: int) -> int:
        calls.append(value)
        if len(calls) < 3:
            raise TransientError(f"boom {len(calls)}")
        return value * 2

    policy = RetryPolicy(initial_wait=0.001, jitter=0.0)
    result = await retry_async(policy, flaky, 21, on_retry=lambda n, e, w: seen.append((n, str(e))))
    assert result == 42
    assert len(calls) == 3
    assert seen == [(1, "boom 1"), (2, "boom 2")]


async def test_budget_exhausted_raises_last_error() -> None:
    calls = 0

    async def always_down() -> None:
        nonlocal calls
        calls += 1
        raise RateLimitError(f"429 #{calls}", retry_after=0.0)

    with pytest.raises(RateLimitError, match="429 #4"):
        await retry_async(RetryPolicy(max_retries=3, initial_wait=0.001), always_down)
    assert calls == 4  # first attempt + 3 retries


async def test_permanent_error_is_not_retried() -> None:
    calls = 0

    async def bad_request() -> None:
        nonlocal calls
        calls += 1
        raise PermanentError("400 bad request", status=400)

    with pytest.raises(PermanentError):
        await retry_async(RetryPolicy(initial_wait=0.001), bad_request)
    assert calls == 1


async def test_generic_exception_types_and_predicate() -> None:
    """The pipeline re-asks on malformed output with its own exception type and a predicate."""

    class Malformed(ValueError):
        pass

    attempts: list[str] = []

    async def ask() -> str:
        attempts.append("x")
        if len(attempts) == 1:
            raise Malformed("not JSON")
        if len(attempts) == 2:
            raise ValueError("other")  # a ValueError that the predicate refuses
        return "ok"

    policy = RetryPolicy(initial_wait=0.001)
    with pytest.raises(ValueError, match="other"):
        await retry_async(policy, ask, retry_on=(ValueError,), retry_if=lambda e: isinstance(e, Malformed))
    assert len(attempts) == 2
    # by default a ValueError is not retried at all
    attempts.clear()
    with pytest.raises(Malformed):
        await retry_async(policy, ask)
    assert len(attempts) == 1


def test_policy_rejects_negative_budget() -> None:
    with pytest.raises(ValueError):
        RetryPolicy(max_retries=-1)


async def _tenacity_only(policy: RetryPolicy, fn: Any, on_retry: Any) -> Any:
    """retry_async before issue 18's change: every attempt, the first one too, inside one tenacity loop; a paced
    rate limit (Retry-After > 0) spends its own budget (issue 30), other errors ``max_retries``."""
    from tenacity import AsyncRetrying, retry_if_exception

    spent = {"faults": 0, "paced": 0, "paced_s": 0.0}
    verdicts: dict[int, bool] = {}

    def over_budget(state: Any) -> bool:  # once per attempt, whichever of wait and stop tenacity asks first
        if state.attempt_number in verdicts:
            return verdicts[state.attempt_number]
        error = state.outcome.exception()
        after = getattr(error, "retry_after", None) if isinstance(error, RateLimitError) else None
        if policy.max_retries == 0:
            over = True
        elif after:
            spent["paced"] += 1
            spent["paced_s"] += min(after, policy.max_retry_after)
            over = spent["paced"] > policy.max_rate_limit_retries or spent["paced_s"] > policy.max_retry_after
        else:
            spent["faults"] += 1
            over = spent["faults"] > policy.max_retries
        verdicts[state.attempt_number] = over
        return over

    def stop(state: Any) -> bool:
        return over_budget(state)

    def wait(state: Any) -> float:
        over_budget(state)
        return policy.wait_for(max(1, spent["faults"]), state.outcome.exception())

    def before_sleep(state: Any) -> None:
        on_retry(state.attempt_number, state.outcome.exception(), float(state.next_action.sleep))

    retrying = AsyncRetrying(
        stop=stop,
        wait=wait,
        retry=retry_if_exception(lambda e: isinstance(e, (RateLimitError, TransientError))),
        before_sleep=before_sleep,
        sleep=asyncio.sleep,
        reraise=True,
    )
    async for attempt in retrying:
        with attempt:
            return await fn()


# each script: what the attempts raise in turn ("ok" answers); the last entry repeats
SCRIPTS = [
    ["ok"],
    [TransientError("t1"), "ok"],
    [TransientError("t1"), RateLimitError("r2", retry_after=7.5), TransientError("t3"), "ok"],
    [RateLimitError("r1", retry_after=400.0), TransientError("t2")],  # capped Retry-After, then the budget runs out
    [TransientError("t1"), PermanentError("p2", status=400)],  # not retried
    [PermanentError("p1", status=401)],
]


@pytest.mark.parametrize("script", SCRIPTS, ids=range(len(SCRIPTS)))
@pytest.mark.parametrize("max_retries", [0, 1, 3, 5])
async def test_first_attempt_outside_tenacity_changes_nothing(
    script: list[Any], max_retries: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Same sleeps (jitter from the same seeded source), on_retry calls, attempts and outcome as one tenacity
    loop over the whole policy."""
    sleeps: list[float] = []

    async def sleep(delay: float, result: Any = None) -> Any:
        sleeps.append(delay)
        return result

    monkeypatch.setattr(asyncio, "sleep", sleep)

    async def observe(run: Any) -> tuple[Any, ...]:
        sleeps.clear()
        seen: list[tuple[int, str, float]] = []
        attempts = 0

        async def fn() -> str:
            nonlocal attempts
            step = script[min(attempts, len(script) - 1)]
            attempts += 1
            if isinstance(step, Exception):
                raise step
            return f"{step} after {attempts}"

        policy = RetryPolicy(max_retries=max_retries, initial_wait=1.0, max_wait=5.0, jitter=0.5,
                             max_retry_after=100.0, rng=random.Random(42))  # fmt: skip
        try:
            outcome: Any = await run(policy, fn, lambda n, e, w: seen.append((n, str(e), w)))
        except Exception as exc:  # the outcome is compared
            outcome = exc
        return outcome, attempts, list(sleeps), seen

    new = await observe(lambda policy, fn, on_retry: retry_async(policy, fn, on_retry=on_retry))
    old = await observe(_tenacity_only)
    assert new == old
    # hand-checked for the third script with 3 retries: waits 1-1.5 s (fault 1), the server's 7.5 s plus up to a
    # quarter (paced: no fault spent), 2-3 s (fault 2)
    if script is SCRIPTS[2] and max_retries == 3:
        assert new[0] == "ok after 4" and 7.5 <= new[2][1] <= 9.375
        assert 1.0 <= new[2][0] <= 1.5 and 2.0 <= new[2][2] <= 3.0
