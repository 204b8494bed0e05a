"""Launching, cancelling and resuming workbench runs: ``benger run``'s pipeline in a thread of the server.

A run's thread reads its row (config YAML, organisation), decrypts the organisation's keys into the run's own
context (``benger.llm._keys.supplied_keys``), and runs ``run_config`` with the executor the server was started
with: ``local`` (the in-process asyncio executor, the model calls made here) or ``celery`` (the calls made by
``benger worker`` processes; this thread only dispatches and collects). Cancel stops the run without paying
twice: in-process, every call not yet made is refused (saved ``failed`` with the reason ``cancelled``) while
the calls in flight finish and are saved; on Celery the queued tasks are revoked and those running finish and
are saved. Resume launches the same config again: the store's finished results are planned out, so nothing
finished is paid again (the row's ``reused`` counts them). A server that stopped while runs ran marks them
``interrupted`` when it starts again (:meth:`RunLauncher.recover`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select

from benger.errors import BengerError
from benger.llm import ChatRequest, ProviderError
from benger.llm._keys import supplied_keys
from benger.pipeline import RunConfig, load_run_corpora, run_config
from benger.pipeline._budget import BudgetGuard, guarded_factory
from benger.schema import SystemConfig
from benger.store import Store
from benger.store._base import utcnow
from benger.study._workbench_models import ACTIVE_STATES, WorkbenchRun
from benger.web.runs._keys import open_keys, sealed_keys
from benger.web.runs._progress import run_progress
from benger.web.runs._setup import parse_web_config

_LOG = logging.getLogger(__name__)
EXECUTORS = ("local", "celery")


class RunCancelled(ProviderError):
    """A call refused because its run was cancelled; a resume makes it."""


@dataclass
class _CancelGuard(BudgetGuard):
    """The run's budget caps, and a refusal of every call once the run is cancelled."""

    cancelled: threading.Event = field(default_factory=threading.Event)

    def check(self, system: SystemConfig, request: ChatRequest) -> tuple[int, float]:
        if self.cancelled.is_set():
            raise RunCancelled("cancelled: the run was cancelled before this call (resume makes it)")
        return super().check(system, request)


@dataclass
class _Handle:
    thread: threading.Thread | None = None
    guard: _CancelGuard = field(default_factory=_CancelGuard)
    loop: asyncio.AbstractEventLoop | None = None
    task: asyncio.Future[Any] | None = None


