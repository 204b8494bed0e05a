"""Celery tasks wrapping the core's units of work (``execute_generation`` / ``execute_judgement`` / ``score_target``).

Each task: open the store (cached per process and URL), return the stored record if the unit is already
done (a redelivered message never pays twice), take the unit's Redis lease (another live delivery holds it
-> retry later), build the model once per process, wait on the shared rate limit before every call, run
the core coroutine on this process's event loop, and return the saved record as JSON.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import json
import os
import threading
import types
from typing import Any

import redis
from celery import Task
from celery.signals import worker_process_shutdown

from benger.llm import ChatModel, RetryPolicy, create_model
from benger.llm._keys import decrypt_key, supplied_keys
from benger.pipeline import (
    MIN_OUTPUT_TOKENS,
    GenerationUnit,
    JudgeUnit,
    PromptSet,
    execute_generation,
    execute_judgement,
)
from benger.pipeline._budget import BudgetGuard
from benger.schema import SystemConfig
from benger.workers._app import app
from benger.workers._keys import Record, Unit, is_done, record_id, stored_record
from benger.workers._redis import LeaseHeld, Leases, RateLimiter, redis_client
from benger.workers._settings import METRICS_QUEUE, broker_url, worker_db

# Seconds before a delivery that found its unit leased by a live worker looks again.
LEASE_RETRY_COUNTDOWN = 2.0
# A delivery that cannot reach Redis for its lease tries again this often (about a minute in all); counted in
# the payload (``redis_failures``), so the unlimited lease waits never use this budget up, nor the reverse.
REDIS_RETRY_COUNTDOWN = 2.0
REDIS_MAX_RETRIES = 30

_cache: dict[str, Any] = {}
_thread = threading.local()
_states: list[Any] = []  # every thread's loop and models (``_per_thread``), for ``close_models``
_states_lock = threading.Lock()


def _per_process() -> dict[str, Any]:
    """Caches that must not cross a fork (engines, Redis sockets): reset in each child process."""
    if _cache.get("pid") != os.getpid():
        _cache.clear()
        _cache.update(pid=os.getpid(), stores={}, prompts={})
    return _cache


def _per_thread() -> Any:
    """The event loop and the models bound to it: one per thread (``--pool threads``) and per process, each
    registered for :func:`close_models`."""
    state = getattr(_thread, "state", None)
    if state is None or state.pid != os.getpid():
        state = _thread.state = types.SimpleNamespace(pid=os.getpid(), loop=None, models={})
        with _states_lock:
            _states.append(state)
    return state


def close_models() -> None:
    """Close every thread's models of this process on their own loop, then the loops: at the worker process's end
    (celery's ``worker_process_shutdown``, and at interpreter exit). Their SDK clients (aiohttp sessions) were
    left to the interpreter's exit before, "Unclosed client session" / "Unclosed connector" on stderr."""
    with _states_lock:
        mine = [state for state in _states if state.pid == os.getpid()]
        _states[:] = [state for state in _states if state.pid != os.getpid()]
    for state in mine:
        loop, models = state.loop, list(state.models.values())
        state.models.clear()
        if loop is None or loop.is_closed() or loop.is_running():  # a loop still running belongs to a live thread
            continue
        for model in models:
            with contextlib.suppress(Exception):  # one model that fails to close must not keep the others open
                loop.run_until_complete(model.aclose())
        loop.close()


atexit.register(close_models)
worker_process_shutdown.connect(lambda **_: close_models(), weak=False)


def _loop() -> asyncio.AbstractEventLoop:
    local = _per_thread()
    if local.loop is None or local.loop.is_closed():
        local.loop = asyncio.new_event_loop()
    loop: asyncio.AbstractEventLoop = local.loop
    return loop


def _store(db: str) -> Any:
    from benger.store import open_store

    stores = _per_process()["stores"]
    if db not in stores:
        stores[db] = open_store(db)
    return stores[db]


def _prompts(spec: dict[str, Any]) -> PromptSet:
    """The run's PromptSet from a payload: ``PromptSet.options()`` (or, from older senders, only overrides)."""
    cache = _per_process()["prompts"]
    key = json.dumps(spec, sort_keys=True)
    if key not in cache:
        cache[key] = PromptSet.from_options(spec) if "overrides" in spec else PromptSet(overrides=dict(spec))
    prompts: PromptSet = cache[key]
    return prompts


def _redis() -> tuple[RateLimiter, Leases]:
    clients = _per_process().setdefault("redis", {})
    url = broker_url()
    if url not in clients:
        client = redis_client(url)
        clients[url] = (RateLimiter(client), Leases(client))
    pair: tuple[RateLimiter, Leases] = clients[url]
    return pair


def _model(system: SystemConfig, retry: dict[str, float], sealed: dict[str, str] | None = None) -> ChatModel:
    """The model of ``system`` (one per thread and settings); ``sealed``: an organisation's API keys (name ->
    ciphertext under BENGER_SECRET_KEY), decrypted only to build the model, which keeps them for its calls."""
    models: dict[Any, ChatModel] = _per_thread().models
    keys = tuple(sorted((sealed or {}).items()))
    key = (system.config_hash(), system.requests_per_minute, system.tokens_per_minute, tuple(sorted(retry.items())),
           keys)  # fmt: skip
    if key not in models:
        policy = RetryPolicy(**retry) if retry else None  # type: ignore[arg-type]
        with supplied_keys({name: decrypt_key(token) for name, token in keys}):
            model = create_model(system, policy=policy)
        if system.requests_per_minute or system.tokens_per_minute:
            # the same limiter as the local executor's, its buckets in Redis: shared by every worker
            model.rate_limiter, _ = _redis()
        models[key] = model
    return models[key]


def _reask(options: dict[str, Any]) -> RetryPolicy:
    retries = options.get("reask_max_retries")
    return RetryPolicy(max_retries=int(retries if retries is not None else 3), initial_wait=0.0, jitter=0.0)


def run_unit(task: Task, unit: Unit, payload: dict[str, Any]) -> dict[str, Any]:
    """The body shared by the generation and judging tasks; returns the stored record's JSON."""
    db = worker_db() or payload["db"]
    store = _store(db)
    prompts = _prompts(payload.get("prompts") or {})
    options: dict[str, Any] = payload.get("options") or {}
    since = payload.get("since")
    existing = stored_record(store, unit, prompts)
    if is_done(existing, since):
        assert existing is not None
        return existing.model_dump(mode="json")
    _, leases = _redis()
    try:
        with leases.hold(record_id(store, unit, prompts)):
            existing = stored_record(store, unit, prompts)  # another delivery may have finished meanwhile
            if is_done(existing, since):
                assert existing is not None
                return existing.model_dump(mode="json")
            record: Record
            if isinstance(unit, GenerationUnit):
                model = _capped(store, options, unit.system)
                record = _loop().run_until_complete(
                    execute_generation(
                        unit,
                        store,
                        model,
                        prompts,
                        reask_policy=_reask(options),
                        min_output_tokens=int(options.get("min_output_tokens", MIN_OUTPUT_TOKENS)),
                    )
                )
            else:
                model = _capped(store, options, unit.judge)
                coro = execute_judgement(unit, store, model, prompts, reask_policy=_reask(options))
                record = _loop().run_until_complete(coro)
            return record.model_dump(mode="json")
    except LeaseHeld:
        # Waiting for a live lease holder is not a failure: no budget (Celery reads ``max_retries=None`` as
        # "the task's default", so the tasks themselves are declared with ``max_retries=None``: unlimited).
        raise task.retry(countdown=LEASE_RETRY_COUNTDOWN) from None
    except (redis.ConnectionError, redis.TimeoutError) as exc:  # Redis away (lease or rate limit): try later
        failures = int(payload.get("redis_failures", 0)) + 1  # its own budget, apart from the lease waits
        if failures > REDIS_MAX_RETRIES:
            raise
        retry_payload = {**payload, "redis_failures": failures}
        raise task.retry(args=(retry_payload,), exc=exc, countdown=REDIS_RETRY_COUNTDOWN) from None


def _capped(store: Any, options: dict[str, Any], system: SystemConfig) -> Any:
    """The model of ``system``, under the run's budget caps when it has any (``options["budget"]``: the
    ledger row in the store that the run's sender and all its workers count in)."""
    model = _model(system, options.get("retry") or {}, options.get("api_keys"))
    budget = options.get("budget")
    if budget is None:
        return model
    return BudgetGuard.of_ledger(store, str(budget)).guard_model(model, system)


@app.task(name="benger.generate", bind=True, max_retries=None)
def generate(self: Task, payload: dict[str, Any]) -> dict[str, Any]:
    """Generate one item (a :class:`GenerationUnit`); returns the saved Generation as JSON."""
    return run_unit(self, GenerationUnit.model_validate(payload["unit"]), payload)


@app.task(name="benger.judge", bind=True, max_retries=None)
def judge(self: Task, payload: dict[str, Any]) -> dict[str, Any]:
    """Judge one item (a :class:`JudgeUnit`); returns the saved Judgement as JSON."""
    return run_unit(self, JudgeUnit.model_validate(payload["unit"]), payload)


@app.task(name="benger.metrics", bind=True, queue=METRICS_QUEUE)
def metrics(self: Task, payload: dict[str, Any]) -> dict[str, float]:
    """Score one target (``target_kind``, ``target_id``; optional ``metrics``); returns the values written.

    Idempotent without a lease: values already stored under the current signature are skipped, and a
    duplicate delivery racing this one only overwrites the same key with the same value.
    """
    from benger.metrics import score_target

    store = _store(worker_db() or payload["db"])
    return score_target(store, payload["target_kind"], payload["target_id"], payload.get("metrics"))
