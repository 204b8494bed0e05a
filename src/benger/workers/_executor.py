"""``CeleryExecutor``: the pipeline's Executor that runs units as Celery tasks on any number of workers.

The store is the source of truth: a unit is reported done only once its record is in the store. If Redis
vanishes (connection errors, or a restarted server that lost its queues), the executor waits a bounded time
for it, then re-enqueues every unit the store does not hold yet (safe: leases and unique store keys); if
Redis stays away it raises a BengerError naming how many units are unfinished.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

import redis
from celery import Celery
from kombu.exceptions import OperationalError

from benger._console import console as new_console
from benger.errors import BengerError, ConfigError
from benger.pipeline import PromptSet, run_prompts
from benger.workers._keys import Unit, is_done, stored_record, unit_kind
from benger.workers._redis import redis_client
from benger.workers._settings import (
    GENERATION_QUEUE,
    JUDGING_QUEUE,
    broker_url,
    recovery_seconds,
    worker_wait_seconds,
)

U = TypeVar("U")
R = TypeVar("R")
TASK_NAMES = {"generation": ("benger.generate", GENERATION_QUEUE), "judgement": ("benger.judge", JUDGING_QUEUE)}
_CONNECTION_ERRORS = (redis.ConnectionError, redis.TimeoutError, OperationalError, ConnectionError, OSError)
_CHUNK = 500


class _BrokerLost(Exception):
    """Redis went away or came back empty."""


def store_url(store: Any) -> str:
    """The store's URL with its password, as workers need it (``Store.url`` hides the password)."""
    return str(store.engine.url.render_as_string(hide_password=False))


