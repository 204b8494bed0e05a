"""Where records are committed (``persist``) and how executors are found (``make_executor``)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest

from benger.errors import ConfigError
from benger.pipeline import LocalExecutor, make_executor, register_executor
from benger.pipeline._writer import persist


@dataclass
class _Store:
    inline_writes: bool
    threads: list[str] = field(default_factory=list)
    batches: list[list[int]] = field(default_factory=list)  # the records saved inside each write_batch()
    _open: list[int] | None = None

    def save(self, record: int) -> int:
        self.threads.append(threading.current_thread().name)
        if self._open is not None:
            self._open.append(record)
        return record * 2

    @contextmanager
    def write_batch(self) -> Iterator[None]:
        self._open = []
        try:
            yield
        finally:
            self.batches.append(self._open)
            self._open = None


def _writer_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("benger-store-writer")]


@pytest.mark.parametrize("inline", [True, False])
def test_local_executor_commits_every_record_and_leaves_no_writer_thread(inline: bool) -> None:
    store = _Store(inline_writes=inline)
    results: dict[int, object] = {}

    async def work(unit: int) -> int:
        return await persist(store, store.save, unit)

    async def main() -> None:
        await LocalExecutor(concurrency=4).map(list(range(20)), work, results.__setitem__)

    asyncio.run(main())
    assert results == {unit: unit * 2 for unit in range(20)}
    if inline:  # SQLite: on the loop's own thread, the records of one loop turn in one batch
        assert set(store.threads) == {threading.main_thread().name}
        # 4 + 1 (prefetch) workers start together and save at once: units 0-4 in one batch, then the next 5, ...
        assert store.batches == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14], [15, 16, 17, 18, 19]]
    else:  # PostgreSQL: one writer thread for the whole map, gone afterwards
        assert len(set(store.threads)) == 1 and store.threads[0].startswith("benger-store-writer")
    assert _writer_threads() == []


def test_persist_outside_a_run_uses_a_thread_and_still_commits_when_cancelled() -> None:
    store = _Store(inline_writes=False)
    started = threading.Event()
    release = threading.Event()

    def slow_save(record: int) -> int:
        started.set()
        release.wait(5)
        return store.save(record)

    async def main() -> None:
        task = asyncio.ensure_future(persist(store, slow_save, 7))
        await asyncio.to_thread(started.wait, 5)
        task.cancel()
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        await asyncio.sleep(0.05)

    asyncio.run(main())
    assert len(store.threads) == 1  # the shielded save finished


def test_registered_executor_is_used_and_unknown_names_are_refused() -> None:
    calls: list[tuple[int, object, object]] = []

    made = LocalExecutor(5)

    def factory(concurrency: int, config: object, store: object) -> LocalExecutor:
        calls.append((concurrency, config, store))
        return made

    register_executor("recording", factory)
    assert make_executor("recording", 3, config="cfg", store="db") is made
    assert calls == [(3, "cfg", "db")]
    assert isinstance(make_executor("local", 2), LocalExecutor)
    with pytest.raises(ConfigError, match="unknown executor 'nope'"):
        make_executor("nope", 1)


def test_celery_without_the_workers_package_names_the_extra() -> None:
    """The pipeline alone (no benger.workers imported) refuses ``celery`` with the install hint."""
    script = (
        "import sys\n"
        "from benger.errors import ConfigError\n"
        "from benger.pipeline import make_executor\n"
        "assert 'benger.workers' not in sys.modules\n"
        "try:\n"
        "    make_executor('celery', 1, config=object(), store=object())\n"
        "except ConfigError as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "pip install benger[workers]" in done.stdout


def test_importing_the_workers_registers_celery() -> None:
    pytest.importorskip("celery")
    import benger.workers

    with pytest.raises(ConfigError, match="needs the run config and its store"):
        make_executor("celery", 1)
    assert benger.workers.celery_executor is not None
