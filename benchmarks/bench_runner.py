"""Runner throughput against the stub server with a fixed latency.

The stub runs as its own process (its CPU is not the client's). The client plans and runs N generation
units at concurrency C through the real pipeline (prompt rendering, OpenAI SDK over HTTP, parsing,
SQLite commit per item) and reports:

- achieved calls/s and its ratio to the ideal C / latency (target >= 95 %),
- client CPU time per call (process CPU seconds / calls; target < 2 ms).

    python benchmarks/bench_runner.py --calls 1280 --concurrency 64 --latency-ms 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benger.pipeline import LocalExecutor, PromptSet, plan_generations, run_generations
from benger.schema import Corpus, FalloesungTask, SystemConfig
from benger.store import open_store


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _corpus(n: int) -> Corpus:
    tasks = [
        FalloesungTask(task_id=f"bench-{i:05d}", corpus="bench", area="Zivilrecht",
                       facts=f"Sachverhalt {i}: K verlangt von V Schadensersatz wegen eines Mangels.",
                       reference="Musterlösung: §§ 437 Nr. 3, 280 Abs. 1 BGB.")
        for i in range(n)
    ]  # fmt: skip
    return Corpus(name="bench", tasks=tasks)


async def _run(base_url: str, calls: int, concurrency: int, db: Path) -> dict[str, float]:
    store = open_store(db)
    corpus = _corpus(calls)
    store.add_corpus(corpus)
    system = SystemConfig(name="stub", provider="openai-compatible", model="stub", base_url=base_url,
                          temperature=0.0, max_concurrency=concurrency, max_output_tokens=4000)  # fmt: skip
    prompts = PromptSet()
    units = plan_generations(store, corpus.tasks, [system], prompts)
    # warm up: one call (client creation, first connection) outside the measurement
    warm = plan_generations(store, corpus.tasks[:1], [system.model_copy(update={"seed": 1})], prompts)
    await run_generations(store, warm, prompts=prompts, executor=LocalExecutor(1))
    cpu0, wall0 = time.process_time(), time.perf_counter()
    stats = await run_generations(
        store, units, prompts=prompts, executor=LocalExecutor(concurrency), tasks={t.task_id: t for t in corpus.tasks}
    )  # the tasks in hand, as run_config passes them
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    store.close()
    return {"calls": stats.done, "ok": stats.counts.get("ok", 0), "wall_s": wall, "cpu_s": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=1280)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency-ms", type=float, default=200.0)
    args = parser.parse_args()
    port = _free_port()
    stub = subprocess.Popen(
        [sys.executable, "-m", "benger.testing.stub_server", "--port", str(port), "--latency-ms", str(args.latency_ms)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        assert stub.stdout is not None
        stub.stdout.readline()
        with tempfile.TemporaryDirectory() as tmp:
            result = asyncio.run(_run(f"http://127.0.0.1:{port}/v1", args.calls, args.concurrency, Path(tmp) / "b.db"))
    finally:
        stub.terminate()
        stub.wait(timeout=10)
    ideal = args.concurrency / (args.latency_ms / 1000.0)
    achieved = result["calls"] / result["wall_s"]
    report = {
        **result,
        "concurrency": args.concurrency,
        "latency_ms": args.latency_ms,
        "ideal_calls_per_s": round(ideal, 1),
        "achieved_calls_per_s": round(achieved, 1),
        "ratio_of_ideal": round(achieved / ideal, 3),
        "client_cpu_ms_per_call": round(1000 * result["cpu_s"] / result["calls"], 3),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
