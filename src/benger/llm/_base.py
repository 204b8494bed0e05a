"""Shared machinery of every provider: the retry policy, the endpoint limit, latency, cost and defaults."""

from __future__ import annotations

import asyncio
import time
import weakref
from abc import ABC, abstractmethod
from typing import Any

from benger.llm._errors import ProviderError, RateLimitError, TransientError
from benger.llm._limits import (
    DEFAULT_REMOTE_CONCURRENCY,
    LOCAL_RATE_LIMITER,
    call_accepted,
    call_slot,
    endpoint_key,
    pause_endpoint,
    wait_for_endpoint,
)
from benger.llm._protocol import ChatRequest, ChatResponse, Usage
from benger.llm._retry import RetryPolicy, retry_async
from benger.llm._tokens import estimate_tokens
from benger.schema import SystemConfig

# keys of SystemConfig.params / ChatRequest.params that benger interprets itself (never sent to a provider)
RESERVED_PARAMS = frozenset(
    {
        "structured_output",
        "max_tokens_param",
        "timeout_s",
        "read_timeout_s",
        "n_ctx",
        "n_batch",
        "n_threads",
        "n_threads_batch",
        "flash_attn",
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
        #: reserves requests_per_minute / tokens_per_minute (a Celery worker sets the Redis-backed one)
        self.rate_limiter: Any = LOCAL_RATE_LIMITER

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
        """The call's deadline in seconds (``timeout_s``: connection to last byte), None for none."""
        value = request.timeout_s if request.timeout_s is not None else self.params(request).get("timeout_s")
        return float(value) if value is not None else None

    def read_timeout(self, request: ChatRequest) -> float | None:
        """The SDK's timeout between two reads (``params.read_timeout_s``, else the deadline)."""
        value = self.params(request).get("read_timeout_s")
        return float(value) if value is not None else self.timeout(request)

    @property
    def rate_key(self) -> str:
        """The bucket of ``requests_per_minute`` / ``tokens_per_minute``: provider family, base URL, model."""
        return f"{self._endpoint[0]}|{self._endpoint[1]}|{self.system.model}"

    async def _rate_limit(self, request: ChatRequest) -> None:
        """Wait for the system's per-minute budget (requests_per_minute, tokens_per_minute)."""
        waits = []
        if self.system.requests_per_minute:
            waits.append(self.rate_limiter.reserve(self.rate_key, self.system.requests_per_minute))
        if self.system.tokens_per_minute:
            prompt = sum(estimate_tokens(m.content) for m in request.messages)
            waits.append(
                self.rate_limiter.reserve(self.rate_key + "|tokens", self.system.tokens_per_minute, amount=prompt)
            )
        if waits and max(waits) > 0:
            await asyncio.sleep(max(waits))

    async def _within_deadline(self, request: ChatRequest) -> ChatResponse:
        """``_call`` bounded by the deadline: a reply that trickles in past it is a TransientError."""
        deadline = self.timeout(request)
        if deadline is None:
            return await self._call(request)
        try:
            async with asyncio.timeout(deadline):
                return await self._call(request)
        except TimeoutError:
            raise TransientError(
                f"{self.name}: no complete reply within the deadline of {deadline:g} s (timeout_s)",
                provider=self.name,
            ) from None

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
            await self._rate_limit(request)
            async with call_slot(self._endpoint, self.concurrency):
                await wait_for_endpoint(self._endpoint)  # a 429's pause, then the pace learnt from it
                started = time.perf_counter()
                try:
                    response = await self._within_deadline(request)
                except RateLimitError as exc:
                    if exc.retry_after:
                        pause_endpoint(self._endpoint, min(exc.retry_after, self.policy.max_retry_after))
                    raise
                response.latency_s = time.perf_counter() - started
                call_accepted(self._endpoint)
            if self.system.tokens_per_minute and response.usage.output_tokens:
                # the reply's tokens are charged after the fact (the bucket may go negative: later calls wait)
                self.rate_limiter.reserve(
                    self.rate_key + "|tokens", self.system.tokens_per_minute, amount=response.usage.output_tokens
                )
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
