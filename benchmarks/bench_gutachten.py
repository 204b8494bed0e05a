"""Time the Gutachten analyser on every released solution text: the 45 validation picks and the 15
Benchathon reference solutions (target: < 5 s for all 60, issue 16).

    .venv/bin/python benchmarks/bench_gutachten.py [--release ../shared/benger-release] [--repeats 3]

Reads the release in place (nothing is copied into the repo); prints the best of ``--repeats`` runs.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from benger.gutachten import analyse, compare, default_rules

DEFAULT_RELEASE = Path(__file__).resolve().parents[1].parent / "shared" / "benger-release"


def load_texts(release: Path) -> tuple[list[tuple[str, str, int]], dict[int, str]]:
    """(pick id, text, task inner id) of every pick, and the reference solution per task inner id."""
    sample = json.loads((release / "data/interim/benchathon_human_grading_sample.json").read_text(encoding="utf-8"))
    tasks = json.loads((release / "data/interim/benchathon.json").read_text(encoding="utf-8"))
    picks = [(p["pick_id"], p["submission_text"], int(p["task_inner_id"])) for p in sample["picks"]]
    return picks, {i + 1: t["musterlösung"] for i, t in enumerate(tasks)}


def run_once(picks: list[tuple[str, str, int]], refs: dict[int, str]) -> tuple[float, float, int, int]:
    """Analyse all texts and compare every pick with its reference: (wall s, CPU s, norms, headings)."""
    start, cpu = time.perf_counter(), time.process_time()
    ref_analyses = {k: analyse(v) for k, v in refs.items()}
    norms = headings = 0
    for _, text, inner in picks:
        a = analyse(text)
        compare(a, ref_analyses[inner])
        norms += len(a.norm_keys)
        headings += len(a.structure.headings)
    return time.perf_counter() - start, time.process_time() - cpu, norms, headings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--release", type=Path, default=DEFAULT_RELEASE)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    picks, refs = load_texts(args.release)
    default_rules()  # reading the YAML once is not part of the analysis
    chars = sum(len(t) for _, t, _ in picks) + sum(len(t) for t in refs.values())
    times, cpus = [], []
    for _ in range(args.repeats):
        seconds, cpu, norms, headings = run_once(picks, refs)
        times.append(seconds)
        cpus.append(cpu)
    best = min(times)
    print(f"texts: {len(picks)} picks + {len(refs)} references, {chars:,} characters")
    print(f"analyse + compare: best {best:.2f} s of {args.repeats} (all: {', '.join(f'{t:.2f}' for t in times)})")
    print(f"CPU time of this process: best {min(cpus):.2f} s (wall time includes waiting for a shared core)")
    print(f"throughput: {chars / best / 1e6:.2f} M characters/s; norms {norms}, headings {headings} over the picks")
    print("target < 5 s:", "met" if best < 5 else "MISSED")


if __name__ == "__main__":
    main()