class CeleryExecutor:
    """Enqueue each unit on its queue (generation / judging) and report results as workers finish them."""

    name = "celery"

    def __init__(
        self,
        store: Any,
        *,
        prompts: PromptSet | dict[str, str] | None = None,
        options: dict[str, Any] | None = None,
        app: Celery | None = None,
        poll_s: float = 0.25,
        recovery_s: float | None = None,
        worker_wait_s: float | None = None,
    ) -> None:
        if app is None:  # built now, so the broker is the one the environment names at this moment
            from benger.workers._app import create_app

            app = create_app()
        self.store = store
        self.db = store_url(store)
        # a PromptSet (all of the run's prompt options) or only template overrides
        self.prompt_set = prompts if isinstance(prompts, PromptSet) else PromptSet(overrides=dict(prompts or {}))
        self.prompts = self.prompt_set.options()  # sent with every task: the worker rebuilds the same PromptSet
        self.options = dict(options or {})
        self.app = app
        self.poll_s = poll_s
        self.recovery_s = recovery_s if recovery_s is not None else recovery_seconds()
        self.worker_wait_s = worker_wait_s if worker_wait_s is not None else worker_wait_seconds()
        self._redis = redis_client(broker_url())
        self._server_id: str | None = None

    @classmethod
    def for_run(cls, config: Any, store: Any) -> CeleryExecutor:
        """The executor for a RunConfig: its prompts (overrides and options), retry budget and minimum length."""
        retry = config.retry
        options = {
            "min_output_tokens": config.min_output_tokens,
            "reask_max_retries": retry.max_retries,
            "retry": {"max_retries": retry.max_retries, "initial_wait": retry.initial_wait, "max_wait": retry.max_wait},
        }
        from benger.llm._keys import sealed_for_workers

        sealed = sealed_for_workers()  # an organisation's keys (workbench runs): ciphertext only, never in clear
        if sealed:
            options["api_keys"] = sealed
        from benger.pipeline._budget import active_budget

        budget = active_budget()  # the run's caps (its store's ledger row): every worker's calls count there
        if budget is not None:
            options["budget"] = budget
        return cls(store, prompts=run_prompts(config), options=options)

    # --- Redis health --------------------------------------------------------------------------------
    def _current_server(self) -> str:
        info = self._redis.info("server")
        return str(info.get("run_id", ""))

    def _check_server(self) -> None:
        """Raise _BrokerLost when Redis is unreachable or is a new server (restarted: its queues are gone)."""
        try:
            current = self._current_server()
        except _CONNECTION_ERRORS as exc:
            raise _BrokerLost(str(exc)) from exc
        if self._server_id is None:
            self._server_id = current
        elif current != self._server_id:
            raise _BrokerLost("Redis was restarted")

    async def _wait_for_redis(self, units: list[Unit], since: float) -> None:
        deadline = time.monotonic() + self.recovery_s
        while True:
            try:
                self._server_id = self._current_server()
                return
            except _CONNECTION_ERRORS as exc:
                if time.monotonic() >= deadline:
                    unfinished = sum(not is_done(stored_record(self.store, u, self.prompt_set), since) for u in units)
                    raise BengerError(
                        f"Redis at {broker_url()} is unreachable and did not come back within {self.recovery_s:g} s "
                        f"({exc}); {unfinished} unit(s) are unfinished. Every finished unit is saved in the store: "
                        "run the same command again (with the workers and Redis up) to resume them."
                    ) from None
            await asyncio.sleep(1.0)

    def _warn_without_workers(self) -> None:
        """Say so when no worker answers: the units then wait in Redis until ``benger worker`` starts."""
        try:
            replies = self.app.control.ping(timeout=1.0)
        except _CONNECTION_ERRORS:
            return  # the main loop reports an unreachable Redis
        if not replies:
            new_console(stderr=True).print(
                f"[yellow]warning[/yellow]: no benger worker answers on {broker_url()}; the units wait in the "
                "queue until one starts (benger worker --queues generation,judging)"
            )

    def _consumed_queues(self) -> set[str] | None:
        """The queues some live worker consumes (None when the broker cannot be asked)."""
        try:
            replies = self.app.control.inspect(timeout=1.0).active_queues() or {}
        except _CONNECTION_ERRORS:
            return None
        return {q.get("name", "") for queues in replies.values() for q in (queues or [])}

    def _orphans(self, pending: dict[str, Unit]) -> dict[str, str]:
        """Pending task ids whose queue no live worker consumes -> that queue."""
        consumed = self._consumed_queues()
        if consumed is None:
            return {}
        queues = {tid: TASK_NAMES[unit_kind(unit)][1] for tid, unit in pending.items()}
        return {tid: q for tid, q in queues.items() if q not in consumed}

    # --- sending and polling ---------------------------------------------------------------------------
    def _payload(self, unit: Unit, since: float) -> dict[str, Any]:
        return {
            "unit": unit.model_dump(mode="json"),
            "db": self.db,
            "prompts": self.prompts,
            "options": self.options,
            "since": since,
        }

    def _send(self, unit: Unit, since: float) -> str:
        name, queue = TASK_NAMES[unit_kind(unit)]
        result = self.app.send_task(name, args=[self._payload(unit, since)], queue=queue)
        return str(result.id)

    def _poll(self, ids: list[str]) -> dict[str, dict[str, Any]]:
        """Finished task ids -> their result meta (SUCCESS or FAILURE), read in bulk from the result backend."""
        backend: Any = self.app.backend
        found: dict[str, dict[str, Any]] = {}
        for start in range(0, len(ids), _CHUNK):
            chunk = ids[start : start + _CHUNK]
            values = backend.mget([backend.get_key_for_task(tid) for tid in chunk])
            for tid, value in zip(chunk, values, strict=True):
                if value is None:
                    continue
                meta = backend.decode_result(value)
                if meta.get("status") in ("SUCCESS", "FAILURE"):
                    found[tid] = meta
        return found

    def _settle(self, unit: Unit, meta: dict[str, Any], since: float) -> Any:
        """The stored record for a finished task (never a record the store does not hold), or the exception."""
        if meta["status"] == "FAILURE":
            exc = self.app.backend.exception_to_python(meta.get("result"))
            return exc if isinstance(exc, BaseException) else BengerError(str(exc))
        record = stored_record(self.store, unit, self.prompt_set)
        if record is None or not is_done(record, since):
            return BengerError(
                f"a worker reported {unit_kind(unit)} done but the store at {self.store.url} has no record for it; "
                "do the workers use the same --db?"
            )
        return record

    async def _recover(
        self, pending: dict[str, Unit], todo: list[Unit], since: float, on_done: Callable[[Any, Any], None]
    ) -> None:
        """After Redis came back: units the store holds are reported done, the rest go back to ``todo``."""
        await self._wait_for_redis([*pending.values(), *todo], since)
        for unit in pending.values():
            record = stored_record(self.store, unit, self.prompt_set)
            if is_done(record, since):
                on_done(unit, record)
            else:
                todo.append(unit)
        pending.clear()

    async def map(
        self,
        units: Sequence[U],
        work: Callable[[U], Awaitable[R]],
        on_done: Callable[[U, R | BaseException], None],
    ) -> None:
        """Run every unit on the workers (``work`` is the local path and is not used here)."""
        if not units:
            return
        since = time.time()
        try:
            self._server_id = self._current_server()
        except _CONNECTION_ERRORS as exc:
            raise ConfigError(
                f"cannot reach the broker at {broker_url()} (set BENGER_BROKER_URL), nothing was enqueued: {exc}"
            ) from None
        self._warn_without_workers()
        pending: dict[str, Unit] = {}
        todo: list[Unit] = list(reversed(units))  # type: ignore[arg-type]
        done: Callable[[Any, Any], None] = on_done
        while True:
            try:
                self._check_server()
                while todo:
                    pending[self._send(todo[-1], since)] = todo[-1]
                    todo.pop()
                progress = time.monotonic()
                while pending:
                    finished = self._poll(list(pending))
                    for tid, meta in finished.items():
                        unit = pending.pop(tid)
                        done(unit, self._settle(unit, meta, since))
                        self.app.backend.forget(tid)
                    if finished:
                        progress = time.monotonic()
                    elif pending and time.monotonic() - progress >= self.worker_wait_s:
                        self._give_up_orphans(pending, done)
                        progress = time.monotonic()
                    if pending:
                        await asyncio.sleep(self.poll_s)
                        self._check_server()
                return
            except asyncio.CancelledError:  # the run was cancelled: workers drop the messages not yet started
                self._revoke(list(pending))
                raise
            except (_BrokerLost, *_CONNECTION_ERRORS):
                await self._recover(pending, todo, since, done)

    def _revoke(self, task_ids: list[str]) -> None:
        """Revoke queued tasks (a cancelled run); a task already running finishes and is stored (never paid
        twice: the next run reuses it)."""
        if task_ids:
            with contextlib.suppress(*_CONNECTION_ERRORS):
                self.app.control.revoke(task_ids)

    def _give_up_orphans(self, pending: dict[str, Unit], done: Callable[[Any, Any], None]) -> None:
        """After a wait without progress: the units of a queue no worker consumes end as errors (the run is
        incomplete, exit 3; running the same command again, with a worker, resumes them)."""
        orphans = self._orphans(pending)
        for queue in sorted(set(orphans.values())):
            new_console(stderr=True).print(
                f"[red]error[/red]: no worker is consuming queue {queue!r} on {broker_url()} (waited "
                f"{self.worker_wait_s:g} s); start one (benger worker --queues {queue}) and run the same command "
                "again to resume"
            )
        for tid, queue in orphans.items():
            unit = pending.pop(tid)
            done(unit, BengerError(f"no worker is consuming queue {queue!r}"))


def celery_executor(concurrency: int, config: Any, store: Any) -> CeleryExecutor:
    """The pipeline's ``celery`` executor factory (``register_executor``); ``concurrency`` is the workers' own."""
    del concurrency  # each worker process sets its own (``benger worker --concurrency``)
    if config is None or store is None:
        raise ConfigError("the celery executor needs the run config and its store")
    return CeleryExecutor.for_run(config, store)
