"""Throughput of ``--executor celery`` with 1, 2 and 4 worker processes against the stub (fixed latency).

Each worker process runs one unit at a time, so the ideal is ``workers / latency`` calls per second; the
script prints calls/s and the ratio to that ideal (a Markdown table for docs/workers.md). Needs the local
PostgreSQL (a database ``benger_bench_<uuid8>`` is created and dropped) and Redis (databases 7 and 8).

    .venv/bin/python benchmarks/bench_workers.py --latency-ms 500 --units-per-worker 12
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
import redis

from benger.pipeline import RunConfig, run_config
from benger.schema import Corpus, PrincipleItem
from benger.store import open_store
from benger.testing.stub_server import run_stub_server

BENGER = Path(sys.executable).with_name("benger")
BROKER, RESULTS = "redis://127.0.0.1:6379/7", "redis://127.0.0.1:6379/8"


@contextmanager
def pg_database() -> Iterator[str]:
    name = f"benger_bench_{uuid.uuid4().hex[:8]}"
    with psycopg.connect("host=127.0.0.1 user=postgres dbname=postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def workers(n: int, log_dir: Path) -> Iterator[None]:
    env = {**os.environ, "BENGER_BROKER_URL": BROKER, "BENGER_RESULT_BACKEND": RESULTS}
    procs = []
    for i in range(n):
        log = (log_dir / f"worker-{n}-{i}.log").open("wb")
        args = [str(BENGER), "worker", "--queues", "generation", "--concurrency", "1", "--name", f"bench{i}@%h"]
        procs.append(subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True))
    try:
        for i in range(n):
            while b"ready." not in (log_dir / f"worker-{n}-{i}.log").read_bytes():
                if procs[i].poll() is not None:
                    raise RuntimeError(f"worker {i} exited; see {log_dir}")
                time.sleep(0.2)
        yield
    finally:
        for proc in procs:
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            proc.wait(timeout=30)


def corpus(n: int) -> Corpus:
    items = [
        PrincipleItem(task_id=f"b-{i:04d}", corpus="bench", area="Zivilrecht", case=f"Fall BENCH-{i:04d}.",
                      question="Ist der Vertrag wirksam?", gold_answer="Ja", gold_reasoning="§ 433 BGB.")
        for i in range(n)
    ]  # fmt: skip
    return Corpus(name="bench", tasks=items)


def config(base_url: str, name: str, executor: str, concurrency: int) -> RunConfig:
    system = {"name": name, "provider": "openai-compatible", "model": name, "base_url": base_url,
              "temperature": 0.0, "params": {"timeout_s": 30}}  # fmt: skip
    return RunConfig(corpora=["bench"], systems=[system], executor=executor, concurrency=concurrency)


def measure(store: object, base_url: str, name: str, executor: str, concurrency: int, units: int) -> float:
    cfg = config(base_url, name, executor, concurrency)
    cfg.filters.limit = units
    started = time.perf_counter()
    result = asyncio.run(run_config(cfg, store, stages=("generate",)))
    elapsed = time.perf_counter() - started
    stats = result.generation
    assert stats is not None and stats.counts == {"ok": units} and not stats.errors, stats
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--latency-ms", type=float, default=500.0)
    parser.add_argument("--units-per-worker", type=int, default=12)
    parser.add_argument("--workers", default="1,2,4")
    parser.add_argument("--log-dir", default="/tmp/benger-bench-workers")
    args = parser.parse_args()
    counts = [int(x) for x in args.workers.split(",")]
    latency = args.latency_ms / 1000.0
    log_dir = Path(args.log_dir)
    log_dir.mkdir(parents=True, exist_ok=True)
    for url in (BROKER, RESULTS):
        redis.Redis.from_url(url).flushdb()
    os.environ.update(BENGER_BROKER_URL=BROKER, BENGER_RESULT_BACKEND=RESULTS)
    rows = []
    with pg_database() as db, run_stub_server(latency_ms=args.latency_ms) as stub:
        store = open_store(db)
        store.add_corpus(corpus(max(counts) * args.units_per_worker))
        for n in counts:
            units = n * args.units_per_worker
            with workers(n, log_dir):
                # a short warm-up so each worker process has made its first call (lazy SDK imports)
                measure(store, stub.base_url, f"warm-{n}", "celery", n, 2 * n)
                elapsed = measure(store, stub.base_url, f"celery-{n}", "celery", n, units)
            rows.append((f"celery, {n} worker process(es)", n, units, elapsed))
        n = max(counts)
        units = n * args.units_per_worker
        elapsed = measure(store, stub.base_url, "local", "local", n, units)
        rows.append((f"local asyncio, concurrency {n} (reference)", n, units, elapsed))
        store.close()
    print(f"stub latency {args.latency_ms:g} ms; ideal = parallel calls / latency\n")
    print("| executor | units | wall s | calls/s | ideal calls/s | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for label, n, units, elapsed in rows:
        rate, ideal = units / elapsed, n / latency
        print(f"| {label} | {units} | {elapsed:.2f} | {rate:.2f} | {ideal:.2f} | {rate / ideal:.2f} |")


if __name__ == "__main__":
    main()
