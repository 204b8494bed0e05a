"""The embedded judge's schema fill: tokens tokenised per ``create_completion`` call and the filled reply, with
the prompt tokenised once (now) and with the whole text passed to every call (before; issue 26 item 2).

Both ways run in one process on the same ``Llama`` (greedy, seed 0), alternating per judgement; the filled
replies must be identical. For each judgement it prints the calls, the tokens tokenised per call (mean), the
wall and CPU time of each way and whether the replies match, then the load average.

    python benchmarks/bench_schema_fill.py --judgements 3 --chars 40
    python benchmarks/bench_schema_fill.py --demo-prompt      # the demo judge's ~5,000-token rubric prompt
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

CANDIDATES = (
    "Ja. V hat gegen K einen Anspruch aus § 433 Abs. 2 BGB, weil ein wirksamer Kaufvertrag vorliegt.",
    "Nein. Der Vertrag ist nach § 142 Abs. 1 BGB nichtig, da K wirksam angefochten hat.",
    "Der Anspruch könnte bestehen. Ein Angebot liegt vor. Die Annahme fehlt. Also kein Vertrag.",
    "Ja, aus § 985 BGB, denn E ist Eigentümer und B besitzt ohne Recht zum Besitz (§ 986 BGB).",
)


def short_prompt(candidate: str) -> str:
    return (
        "Bewerte die folgende Lösung eines zivilrechtlichen Falls nach dem Bewertungsbogen. "
        "Fall: V verkauft K ein Fahrrad für 300 Euro; K zahlt nicht. Kann V Zahlung verlangen?\n"
        f"Lösung: {candidate}\nGib für jede Dimension Punkte und eine kurze Begründung."
    )


class Counting:
    """Wraps a ``Llama``: counts the tokens tokenised (by the fill, and by ``create_completion`` for a text
    prompt, counted after the fill from the texts kept) and the ``create_completion`` calls."""

    def __init__(self, llama: Any) -> None:
        self._llama, self.tokenised, self.calls = llama, 0, 0
        self._model = llama._model
        self.texts: list[str] = []

    def tokenize(self, *args: Any, **kwargs: Any) -> list[int]:
        out = self._llama.tokenize(*args, **kwargs)
        self.tokenised += len(out)
        return list(out)

    def create_completion(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if isinstance(kwargs.get("prompt"), str):
            self.texts.append(kwargs["prompt"])
        return self._llama.create_completion(*args, **kwargs)

    def count_texts(self) -> None:
        for text in self.texts:
            self.tokenised += len(self._llama.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._llama, name)


def fill(llama: Any, prompt: str, schema: dict[str, Any], max_tokens: int, *, whole_text: bool) -> dict[str, Any]:
    """One schema fill; ``whole_text`` passes the whole text to every call (the way before issue 26)."""
    from benger.llm._fill import SchemaFill, chat_prompt

    counting = Counting(llama)
    text = chat_prompt(llama, [{"role": "user", "content": prompt}]) or ""
    wall, cpu = time.perf_counter(), time.process_time()
    schema_fill = SchemaFill(counting, text, max_tokens, {"temperature": 0.0, "seed": 0})
    if whole_text:
        schema_fill.split = False
    schema_fill.value(schema)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    counting.count_texts()
    return {
        "text": schema_fill.text,
        "calls": counting.calls,
        "tokens_per_call": counting.tokenised / max(counting.calls, 1),
        "wall_s": wall,
        "cpu_s": cpu,
        "split": schema_fill.split,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="qwen2.5-coder-0.5b-instruct")
    parser.add_argument("--judgements", type=int, default=3)
    parser.add_argument("--chars", type=int, default=40, help="maxLength of each justification")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--demo-prompt", action="store_true", help="the demo judge's rubric prompt instead")
    parser.add_argument("--json", type=Path, help="write the rows here")
    args = parser.parse_args()

    from llama_cpp import Llama

    from benger.judge import falloesung_rubric, judge_schema
    from benger.llm._local import model_path

    schema = judge_schema(falloesung_rubric(), score_enum=True, max_justification_chars=args.chars)
    llama = Llama(
        model_path=str(model_path(args.model)),
        n_ctx=8192,
        n_threads=args.threads,
        n_threads_batch=args.threads,
        flash_attn=False,  # benger's default (benger.llm._llama.LlamaKey)
        seed=0,
        verbose=False,
    )
    prompts = [short_prompt(c) for c in CANDIDATES[: args.judgements]]
    if args.demo_prompt:
        from bench_local import demo_messages

        prompts = [demo_messages()[1]][: args.judgements]
    print(f"# {args.model}, {args.threads} thread(s); load average at start {os.getloadavg()}")
    rows = []
    for i, prompt in enumerate(prompts):
        if i % 2:  # alternate which way runs first (the second finds the prompt in the KV cache)
            after = fill(llama, prompt, schema, 700, whole_text=False)
            before = fill(llama, prompt, schema, 700, whole_text=True)
        else:
            before = fill(llama, prompt, schema, 700, whole_text=True)
            after = fill(llama, prompt, schema, 700, whole_text=False)
        rows.append({"judgement": i, "before": before, "after": after, "identical": before["text"] == after["text"]})
        print(
            f"judgement {i}: {before['calls']} calls; tokens tokenised per call {before['tokens_per_call']:.0f} -> "
            f"{after['tokens_per_call']:.0f}; wall {before['wall_s']:.2f} -> {after['wall_s']:.2f} s; CPU "
            f"{before['cpu_s']:.2f} -> {after['cpu_s']:.2f} s; identical reply: {before['text'] == after['text']} "
            f"(load {os.getloadavg()[0]:.2f})",
            flush=True,
        )
    if args.json:
        args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"# load average at end {os.getloadavg()}")


if __name__ == "__main__":
    main()
