"""benger's embedded model against raw llama-cpp-python on the same GGUF, prompt and settings (issue 26).

For each load condition (quiet; N competing CPU-bound processes, started first and left to raise the load
average for ``--warm-s`` seconds) and each thread count (1, 2 and benger's default ``auto``) it times, call
against call in alternation (raw, benger, raw, benger, ...):

* generation: one Falllösung prompt of the demo corpus, greedy, ``--max-tokens`` tokens, the KV cache emptied
  before each call so every call evaluates the whole prompt; raw = ``Llama.create_chat_completion``, benger =
  ``LocalChatModel.complete`` (retry policy, lock, per-call threads and seed, abort callback, reply mapping);
* judging (``--judge``): the demo judge's real request (rubric prompt of ~3,300 tokens, schema fill); raw = the
  engine's own cost of the same work: the chat prompt evaluated once and as many tokens decoded as benger's fill
  produced (``create_completion`` with EOS suppressed).

Prints a table (wall s per call, median of ``--repeats``; tokens/s; benger / raw) and the load averages; the
targets: benger / raw <= 1.1 at every row, auto under load within 1.25x of the better of 1 and 2 threads.

    python benchmarks/bench_local.py --repeats 3 --busy 2 --judge
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

SPIN = "while True: pass"


def loadavg() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def demo_messages() -> tuple[list[dict[str, str]], str, str]:
    """(generation messages, judge prompt, candidate): the first Falllösung task of the built-in demo corpus."""
    from benger.corpora import load_demo_corpus
    from benger.pipeline._demo import demo_config
    from benger.pipeline._execute import task_and_reference
    from benger.pipeline._orchestrate import run_prompts
    from benger.pipeline._units import rubric_for_kind

    cfg = demo_config()
    prompts = run_prompts(cfg)
    corpus = load_demo_corpus("demo-falloesung")
    task = corpus.tasks[0]
    messages = [{"role": m.role, "content": m.content} for m in prompts.generation_messages(task)]
    text, reference = task_and_reference(task)
    candidate = reference[: len(reference) // 2] if reference else "Der Anspruch besteht."
    rubric = rubric_for_kind("falloesung")
    prompt = prompts.judge_template(rubric.name).render(
        rubric, task=text, reference=reference, candidate=candidate, brief=True
    )
    return messages, prompt, json.dumps(prompts.judge_schema(rubric))


class Raw:
    """Raw llama-cpp-python with fixed threads (the reference)."""

    def __init__(self, path: str, n_ctx: int, threads: int) -> None:
        from llama_cpp import Llama

        self.llama = Llama(
            model_path=path,
            n_ctx=n_ctx,
            n_threads=threads,
            n_threads_batch=threads,
            flash_attn=False,  # benger's default (benger.llm._llama.LlamaKey)
            seed=0,
            verbose=False,
        )

    def generate(self, messages: list[dict[str, str]], max_tokens: int) -> tuple[float, int]:
        self.llama.reset()
        start = time.perf_counter()
        out = self.llama.create_chat_completion(
            messages=messages, max_tokens=max_tokens, temperature=0.0, seed=0, repeat_penalty=1.3
        )
        return time.perf_counter() - start, int(out["usage"]["completion_tokens"])

    def judge(self, prompt_text: str, n_out: int) -> float:
        self.llama.reset()
        eos = self.llama.token_eos()
        start = time.perf_counter()
        self.llama.create_completion(
            prompt=prompt_text, max_tokens=n_out, temperature=0.0, seed=0, logit_bias={eos: float("-inf")}
        )
        return time.perf_counter() - start


class Benger:
    """benger's local provider with ``n_threads`` (an int or "auto")."""

    def __init__(self, model: str, n_ctx: int, threads: int | str) -> None:
        from benger.llm import load_catalog
        from benger.llm._local import LocalChatModel

        base = load_catalog().system(model)
        params = {**base.params, "n_ctx": n_ctx, "n_threads": threads}
        self.system = base.model_copy(update={"params": params})
        self.model = LocalChatModel(self.system)
        self.judge_system = self.system.model_copy(
            update={"params": {**params, "structured_output": "fill"}, "temperature": 0.0, "max_output_tokens": 700}
        )
        self.judge_model = LocalChatModel(self.judge_system)

    def _reset(self) -> None:
        from benger.llm._llama import load_llama

        load_llama(self.model.key).llama.reset()

    def generate(self, messages: list[dict[str, str]], max_tokens: int) -> tuple[float, int]:
        from benger.llm import ChatMessage, ChatRequest

        self._reset()
        request = ChatRequest(
            messages=[ChatMessage(**m) for m in messages],  # type: ignore[arg-type]
            max_tokens=max_tokens,
            temperature=0.0,
            seed=0,
            params={"repeat_penalty": 1.3},
        )
        start = time.perf_counter()
        reply = asyncio.run(self.model.complete(request))
        return time.perf_counter() - start, reply.usage.output_tokens

    def judge(self, prompt: str, schema: dict[str, Any]) -> tuple[float, int, str]:
        from benger.llm import ChatMessage, ChatRequest

        self._reset()
        request = ChatRequest(
            messages=[ChatMessage(role="user", content=prompt)],
            max_tokens=700,
            temperature=0.0,
            seed=0,
            json_schema=schema,
            schema_name="benger_judgement",
        )
        start = time.perf_counter()
        reply = asyncio.run(self.judge_model.complete(request))
        return time.perf_counter() - start, reply.usage.output_tokens, reply.text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen2.5-coder-0.5b-instruct")
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument("--max-tokens", type=int, default=96)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--busy", type=int, default=2, help="competing CPU-bound processes in the loaded condition")
    parser.add_argument("--warm-s", type=float, default=20.0, help="seconds the competitors run before timing")
    parser.add_argument("--judge", action="store_true", help="also time the demo judge (schema fill)")
    parser.add_argument("--conditions", default="quiet,busy")
    parser.add_argument("--threads", default="1,2,auto")
    args = parser.parse_args()

    from benger.llm._fill import chat_prompt
    from benger.llm._local import model_path

    path = str(model_path(args.model))
    messages, judge_prompt, schema_json = demo_messages()
    schema = json.loads(schema_json)
    print(f"# {args.model} ({path}); {os.cpu_count()} CPUs; load average at start {loadavg()}")
    print("condition  threads  what      raw s  benger s  ratio   raw tok/s  benger tok/s  load average")
    results: dict[tuple[str, str, str], dict[str, float]] = {}
    for condition in args.conditions.split(","):
        procs: list[subprocess.Popen[bytes]] = []
        if condition == "busy":
            procs = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(args.busy)]
            time.sleep(args.warm_s)
        try:
            for threads in args.threads.split(","):
                raw = Raw(path, args.n_ctx, int(threads)) if threads != "auto" else None
                ben = Benger(args.model, args.n_ctx, threads if threads == "auto" else int(threads))
                judge_text = chat_prompt(ben_llama(ben), [{"role": "user", "content": judge_prompt}]) or ""
                ben.generate(messages, 8)  # pages the weights in
                if raw is not None:
                    raw.generate(messages, 8)
                gen: dict[str, list[tuple[float, int]]] = {"raw": [], "benger": []}
                jdg: dict[str, list[tuple[float, int]]] = {"raw": [], "benger": []}
                for _ in range(args.repeats):
                    if raw is not None:
                        gen["raw"].append(raw.generate(messages, args.max_tokens))
                    gen["benger"].append(ben.generate(messages, args.max_tokens))
                    if args.judge:
                        wall, n_out, _text = ben.judge(judge_prompt, schema)
                        jdg["benger"].append((wall, n_out))
                        if raw is not None:
                            jdg["raw"].append((raw.judge(judge_text, n_out), n_out))
                for what, runs in (("generate", gen), ("judge", jdg)):
                    if not runs["benger"]:
                        continue
                    row = {k: statistics.median(w for w, _ in v) for k, v in runs.items() if v}
                    tokens = {k: statistics.median(n for _, n in v) for k, v in runs.items() if v}
                    results[(condition, threads, what)] = row
                    r = row.get("raw")
                    print(
                        f"{condition:<10} {threads:<8} {what:<9} {r if r else float('nan'):6.2f} {row['benger']:9.2f} "
                        f"{(row['benger'] / r) if r else float('nan'):6.2f} "
                        f"{(tokens['raw'] / r) if r else float('nan'):10.1f} {tokens['benger'] / row['benger']:13.1f}"
                        f"  {loadavg()}",
                        flush=True,
                    )
                if raw is not None:
                    raw.llama.close()
        finally:
            for proc in procs:
                proc.kill()
                proc.wait()
    for condition in args.conditions.split(","):
        for what in ("generate", "judge"):
            best = [results[(condition, t, what)]["raw"] for t in ("1", "2") if (condition, t, what) in results]
            auto = results.get((condition, "auto", what))
            if best and auto:
                print(
                    f"{condition}: {what} with auto threads {auto['benger']:.2f} s = "
                    f"{auto['benger'] / min(best):.2f}x the better of raw 1 and 2 threads ({min(best):.2f} s)"
                )
    print(f"# load average at end {loadavg()}")


def ben_llama(ben: Benger) -> Any:
    from benger.llm._llama import load_llama

    return load_llama(ben.model.key).llama


if __name__ == "__main__":
    main()