class RunLauncher:
    """The server's runs in flight (one thread each); ``executor``: ``local`` or ``celery``."""

    def __init__(self, store: Store, executor: str = "local") -> None:
        if executor not in EXECUTORS:
            raise BengerError(f"unknown run executor {executor!r}; expected one of {', '.join(EXECUTORS)}")
        self.store = store
        self.executor = executor
        self._handles: dict[int, _Handle] = {}
        self._lock = threading.Lock()

    def alive(self, run_id: int) -> bool:
        handle = self._handles.get(run_id)
        return handle is not None and handle.thread is not None and handle.thread.is_alive()

    def launch(self, run_id: int) -> bool:
        """Start (or resume) run ``run_id`` in a new thread; False when it is running already."""
        with self._lock:
            if self.alive(run_id):
                return False
            handle = _Handle()
            handle.thread = threading.Thread(target=self._body, args=(run_id, handle), name=f"benger-run-{run_id}",
                                             daemon=True)  # fmt: skip
            self._handles[run_id] = handle
            self._set(run_id, status="queued", message=None, finished_at=None)
            handle.thread.start()
            return True

    def cancel(self, run_id: int) -> bool:
        """Ask run ``run_id`` to stop; False when it is not running in this server."""
        handle = self._handles.get(run_id)
        if handle is None or not self.alive(run_id):
            return False
        handle.guard.cancelled.set()
        self._set(run_id, status="cancelling")
        if self.executor == "celery" and handle.loop is not None and handle.task is not None:
            handle.loop.call_soon_threadsafe(handle.task.cancel)
        return True

    def join(self, run_id: int, timeout: float | None = None) -> None:
        handle = self._handles.get(run_id)
        if handle is not None and handle.thread is not None:
            handle.thread.join(timeout)

    def recover(self) -> int:
        """Mark the runs left active by a server that stopped as ``interrupted`` (resume continues them)."""
        with self.store.session() as session:
            rows = list(session.scalars(select(WorkbenchRun).where(WorkbenchRun.status.in_(ACTIVE_STATES))))
            for row in rows:
                if not self.alive(row.id):
                    row.status, row.finished_at = "interrupted", utcnow()
                    row.message = "the server stopped while this run ran; resume continues it"
            return len(rows)

    # --- the run's thread ------------------------------------------------------------------------------
    def _set(self, run_id: int, **values: Any) -> None:
        with self.store.session() as session:
            row = session.get(WorkbenchRun, run_id)
            if row is not None:
                for key, value in values.items():
                    setattr(row, key, value)

    def _body(self, run_id: int, handle: _Handle) -> None:
        status, message = "failed", None
        try:
            with self.store.session() as session:
                row = session.get(WorkbenchRun, run_id)
                if row is None:
                    return
                text, org, launches = row.config_yaml, row.organisation_id, row.launches
                sealed = sealed_keys(session, org)
            config = parse_web_config(text, f"run-{run_id}.yaml").model_copy(update={"executor": self.executor})
            with supplied_keys(open_keys(sealed), sealed if self.executor == "celery" else None):
                status, message = self._execute(run_id, config, handle, launches)
        except BengerError as exc:
            message = str(exc)
        except Exception as exc:  # a bug: the row says so, the log has the traceback
            _LOG.exception("workbench run %s failed", run_id)
            message = f"internal error: {type(exc).__name__}"
        finally:
            self._set(run_id, status=status, message=message, finished_at=utcnow())

    def _execute(self, run_id: int, config: RunConfig, handle: _Handle, launches: int) -> tuple[str, str | None]:
        if self.executor == "celery":
            import benger.workers  # noqa: F401  (registers the celery executor)
            from benger.workers._settings import check_settings

            check_settings()
        _check_models(config)
        corpora = load_run_corpora(self.store, config.corpora)
        reused = run_progress(self.store, config, corpora).finished
        self._set(run_id, status="running", started_at=utcnow(), reused=reused, launches=launches + 1)
        guard = handle.guard
        guard.max_cost, guard.max_tokens = config.budget.max_cost, config.budget.max_tokens
        factory = guarded_factory(config, guard)
        with guard.bound(self.store):  # the ledger row the workers' calls are counted in too
            try:
                result = asyncio.run(self._main(config, factory, handle))
            except asyncio.CancelledError:
                return "cancelled", "cancelled; resume continues the run"
            refused = guard.refused
        if guard.cancelled.is_set():
            return "cancelled", "cancelled; resume continues the run"
        if result.complete:
            return "finished", None
        notes = []
        if refused:
            notes.append(f"budget cap reached: {refused} call(s) not made")
        left = ", ".join(f"{stage} {n}" for stage, n in result.remaining.items() if n)
        if left:
            notes.append(f"items failed or remain ({left}); resume continues them")
        if result.excluded:
            notes.append(f"{sum(result.excluded.values())} generation(s) excluded")
        return "incomplete", "; ".join(notes) or None

    async def _main(self, config: RunConfig, factory: Any, handle: _Handle) -> Any:
        handle.loop = asyncio.get_running_loop()
        handle.task = asyncio.ensure_future(run_config(config, self.store, model_factory=factory))
        if handle.guard.cancelled.is_set() and self.executor == "celery":
            handle.task.cancel()
        return await handle.task


def _check_models(config: RunConfig) -> None:
    """Build (and drop) every remote model first, as ``benger run`` does: a missing key or SDK is one message."""
    from benger.llm import create_model

    systems = config.resolved_systems()
    if config.filters.systems:
        systems = [s for s in systems if s.name in config.filters.systems]
    models = [*systems, *config.resolved_judges()]
    for system in models:
        if system.provider != "local":
            create_model(system)
    if config.budget.max_cost is not None:  # as benger run --max-cost: refused before any call, not per item
        from benger.pipeline._estimate import _cost

        unpriced = list(dict.fromkeys(m.name for m in models if _cost(m, 1, 1) is None))
        if unpriced:
            raise BengerError(
                f"the cost cap needs prices, and {', '.join(unpriced)} has none (price_in_per_mtok / "
                "price_out_per_mtok): set them, or cap the run's tokens instead"
            )
