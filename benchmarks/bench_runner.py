"""Runner throughput against the stub server with a fixed latency.

The stub runs as its own process (its CPU is not the client's). The client plans and runs N generation
units at concurrency C through the real pipeline (prompt rendering, OpenAI SDK over HTTP, parsing,
SQLite commit per item) and reports:

- achieved calls/s and its ratio to the ideal C / latency (target >= 95 %),
- client CPU time per call (process CPU seconds / calls, every thread; target < 2 ms),
- the mean time a call spent in the SDK (the stub's latency plus client and stub overhead).

One wave of C calls warms the connections up before the measurement (a long run opens them once).
``--pin`` puts the stub and the client on different CPU cores (on a 2-core machine they otherwise
share both with everything else). ``--repeats`` runs the measurement several times and reports each
run and the median.

``--in-process`` replaces the stub and the SDK by a model in the client that sleeps the latency and
returns a fixed valid Falllösung (~1,300 characters, 300 output tokens): what is left is the runner's own
work per call (claim, prompt, parsing, record, save, release), with no HTTP stack or second process, so it
is less sensitive to a loaded machine.

    python benchmarks/bench_runner.py --calls 3840 --concurrency 64 --latency-ms 200 --pin --repeats 3
    python benchmarks/bench_runner.py --calls 3840 --concurrency 64 --latency-ms 200 --in-process --repeats 3
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benger.llm import ChatRequest, ChatResponse, Usage
from benger.llm._limits import run_call_slots
from benger.pipeline import LocalExecutor, ModelPool, PromptSet, plan_generations, run_generations
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


_SENTENCE = "A. Anspruch des K gegen V aus §§ 437 Nr. 3, 280 Abs. 1 BGB. "
_REPLY = json.dumps({"loesung": _SENTENCE * 22}, ensure_ascii=False)


class _InProcessModel:
    """A ChatModel without HTTP: sleeps the latency, answers ``_REPLY`` (300 output tokens)."""

    name = "in-process"

    def __init__(self, latency_s: float) -> None:
        self.latency_s = latency_s

    async def complete(self, request: ChatRequest) -> ChatResponse:
        slots = run_call_slots.get()  # the run's call slots, as the provider models take them
        async with slots if slots is not None else contextlib.nullcontext():
            await asyncio.sleep(self.latency_s)
        usage = Usage(input_tokens=400, output_tokens=300)
        return ChatResponse(text=_REPLY, finish_reason="stop", usage=usage, latency_s=self.latency_s)

    async def aclose(self) -> None:
        pass


async def _run(base_url: str, args: argparse.Namespace, db: Path) -> dict[str, float]:
    store = open_store(db)
    corpus = _corpus(args.calls + args.concurrency)
    store.add_corpus(corpus)
    system = SystemConfig(name="stub", provider="openai-compatible", model="stub", base_url=base_url,
                          temperature=0.0, max_concurrency=args.concurrency, max_output_tokens=4000,
                          params={"http_client": args.http_client})  # fmt: skip
    prompts = PromptSet()
    warm_tasks, tasks = corpus.tasks[: args.concurrency], corpus.tasks[args.concurrency :]
    # shared: the measured run reuses the warm connections
    if args.in_process:
        model = _InProcessModel(args.latency_ms / 1000.0)
        pool = ModelPool(lambda _system: model, concurrency=args.concurrency)
    else:
        pool = ModelPool(concurrency=args.concurrency)

    def executor() -> LocalExecutor:
        return LocalExecutor(args.concurrency, prefetch=args.prefetch)

    warm = plan_generations(store, warm_tasks, [system], prompts)
    await run_generations(store, warm, prompts=prompts, executor=executor(), models=pool)
    units = plan_generations(store, tasks, [system], prompts)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    stats = await run_generations(
        store, units, prompts=prompts, executor=executor(), models=pool, tasks={t.task_id: t for t in tasks}
    )  # the tasks in hand, as run_config passes them
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    await pool.aclose()
    measured = {t.task_id for t in tasks}
    gens = [g for g in store.generations(system="stub") if g.task_id in measured]
    latencies = [g.latency_s for g in gens if g.latency_s is not None]
    store.close()
    return {
        "calls": stats.done,
        "ok": stats.counts.get("ok", 0),
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        "mean_call_latency_ms": round(1000 * statistics.mean(latencies), 1),
    }


def _measure(args: argparse.Namespace) -> dict[str, Any]:
    if args.in_process:
        with tempfile.TemporaryDirectory() as tmp:
            return _rates(args, asyncio.run(_run("http://127.0.0.1:9/v1", args, Path(tmp) / "b.db")))
    port = _free_port()
    stub = subprocess.Popen(
        [sys.executable, "-m", "benger.testing.stub_server", "--port", str(port), "--latency-ms", str(args.latency_ms)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        if args.pin:
            os.sched_setaffinity(stub.pid, {1})
            os.sched_setaffinity(0, {0})
        assert stub.stdout is not None
        stub.stdout.readline()
        with tempfile.TemporaryDirectory() as tmp:
            result = asyncio.run(_run(f"http://127.0.0.1:{port}/v1", args, Path(tmp) / "b.db"))
    finally:
        stub.terminate()
        stub.wait(timeout=10)
        if args.pin:
            os.sched_setaffinity(0, range(os.cpu_count() or 1))
    return _rates(args, result)


def _rates(args: argparse.Namespace, result: dict[str, float]) -> dict[str, Any]:
    ideal = args.concurrency / (args.latency_ms / 1000.0)
    achieved = result["calls"] / result["wall_s"]
    return {
        **result,
        "achieved_calls_per_s": round(achieved, 1),
        "ratio_of_ideal": round(achieved / ideal, 3),
        "client_cpu_ms_per_call": round(1000 * result["cpu_s"] / result["calls"], 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--calls", type=int, default=3840, help="measured calls (default: 60 round trips per slot)")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--prefetch", type=int, default=None, help="units prepared beyond the calls in flight")
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--pin", action="store_true", help="stub on CPU 1, client on CPU 0")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--in-process", action="store_true", help="no stub, no SDK: the runner's own work only")
    parser.add_argument("--http-client", choices=("aiohttp", "httpx"), default="aiohttp",
                        help="the SDK's transport (the system's params.http_client)")  # fmt: skip
    args = parser.parse_args()
    if args.pin and args.in_process:
        parser.error("--pin pins the stub server; --in-process has none")
    if args.pin and (os.cpu_count() or 1) < 2:
        parser.error("--pin needs at least 2 CPUs")
    runs = [_measure(args) for _ in range(args.repeats)]
    report = {
        "concurrency": args.concurrency,
        "prefetch": LocalExecutor(args.concurrency, prefetch=args.prefetch).prefetch,
        "latency_ms": args.latency_ms,
        "pinned": args.pin,
        "in_process": args.in_process,
        "http_client": args.http_client,
        "ideal_calls_per_s": round(args.concurrency / (args.latency_ms / 1000.0), 1),
        "runs": runs,
        "median_ratio_of_ideal": statistics.median(r["ratio_of_ideal"] for r in runs),
        "median_client_cpu_ms_per_call": statistics.median(r["client_cpu_ms_per_call"] for r in runs),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
