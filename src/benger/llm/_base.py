"""Shared machinery of every provider: the retry policy, the endpoint limit, latency, cost and defaults."""

from __future__ import annotations

import asyncio
import time
import weakref
from abc import ABC, abstractmethod
from typing import Any

from benger.llm._errors import ProviderError
from benger.llm._limits import DEFAULT_REMOTE_CONCURRENCY, call_slot, endpoint_key
from benger.llm._protocol import ChatRequest, ChatResponse, Usage
from benger.llm._retry import RetryPolicy, retry_async
from benger.schema import SystemConfig

# keys of SystemConfig.params / ChatRequest.params that benger interprets itself (never sent to a provider)
RESERVED_PARAMS = frozenset(
    {
        "structured_output",
        "max_tokens_param",
        "timeout_s",
        "n_ctx",
        "n_batch",
        "n_threads",
        "n_threads_batch",
        "model_path",
        "http_client",
    }
)


def token_cost(input_tokens: int, output_tokens: int, price_in: float | None, price_out: float | None) -> float | None:
    """The one cost computation of benger: USD for ``input_tokens`` / ``output_tokens`` at ``price_in`` /
    ``price_out`` (USD per 1M tokens, the catalog's ``price_*_per_mtok``); None when a price is unknown (never 0).

    Used for recorded calls (:func:`compute_cost`), the ``--dry-run`` estimate and the ``--max-cost`` budget."""
    if price_in is None or price_out is None:
        return None
    return (input_tokens * price_in + output_tokens * price_out) / 1_000_000


def compute_cost(usage: Usage, price_in: float | None, price_out: float | None) -> float | None:
    """USD cost of one reply's token counts (:func:`token_cost`); None when a price is unknown."""
    return token_cost(usage.input_tokens, usage.output_tokens, price_in, price_out)


class ProviderModel(ABC):
    """A ChatModel for one SystemConfig; subclasses implement one raw call in ``_call``."""

    provider = "base"
    default_concurrency = DEFAULT_REMOTE_CONCURRENCY
    uses_client = False

    def __init__(self, system: SystemConfig, policy: RetryPolicy | None = None) -> None:
        self.system = system
        self.name = system.name
        self.policy = policy or RetryPolicy()
        self._endpoint = endpoint_key(system.provider, self._endpoint_url())
        self._clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r}, model={self.system.model!r}, endpoint={self._endpoint[1]!r})"

    def _new_client(self) -> Any:
        """A fresh SDK client (providers with network clients override this)."""
        raise NotImplementedError

    def _client(self) -> Any:
        """The SDK client of the running event loop (HTTP pools are bound to the loop that opened them)."""
        loop = asyncio.get_running_loop()
        client = self._clients.get(loop)
        if client is None:
            client = self._new_client()
            self._clients[loop] = client
        return client

    def _endpoint_url(self) -> str | None:
        return self.system.base_url

    @property
    def concurrency(self) -> int:
        return self.system.max_concurrency or self.default_concurrency

    # --- request defaults -------------------------------------------------------------------------
    def temperature(self, request: ChatRequest) -> float | None:
        return request.temperature if request.temperature is not None else self.system.temperature

    def max_tokens(self, request: ChatRequest) -> int:
        """The request's max_tokens when set explicitly, else the system's max_output_tokens."""
        if "max_tokens" in request.model_fields_set:
            return request.max_tokens
        return self.system.max_output_tokens

    def seed(self, request: ChatRequest) -> int | None:
        return request.seed if request.seed is not None else self.system.seed

    def params(self, request: ChatRequest) -> dict[str, Any]:
        """System params overlaid with request params (request wins)."""
        return {**self.system.params, **request.params}

    def extra_params(self, request: ChatRequest) -> dict[str, Any]:
        """Params to pass through to the provider untouched (everything benger does not interpret)."""
        return {k: v for k, v in self.params(request).items() if k not in RESERVED_PARAMS}

    def timeout(self, request: ChatRequest) -> float | None:
        value = request.timeout_s if request.timeout_s is not None else self.params(request).get("timeout_s")
        return float(value) if value is not None else None

    # --- the call ---------------------------------------------------------------------------------
    async def _prepare(self) -> None:
        """Set up what the first call needs (the loop's SDK client) outside the latency measurement."""
        if self.uses_client:
            self._client()

    @abstractmethod
    async def _call(self, request: ChatRequest) -> ChatResponse:
        """One attempt: send the request, map the reply (or raise a ProviderError)."""

    async def complete(self, request: ChatRequest) -> ChatResponse:
        """Send ``request`` under the endpoint limit with the retry policy; record latency, cost, retries."""
        attempts = 0

        async def attempt() -> ChatResponse:
            nonlocal attempts
            attempts += 1
            await self._prepare()
            async with call_slot(self._endpoint, self.concurrency):
                started = time.perf_counter()
                response = await self._call(request)
                response.latency_s = time.perf_counter() - started
            return response

        try:
            response = await retry_async(self.policy, attempt)
        except ProviderError as exc:
            exc.retries = max(0, attempts - 1)
            raise
        response.retries = attempts - 1
        if response.model is None:
            response.model = self.system.model
        response.cost_usd = compute_cost(response.usage, self.system.price_in_per_mtok, self.system.price_out_per_mtok)
        return response

    async def aclose(self) -> None:
        """Close the running loop's SDK client; clients of other (finished) loops are dropped."""
        client = self._clients.pop(asyncio.get_running_loop(), None)
        self._clients.clear()
        if client is not None:
            await self._close_client(client)

    async def _close_client(self, client: Any) -> None:
        await client.close()
