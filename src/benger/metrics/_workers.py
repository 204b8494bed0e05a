"""Batches of one metric scored in worker processes (``benger metrics --workers N``, issue 26).

A batch is one metric over some (candidate, reference) pairs with fixed options; its values depend only on
those pairs (pairwise metrics, IDF fitted on the corpus given in the options), so the values are the same
whichever process computes them and in whatever order the batches finish, up to float32 rounding (torch's sums
may run in another order at another thread count or BLAS kernel: the last bits, ~1e-7 relative).
With one worker the batches run in this process; with more, in a ``ProcessPoolExecutor`` of spawned processes
(spawn: the parent may already hold torch's threads) whose initialiser sets torch's threads so that
workers x threads <= the usable cores. Each worker loads the encoder once (``_encoder.load_encoder`` is cached
per process). The workers ignore SIGINT: on Ctrl-C the parent terminates them and re-raises, the stored
batches stay (the caller saves each one as it arrives), a rerun skips them.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from benger.metrics._api import EmbeddingOptions, MetricValue, compute

#: the variables BLAS / OpenMP read for their thread count when a worker's libraries load
_THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


@dataclass(frozen=True)
class Batch:
    """One metric over some pairs (already chosen: the caller knows which targets they belong to)."""

    metric: str
    options: EmbeddingOptions
    candidates: tuple[str, ...]
    references: tuple[str, ...]
    #: time the batch without loading models first: a warm-up pair is scored before the clock starts
    timed: bool = False


@dataclass(frozen=True)
class BatchResult:
    """The values of a batch (``index`` into its pairs) and the seconds scoring took (after any warm-up)."""

    values: list[MetricValue]
    seconds: float


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the OS tells it, else ``os.cpu_count()``)."""
    if hasattr(os, "sched_getaffinity"):
        return max(len(os.sched_getaffinity(0)), 1)
    return os.cpu_count() or 1


def threads_per_worker(workers: int, cores: int) -> int:
    """Torch threads of each of ``workers`` processes: ``cores // workers``, at least 1."""
    return max(cores // max(workers, 1), 1)


def score_batch(batch: Batch) -> BatchResult:
    """Score one batch in this process (the worker's task; also the one-worker path)."""
    if batch.timed:  # load the encoder (or USE) before the clock starts: the sample measures scoring only
        compute(["Probe."], ["Probe."], [batch.metric], embedding=batch.options, workers=1)
    start = time.perf_counter()
    values = compute(list(batch.candidates), list(batch.references), [batch.metric], embedding=batch.options, workers=1)
    return BatchResult(values, time.perf_counter() - start)


def _init_worker(threads: int) -> None:
    """Spawned worker: SIGINT ignored (the parent stops it), ``threads`` threads for torch and BLAS."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for name in _THREAD_VARIABLES:
        os.environ[name] = str(threads)
    try:
        import torch
    except ImportError:  # semantic similarity alone needs no torch
        return
    torch.set_num_threads(threads)


class BatchRunner:
    """Runs batches in ``workers`` processes (1: in this process); use as a context manager."""

    def __init__(self, workers: int = 1, cores: int | None = None) -> None:
        self.workers = max(workers, 1)
        self.threads = threads_per_worker(self.workers, cores or usable_cores())
        self._pool: ProcessPoolExecutor | None = None
        self._before: set[Any] = set()

    def __enter__(self) -> BatchRunner:
        return self

    def __exit__(self, kind: type[BaseException] | None, *_: object) -> None:
        self.close(terminate=kind is not None)

    def run(self, batches: Iterable[Batch]) -> Iterator[tuple[int, BatchResult]]:
        """(position in ``batches``, result) of every batch, each as soon as it is done (any order)."""
        items = list(batches)
        if self.workers == 1:
            for i, batch in enumerate(items):
                yield i, score_batch(batch)
            return
        pool = self._start()
        pending: dict[Future[BatchResult], int] = {}
        queue = iter(enumerate(items))
        # a bounded number in flight: a Ctrl-C drops little queued work and memory holds few batches' texts
        for i, batch in _take(queue, 2 * self.workers):
            pending[pool.submit(score_batch, batch)] = i
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                i = pending.pop(future)
                for j, batch in _take(queue, 1):
                    pending[pool.submit(score_batch, batch)] = j
                yield i, future.result()

    def _start(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._before = set(multiprocessing.active_children())
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
                initargs=(self.threads,),
            )
        return self._pool

    def close(self, terminate: bool = False) -> None:
        """Shut the pool down; with ``terminate`` (an error or Ctrl-C) the workers are stopped mid-batch."""
        if self._pool is None:
            return
        if terminate:  # a spawn pool starts its processes as batches come: they are the children since _start
            workers = [p for p in multiprocessing.active_children() if p not in self._before]
            for process in workers:
                process.terminate()
            for process in workers:
                process.join(timeout=2)
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._pool = None


def _take(queue: Iterator[tuple[int, Batch]], n: int) -> list[tuple[int, Batch]]:
    out = []
    for item in queue:
        out.append(item)
        if len(out) == n:
            break
    return out


def estimate_seconds(sample: dict[str, tuple[float, int]], words: dict[str, int], workers: int) -> dict[str, float]:
    """Seconds per metric for ``words`` still to score, from a measured ``sample`` (metric -> (seconds, words)),
    shared by ``workers`` processes. Metrics without a sample or with nothing left are left out."""
    out: dict[str, float] = {}
    for metric, left in words.items():
        seconds, sampled = sample.get(metric, (0.0, 0))
        if left and sampled:
            out[metric] = seconds / sampled * left / max(workers, 1)
    return out


def pair_words(candidates: Sequence[str], references: Sequence[str]) -> int:
    """Candidate + reference words of some pairs (whitespace-separated), what the estimate scales with."""
    return sum(len(c.split()) + len(r.split()) for c, r in zip(candidates, references, strict=True))
