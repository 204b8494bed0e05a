"""The demo judge on one Benchathon case: the case's judgement and its 3 validation picks, back to back on one
``Llama`` (as ``benger demo --release`` runs them), counting what llama.cpp actually evaluates.

Per judgement it prints the prompt's tokens, the ``create_completion`` calls of the schema fill, the prompt
tokens evaluated in batches (llama.cpp's ``n_p_eval``; of them in the first call: the judgement's own suffix
after the cached prefix), the single-token decodes (``n_eval``), the reply tokens re-evaluated after a
divergence (evaluated twice), CPU and wall seconds. ``--modes warm,cold`` runs the case twice in one process:
``warm`` as the demo does (the previous judgement's KV cache is kept), ``cold`` with the cache dropped before
every judgement (each evaluates its whole prompt); the replies must be identical (temperature 0).

    python benchmarks/bench_judge_prefix.py ../shared/benger-release --modes warm,cold
    python benchmarks/bench_judge_prefix.py ../shared/benger-release --simulate

``--simulate`` evaluates nothing: it tokenises the demo judge's prompts (Qwen's vocabulary and chat template) and
counts the prompt tokens llama-cpp-python would evaluate in a given order (each prompt less its longest common
token prefix with the previous one), for the demo's two cases and for ``validate-judge --release`` on all 45 picks
in solution id order (before) and case by case (now).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import sys
import time
from pathlib import Path
from typing import Any


class Counter:
    """Wraps ``Llama.eval`` and ``Llama.create_completion`` of one instance: per call, where the KV cache stood
    and how many tokens each eval took (the first eval of a call is its prompt suffix, later ones decodes)."""

    def __init__(self, llama: Any) -> None:
        self.llama = llama
        self.calls: list[dict[str, Any]] = []
        eval_, complete = llama.eval, llama.create_completion

        def eval_tokens(tokens: Any) -> Any:
            if self.calls:
                self.calls[-1]["evals"].append((llama.n_tokens, len(tokens)))
            return eval_(tokens)

        def create_completion(*args: Any, **kwargs: Any) -> Any:
            prompt = kwargs.get("prompt", args[0] if args else "")
            n = len(prompt) if isinstance(prompt, list) else len(llama.tokenize(prompt.encode(), special=True))
            self.calls.append({"cached_before": llama.n_tokens, "prompt": n, "evals": []})
            return complete(*args, **kwargs)

        llama.eval, llama.create_completion = eval_tokens, create_completion

    def summary(self) -> dict[str, int]:
        calls, self.calls = self.calls, []
        prompt_evals = [c["evals"][0] for c in calls if c["evals"]]
        first = prompt_evals[0][1] if prompt_evals else 0
        return {
            "calls": len(calls),
            "prompt_tokens": calls[0]["prompt"] if calls else 0,
            "suffix_first_call": first,
            "batch_evaluated": sum(n for _, n in prompt_evals),
            "decodes": sum(len(c["evals"]) - 1 for c in calls if c["evals"]),
            # tokens of the reply so far that a call evaluated again: its prompt was cut back below the end of the
            # previous call's evaluated tokens (its reply tokenised differently from what the model decoded)
            "reevaluated": sum(max(0, prev_end - start) for prev_end, start in _cutbacks(calls)),
        }


def _cutbacks(calls: list[dict[str, Any]]) -> list[tuple[int, int]]:
    out = []
    for prev, call in itertools.pairwise(calls):
        if prev["evals"] and call["evals"]:
            end = prev["evals"][-1][0] + prev["evals"][-1][1]
            out.append((end, call["evals"][0][0]))
    return out


def case_units(release_dir: Path, picks: int, case_index: int) -> tuple[Any, str, list[tuple[str, Any, str, str, str]]]:
    """The demo's judge config, the case's id and its judge prompts for one of the demo's cases: (label, rubric,
    task, reference, candidate) for a stand-in generation (a released generation not among the case's picks, cut
    to the demo system's ~400 tokens) and the case's first ``picks`` picks in the demo's order."""
    from benger.corpora import load_release
    from benger.llm import load_catalog
    from benger.pipeline._demo import DEMO_MODEL, release_demo_config, release_demo_plan
    from benger.pipeline._execute import task_and_reference
    from benger.pipeline._fit import token_counter
    from benger.pipeline._units import rubric_for_kind

    data = load_release(release_dir)
    count, _ = token_counter(load_catalog().system(DEMO_MODEL))
    plan = release_demo_plan(data, count)
    cfg = release_demo_config(plan)
    case_id = plan["cases"][case_index]
    task = next(t for t in data.benchathon.tasks if t.task_id == case_id)
    text, reference = task_and_reference(task)
    rubric = rubric_for_kind("falloesung")
    chosen = {sid for _, sid in plan["picks"][case_id]}
    by_id = {p.subject_id: p for p in data.picks}
    # the demo's own generation is written at run time: a released text of about its length stands in for it
    stand_in = min(
        (g for g in data.generations if g.generation_id not in chosen and g.text), key=lambda g: g.generation_id
    )
    units = [("generation (stand-in)", rubric, text, reference, stand_in.text[:1600])]
    for kind, sid in plan["picks"][case_id][:picks]:
        units.append((f"{kind} {sid[:8]}", rubric, text, reference, by_id[sid].text))
    return cfg, case_id, units


async def judge_all(cfg: Any, units: list[Any], model_name: str, *, cold: bool, counter: list[Any]) -> list[Any]:
    from benger.llm import ChatMessage, ChatRequest, create_model
    from benger.llm._llama import load_llama
    from benger.pipeline._orchestrate import run_prompts

    prompts = run_prompts(cfg)
    judge = cfg.resolved_judges()[0]
    if model_name != judge.model:
        judge = judge.model_copy(update={"model": model_name})
    model: Any = create_model(judge)
    handle = load_llama(model.key)
    if not counter:
        counter.append(Counter(handle.llama))
    rows = []
    for label, rubric, task, reference, candidate in units:
        prompt = prompts.judge_template(rubric).render(
            rubric, task=task, reference=reference, candidate=candidate, brief=prompts.judge_brief
        )
        request = ChatRequest(
            messages=[ChatMessage(role="user", content=prompt)],
            temperature=judge.temperature,
            max_tokens=judge.max_output_tokens,
            seed=judge.seed,
            json_schema=prompts.judge_schema(rubric),
            params=dict(judge.params),
        )
        if cold:
            handle.llama.reset()  # the KV cache is dropped: this judgement evaluates its whole prompt
        cpu, wall = time.process_time(), time.perf_counter()
        response = await model._call(request)
        row = {"label": label, **counter[0].summary()}
        row.update(cpu_s=round(time.process_time() - cpu, 2), wall_s=round(time.perf_counter() - wall, 2))
        row["reply"] = response.text
        rows.append(row)
        print(json.dumps({k: v for k, v in row.items() if k != "reply"}), flush=True)
    return rows


def simulate(release_dir: Path) -> None:
    """Prompt tokens evaluated per order (no model evaluation: the vocabulary only)."""
    from benger.corpora import load_release
    from benger.llm._fill import chat_prompt
    from benger.llm._llama import load_vocabulary
    from benger.llm._local import model_path
    from benger.pipeline._demo import DEMO_MODEL
    from benger.pipeline._execute import task_and_reference
    from benger.pipeline._orchestrate import run_prompts
    from benger.pipeline._units import rubric_for_kind

    cfg, _, _ = case_units(release_dir, 3, 0)
    vocab = load_vocabulary(str(model_path(DEMO_MODEL)))
    prompts = run_prompts(cfg)
    rubric = rubric_for_kind("falloesung")
    data = load_release(release_dir)
    tasks = {t.task_id: t for t in data.benchathon.tasks}

    def tokens(task_id: str, candidate: str) -> list[int]:
        task, reference = task_and_reference(tasks[task_id])
        text = prompts.judge_template(rubric).render(rubric, task=task, reference=reference, candidate=candidate,
                                                      brief=prompts.judge_brief)  # fmt: skip
        return list(vocab.tokenize(chat_prompt(vocab, [{"role": "user", "content": text}]).encode(), special=True))

    def evaluated(sequence: list[list[int]]) -> tuple[int, int]:
        total, previous = 0, []
        for toks in sequence:
            total += len(toks) - _common(previous, toks)
            previous = toks
        return sum(len(t) for t in sequence), total

    runs: dict[str, list[tuple[str, str]]] = {}
    for index in (0, 1):
        _, case, units = case_units(release_dir, 3, index)
        runs.setdefault("demo: 2 cases, each stand-in generation + 3 picks", []).extend((case, u[4]) for u in units)
    by_id = sorted(data.picks, key=lambda p: p.subject_id)
    runs["validate-judge, 45 picks in solution id order (before)"] = [(p.task_id, p.text) for p in by_id]
    runs["validate-judge, 45 picks case by case (now)"] = [
        (p.task_id, p.text) for p in sorted(by_id, key=lambda p: p.task_id)
    ]
    for label, sequence in runs.items():
        prompt_total, done = evaluated([tokens(task, text) for task, text in sequence])
        print(f"{label}: {len(sequence)} judgements, {prompt_total} prompt tokens, {done} evaluated "
              f"({done / prompt_total:.2f})")  # fmt: skip


def _common(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("release", type=Path)
    parser.add_argument("--model", default=None, help="the judge's model (default: the demo's)")
    parser.add_argument("--picks", type=int, default=3)
    parser.add_argument("--case", type=int, default=0, help="which of the demo's cases (0 or 1)")
    parser.add_argument("--modes", default="warm", help="comma-separated: warm (the demo's way), cold")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--simulate", action="store_true", help="count tokens only (see above)")
    parser.add_argument("--units", default=None, help="comma-separated indices to judge (0: the generation)")
    parser.add_argument("--out", type=Path, default=None, help="write every row with its reply as JSON")
    args = parser.parse_args()
    if args.simulate:
        simulate(args.release)
        return
    from benger.llm._llama import set_threads_override

    if args.threads:
        set_threads_override(args.threads)
    cfg, _, units = case_units(args.release, args.picks, args.case)
    if args.units:
        units = [units[int(i)] for i in args.units.split(",")]
    model = args.model or cfg.resolved_judges()[0].model
    counter: list[Any] = []
    results: dict[str, list[Any]] = {}
    for mode in args.modes.split(","):
        print(f"-- {mode} (load average {os.getloadavg()[0]:.2f})", flush=True)
        results[mode] = asyncio.run(judge_all(cfg, units, model, cold=mode == "cold", counter=counter))
    modes = list(results)
    for mode in modes:
        rows = results[mode]
        total = {k: sum(r[k] for r in rows) for k in ("batch_evaluated", "decodes", "reevaluated", "cpu_s", "wall_s")}
        print(f"{mode}: {json.dumps({k: round(v, 2) for k, v in total.items()})}")
    if args.out:
        args.out.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")
    if len(modes) > 1:
        pairs = zip(results[modes[0]], results[modes[1]], strict=True)
        same = [a["reply"] == b["reply"] for a, b in pairs]
        print(f"replies identical across {' and '.join(modes)}: {same}")
        if not all(same):
            sys.exit(1)
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
