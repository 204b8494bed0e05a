"""Where a unit's record is committed: on the event loop (SQLite) or on the run's one writer thread.

The pipeline sees the store only through ``WritableStore`` (``inline_writes``, ``write_batch`` and the
save method it is handed); the writer thread belongs to one ``LocalExecutor.map`` call (``writer_thread()``),
which shuts it down when its units are done, so no thread outlives the run. Inside such a call the SQLite
writes (records and claim releases) of one turn of the event loop commit together at the next turn
(``GroupWriter``: one transaction instead of one per write).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: The writer thread of the running ``LocalExecutor.map`` (None outside one: a Celery task, a test).
_run_writer: ContextVar[ThreadPoolExecutor | None] = ContextVar("benger_run_writer", default=None)


class WritableStore(Protocol):
    """What ``persist`` needs to know about a store (``benger.store.Store`` has it).

    ``inline_writes``: True when a commit is a local file append (SQLite WAL, ~0.5 ms CPU, no network), cheap
    enough to run on the event loop; False when a commit is a network round trip (PostgreSQL).
    ``write_batch()``: the store's writes of this thread inside the block commit together at its end; a
    write that fails raises to its caller and undoes only itself; a lost transaction raises at the exit.
    """

    @property
    def inline_writes(self) -> bool: ...
    def write_batch(self) -> AbstractContextManager[None]: ...


class GroupWriter:
    """The inline writes of one run on one store: those submitted during a turn of the event loop run in
    one ``store.write_batch()`` at the next turn, and each caller's future resolves once they are committed.

    A write that fails inside the batch, and every write of a batch whose transaction is lost, runs again on
    its own after the batch, so each caller gets the result or the error it would get unbatched. A caller
    cancelled while it waits does not cancel its write. Measured with ``benchmarks/bench_runner.py``: see
    CHANGELOG (issue 18).
    """

    def __init__(self, store: WritableStore, loop: asyncio.AbstractEventLoop) -> None:
        self.store = store
        self._loop = loop
        self._ops: list[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]] = []
        self._handle: asyncio.Handle | None = None
        self.batches = 0  # batches committed (for tests and benchmarks)

    def submit(self, fn: Callable[..., R], *args: Any) -> asyncio.Future[R]:
        """``fn(*args)`` in the next batch; the future resolves after its commit."""
        future: asyncio.Future[R] = self._loop.create_future()
        self._ops.append((fn, args, future))
        if self._handle is None:
            self._handle = self._loop.call_soon(self.flush)
        return future

    def flush(self) -> None:
        """Run and commit the submitted writes now (also on the run's exit, for any still pending)."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        ops, self._ops = self._ops, []
        if not ops:
            return
        done: list[tuple[asyncio.Future[Any], Any]] = []
        alone: list[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]]] = []
        try:
            with self.store.write_batch():
                for fn, args, future in ops:
                    try:
                        done.append((future, fn(*args)))
                    except Exception:
                        alone.append((fn, args, future))
            self.batches += 1
        except Exception:  # the transaction is lost: nothing of it is stored, so every write runs alone
            done, alone = [], ops
        for future, value in done:
            if not future.done():
                future.set_result(value)
        for fn, args, future in alone:
            try:
                value = fn(*args)
            except Exception as exc:
                if not future.done():
                    future.set_exception(exc)
            else:
                if not future.done():
                    future.set_result(value)


#: The GroupWriters of the running ``LocalExecutor.map`` by ``id(store)`` (None outside one).
_run_groups: ContextVar[dict[int, GroupWriter] | None] = ContextVar("benger_run_groups", default=None)


def group_writer(store: WritableStore) -> GroupWriter | None:
    """The run's GroupWriter for an inline store (created on first use); None outside a run or for a store
    whose writes are not inline."""
    groups = _run_groups.get()
    if groups is None or not store.inline_writes:
        return None
    group = groups.get(id(store))
    if group is None or group.store is not store:
        group = groups[id(store)] = GroupWriter(store, asyncio.get_running_loop())
    return group


@contextmanager
def writer_thread() -> Iterator[ThreadPoolExecutor]:
    """One single-thread writer for the units started inside the block, and the block's GroupWriters; on
    exit the writer is shut down (waiting) and writes still pending are committed."""
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="benger-store-writer")
    token = _run_writer.set(writer)
    groups: dict[int, GroupWriter] = {}
    group_token = _run_groups.set(groups)
    try:
        yield writer
    finally:
        _run_groups.reset(group_token)
        _run_writer.reset(token)
        writer.shutdown(wait=True)  # a cancelled unit's shielded save still commits before the run returns
        for group in groups.values():
            group.flush()


async def persist(store: WritableStore, save: Callable[[T], R], record: T) -> R:
    """Run ``save(record)`` (one committed transaction); the unit finishes only once its record is committed.

    Inline stores commit on the loop: measured, a writer thread cost 1.5-2.5 ms more CPU per call (GIL
    hand-offs) at concurrency 64. Other stores commit on the run's writer thread (``writer_thread``), or,
    outside a run, on asyncio's default thread pool; the loop keeps serving the other in-flight calls and a
    cancelled unit still commits.
    """
    if store.inline_writes:
        group = group_writer(store)
        return save(record) if group is None else await group.submit(save, record)
    loop = asyncio.get_running_loop()
    return await asyncio.shield(loop.run_in_executor(_run_writer.get(), save, record))
