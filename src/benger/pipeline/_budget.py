"""Budget caps for a run (issue 13 §3: ``--max-cost`` / ``--max-tokens``), kept in the store's ledger.

``BudgetGuard`` wraps a model factory: before each call it reserves the call's worst case (input estimate +
``max_output_tokens``, and its cost at catalog prices) in the store's budget ledger
(``Store.reserve_budget``: one conditional UPDATE) and refuses the call with ``BudgetExceeded`` (a
``ProviderError``: the item is saved as ``failed`` and retried by the next run) when it does not fit beside
what was spent and what calls in flight reserved. After the call the reservation becomes the usage.

One mechanism for every executor: the in-process runner binds the guard to the run's store
(:meth:`BudgetGuard.bound`), which opens the ledger row and names it in a context variable
(:func:`active_budget`); the Celery executor sends that id with every task, and each worker wraps its model
in a guard on the same row (:meth:`BudgetGuard.of_ledger`), so workers on any number of hosts share one cap.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from benger.llm import ChatMessage, ChatRequest, ChatResponse, ProviderError
from benger.pipeline._config import RunConfig
from benger.pipeline._estimate import _cost
from benger.pipeline._fit import chars_counter
from benger.schema import SystemConfig

#: The ledger id of the budget the current run's calls are made under (None: no caps).
_ACTIVE: ContextVar[str | None] = ContextVar("benger_active_budget", default=None)


def active_budget() -> str | None:
    """The ledger id of the run in this context (:meth:`BudgetGuard.bound`), for executors that send the
    calls elsewhere (the Celery workers); None outside a capped run."""
    return _ACTIVE.get()


class BudgetExceeded(ProviderError):
    """A call was refused because it could pass ``--max-cost`` / ``--max-tokens``; a rerun resumes."""


@dataclass
class BudgetGuard:
    """Caps on the tokens (input + output) and the cost (USD) of the calls made through its models.

    The cost cap needs prices: a model without catalog prices cannot be run under ``max_cost`` (refused at
    its first call, never counted as free). The counts live in the store's ledger row ``budget_id`` once
    the guard is bound (:meth:`bound`, :meth:`of_ledger`); ``spent_tokens``, ``spent_cost`` and ``refused``
    read it, so they include the calls of every worker under the same budget.
    """

    max_cost: float | None = None
    max_tokens: int | None = None
    store: Any = None
    budget_id: str | None = None

    @classmethod
    def of_ledger(cls, store: Any, budget_id: str) -> BudgetGuard:
        """The guard of an open ledger row (a worker's view of the run's budget)."""
        state = store.budget_state(budget_id)
        if state is None:
            raise ProviderError(f"budget {budget_id} is not in the store at {store.url}; do the workers use its --db?")
        return cls(max_cost=state.max_cost, max_tokens=state.max_tokens, store=store, budget_id=budget_id)

    @contextmanager
    def bound(self, store: Any) -> Iterator[BudgetGuard]:
        """Open a ledger row with this guard's caps in ``store`` and make it the run's budget for the block."""
        self.store, self.budget_id = store, store.open_budget(self.max_tokens, self.max_cost)
        token = _ACTIVE.set(self.budget_id)
        try:
            yield self
        finally:
            _ACTIVE.reset(token)

    def _state(self) -> Any:
        if self.store is None or self.budget_id is None:
            raise RuntimeError("a BudgetGuard counts in the store's ledger: use it inside guard.bound(store)")
        return self.store.budget_state(self.budget_id)

    @property
    def spent_tokens(self) -> int:
        return int(self._state().spent_tokens)

    @property
    def spent_cost(self) -> float:
        return float(self._state().spent_cost)

    @property
    def refused(self) -> int:
        return int(self._state().refused)

    def wrap(self, factory: Callable[[SystemConfig], Any]) -> Callable[[SystemConfig], Any]:
        """A model factory whose models check the caps before each call."""

        def make(system: SystemConfig) -> Any:
            return self.guard_model(factory(system), system)

        return make

    def guard_model(self, model: Any, system: SystemConfig) -> Any:
        """``model`` (of ``system``) checking the caps before each call."""
        return _Guarded(model, system, self)

    def worst_case(self, system: SystemConfig, request: ChatRequest) -> tuple[int, float]:
        """The most tokens (input estimate + output cap) and USD the call may use (cost 0 without a cost cap)."""
        n_in = sum(chars_counter(m.content) for m in request.messages if isinstance(m, ChatMessage))
        worst = n_in + system.max_output_tokens
        if self.max_cost is None:
            return worst, 0.0
        cost = _cost(system, n_in, system.max_output_tokens)
        if cost is None:
            self._state()  # unbound: the same RuntimeError as every other use
            self.store.refuse_budget(self.budget_id)
            raise BudgetExceeded(f"--max-cost: no catalog price for {system.name}; its cost cannot be capped")
        return worst, cost

    def check(self, system: SystemConfig, request: ChatRequest) -> tuple[int, float]:
        """Reserve the call's worst case in the ledger; BudgetExceeded when a cap would be passed. Returns
        the reservation (tokens, cost), which :meth:`record` settles."""
        tokens, cost = self.worst_case(system, request)
        self._state()  # unbound: RuntimeError
        if self.store.reserve_budget(self.budget_id, tokens, cost):
            return tokens, cost
        state = self._state()
        if self.max_tokens is not None and state.spent_tokens + state.reserved_tokens + tokens > self.max_tokens:
            raise BudgetExceeded(
                f"--max-tokens {self.max_tokens}: {state.spent_tokens} spent ({state.reserved_tokens} reserved by "
                f"calls in flight), the next call may use {tokens}"
            )
        raise BudgetExceeded(
            f"--max-cost {self.max_cost}: {state.spent_cost:.4f} USD spent ({state.reserved_cost:.4f} reserved by "
            f"calls in flight), the next call may cost {cost:.4f}"
        )

    def record(self, system: SystemConfig, reserved: tuple[int, float], response: ChatResponse | None) -> None:
        """Release ``reserved`` and count what ``response`` used (nothing for a failed call)."""
        used = (0, 0.0)
        if response is not None:
            n_in, n_out = response.usage.input_tokens or 0, response.usage.output_tokens or 0
            used = (n_in + n_out, _cost(system, n_in, n_out) or 0.0)
        self.store.settle_budget(self.budget_id, reserved, used)


class _Guarded:
    def __init__(self, inner: Any, system: SystemConfig, guard: BudgetGuard) -> None:
        self._inner, self._system, self._guard = inner, system, guard

    async def _off_loop(self, fn: Callable[..., Any], *args: Any) -> Any:
        """A ledger statement: inline on SQLite (a local commit), in a thread for a networked store."""
        if getattr(self._guard.store, "inline_writes", True):
            return fn(*args)
        return await asyncio.to_thread(fn, *args)

    async def complete(self, request: ChatRequest) -> ChatResponse:
        reserved = await self._off_loop(self._guard.check, self._system, request)
        response: ChatResponse | None = None
        try:
            response = await self._inner.complete(request)
        finally:
            await self._off_loop(self._guard.record, self._system, reserved, response)
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
