"""The local provider's thread choice (benger.llm._llama): no llama.cpp needed."""

from __future__ import annotations

import hashlib
import threading
import time

import pytest

from benger.errors import ConfigError
from benger.llm import _llama
from benger.llm._llama import LoadMonitor, auto_threads, call_threads, parse_threads
from benger.schema import SystemConfig


@pytest.mark.parametrize(
    ("cpus", "other", "expected"),
    [
        (2, 0.0, 2),  # quiet 2-core laptop: both cores
        (2, 0.3, 2),
        (2, 0.6, 1),  # most of a core taken: 2 spinning threads would wait on the descheduled one
        (2, 1.0, 1),
        (2, 2.0, 1),  # the case: 2 competing CPU-bound processes
        (2, 7.5, 1),  # never 0
        (8, 3.0, 5),
        (8, -1.0, 8),  # a negative estimate counts as no load
        (1, 0.0, 1),
    ],
)
def test_auto_threads_uses_the_cores_other_processes_leave_free(cpus: int, other: float, expected: int) -> None:
    assert auto_threads(cpus, other) == expected


@pytest.mark.parametrize(("value", "expected"), [(None, None), ("auto", None), (1, 1), ("2", 2), (16, 16)])
def test_parse_threads_accepts_auto_and_positive_integers(value: object, expected: int | None) -> None:
    assert parse_threads(value, "n_threads") == expected


@pytest.mark.parametrize("value", [0, -1, "0", "two", 1.5, "1.5", True, "", [2]])
def test_parse_threads_refuses_anything_else_naming_the_field(value: object) -> None:
    with pytest.raises(ConfigError, match=r"^system 'x': params.n_threads: expected a positive integer or 'auto'"):
        parse_threads(value, "system 'x': params.n_threads")


def test_explicit_threads_apply_to_prompt_evaluation_too(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_llama, "_OVERRIDE", _llama._Override())
    assert call_threads(1, None) == (1, 1)  # llama.cpp's own default would evaluate the prompt on every CPU
    assert call_threads(1, 3) == (1, 3)


def test_auto_follows_the_load_and_the_override_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_llama, "_OVERRIDE", _llama._Override())
    monkeypatch.setattr(_llama, "available_cpus", lambda: 2)
    monkeypatch.setattr(_llama, "physical_cores", lambda: 2)
    monkeypatch.setattr(_llama.LOAD, "other_load", lambda: 2.0)
    assert call_threads(None, None) == (1, 1)
    monkeypatch.setattr(_llama.LOAD, "other_load", lambda: 0.0)
    assert call_threads(None, None) == (2, 2)
    _llama.set_threads_override(1)
    assert call_threads(2, 2) == (1, 1)  # --threads 1 over a system's params
    _llama.set_threads_override(None)
    assert call_threads(1, None) == (2, 2)  # --threads auto over a system's n_threads: 1


def test_load_monitor_subtracts_its_own_cpu_use(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = {"wall": 0.0, "cpu": 0.0}
    monkeypatch.setattr(_llama.time, "monotonic", lambda: clock["wall"])
    monkeypatch.setattr(_llama.time, "process_time", lambda: clock["cpu"])
    monitor = LoadMonitor()
    # two threads busy for 10 minutes: the decayed estimate reaches 2 cores, as the kernel's 1-minute average does
    clock.update(wall=600.0, cpu=1200.0)
    assert monitor.own_load() == pytest.approx(2.0, abs=1e-3)
    monkeypatch.setattr(_llama.os, "getloadavg", lambda: (2.4, 2.0, 1.0))
    monkeypatch.setattr(_llama, "_running_now", lambda: 3)  # 3 others runnable right now
    assert monitor.other_load() == pytest.approx(0.4, abs=1e-3)
    monkeypatch.setattr(_llama, "_running_now", lambda: 0)  # nobody else right now: the average's 0.4 is stale
    assert monitor.other_load() == 0


@pytest.mark.parametrize(
    ("average", "own", "running", "threads"),
    [
        (1.9, 0.0, 0, 2),  # just started after another process ended: the average lags, nothing runs now
        (1.0, 0.0, 0, 2),  # our own 1-thread call of a minute ago, before our estimate caught up
        (2.1, 0.05, 2, 1),  # two competing CPU-bound processes: both readings see them
        (2.0, 1.0, 1, 1),  # one competitor beside our own 1 core
        (0.3, 0.0, 2, 2),  # a burst of the moment the average does not show
    ],
)
def test_both_readings_must_see_the_load(
    monkeypatch: pytest.MonkeyPatch, average: float, own: float, running: int, threads: int
) -> None:
    monkeypatch.setattr(_llama, "_OVERRIDE", _llama._Override())
    monkeypatch.setattr(_llama, "available_cpus", lambda: 2)
    monkeypatch.setattr(_llama, "physical_cores", lambda: 2)
    monkeypatch.setattr(_llama.os, "getloadavg", lambda: (average, average, average))
    monkeypatch.setattr(_llama.LOAD, "own_load", lambda: own)
    monkeypatch.setattr(_llama, "_running_now", lambda: running)
    assert call_threads(None, None) == (threads, threads)


def test_thread_counts_are_not_part_of_the_system_identity() -> None:
    base = SystemConfig(name="q", provider="local", model="qwen2.5-0.5b-instruct", params={"n_ctx": 4096})
    fast = base.model_copy(update={"params": {"n_ctx": 4096, "n_threads": 1, "n_threads_batch": 2}})
    assert fast.config_hash() == base.config_hash()  # a rerun with --threads continues the same run
    other = base.model_copy(update={"params": {"n_ctx": 8192}})
    assert other.config_hash() != base.config_hash()


def test_our_own_runnable_threads_are_not_counted_as_other_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two threads of ours hashing (hashlib releases the GIL: both runnable at once) are our load, not others'.
    Before, only the reader was subtracted, so the demo's judge on a quiet 2-core machine chose 1 thread."""
    stop = threading.Event()

    def busy() -> None:
        data = b"x" * 40_000_000  # ~20 ms a hash, without the GIL
        while not stop.is_set():
            hashlib.sha256(data).digest()

    workers = [threading.Thread(target=busy, daemon=True) for _ in range(2)]
    for worker in workers:
        worker.start()
    try:
        time.sleep(0.05)
        assert max(_llama._own_running() for _ in range(20)) >= 2  # the reader and at least one hashing thread
        # the machine runs exactly this process's three threads: no other process is runnable
        monkeypatch.setattr(_llama, "_machine_running", lambda: 3)
        assert _llama._running_now() == 0  # was 2 (3 less the reader)
        monkeypatch.setattr(_llama, "_machine_running", lambda: 5)
        assert _llama._running_now() == 2
    finally:
        stop.set()
        for worker in workers:
            worker.join()
