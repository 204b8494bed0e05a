"""Budget caps for a run (issue 13 §3: ``--max-cost`` / ``--max-tokens``).

``BudgetGuard`` wraps a model factory: before each call it adds the call's worst case (input estimate +
``max_output_tokens``) to what was spent and refuses the call with ``BudgetExceeded`` (a ``ProviderError``:
the item is saved as ``failed`` and retried by the next run) when a cap would be passed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from benger.llm import ChatMessage, ChatRequest, ChatResponse, ProviderError
from benger.pipeline._config import RunConfig
from benger.pipeline._estimate import _cost
from benger.pipeline._fit import chars_counter
from benger.schema import SystemConfig


class BudgetExceeded(ProviderError):
    """A call was refused because it could pass ``--max-cost`` / ``--max-tokens``; a rerun resumes."""


@dataclass
class BudgetGuard:
    """Caps on the tokens (input + output) and the cost (USD) of the calls made through its models.

    The cost cap needs prices: a model without catalog prices cannot be run under ``max_cost`` (refused at
    its first call, never counted as free).
    """

    max_cost: float | None = None
    max_tokens: int | None = None
    spent_tokens: int = 0
    spent_cost: float = 0.0
    refused: int = 0

    def wrap(self, factory: Callable[[SystemConfig], Any]) -> Callable[[SystemConfig], Any]:
        """A model factory whose models check the caps before each call."""

        def make(system: SystemConfig) -> Any:
            return _Guarded(factory(system), system, self)

        return make

    def check(self, system: SystemConfig, request: ChatRequest) -> None:
        n_in = sum(chars_counter(m.content) for m in request.messages if isinstance(m, ChatMessage))
        worst_tokens = n_in + system.max_output_tokens
        if self.max_tokens is not None and self.spent_tokens + worst_tokens > self.max_tokens:
            self.refused += 1
            raise BudgetExceeded(
                f"--max-tokens {self.max_tokens}: {self.spent_tokens} spent, the next call may use {worst_tokens}"
            )
        if self.max_cost is not None:
            worst = _cost(system, n_in, system.max_output_tokens)
            if worst is None:
                self.refused += 1
                raise BudgetExceeded(f"--max-cost: no catalog price for {system.name}; its cost cannot be capped")
            if self.spent_cost + worst > self.max_cost:
                self.refused += 1
                raise BudgetExceeded(
                    f"--max-cost {self.max_cost}: {self.spent_cost:.4f} USD spent, the next call may cost {worst:.4f}"
                )

    def record(self, system: SystemConfig, response: ChatResponse) -> None:
        usage = response.usage
        n_in, n_out = usage.input_tokens or 0, usage.output_tokens or 0
        self.spent_tokens += n_in + n_out
        self.spent_cost += _cost(system, n_in, n_out) or 0.0


class _Guarded:
    def __init__(self, inner: Any, system: SystemConfig, guard: BudgetGuard) -> None:
        self._inner, self._system, self._guard = inner, system, guard

    async def complete(self, request: ChatRequest) -> ChatResponse:
        self._guard.check(self._system, request)
        response: ChatResponse = await self._inner.complete(request)
        self._guard.record(self._system, response)
        return response

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def guarded_factory(config: RunConfig, guard: BudgetGuard) -> Callable[[SystemConfig], Any]:
    """The model factory ``run_config`` would build for ``config`` (its retry policy), under ``guard``."""
    import functools

    from benger.llm import RetryPolicy, create_model

    retry = config.retry
    policy = RetryPolicy(max_retries=retry.max_retries, initial_wait=retry.initial_wait, max_wait=retry.max_wait)
    return guard.wrap(functools.partial(create_model, policy=policy))
