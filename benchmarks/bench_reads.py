"""The study-scale reads of ``benger analyze`` and the leaderboard, one by one, in CPU seconds (issue 26).

On the store of ``bench_store.py`` (synthesised by it, reused with ``--cache``), each read runs in a fresh Python
process per source tree (``--tree LABEL=SRC``, alternating trees, ``--runs`` times; the fastest run reported):
``item_scores`` (the leaderboard's per-generation judge items), ``scored_judgements``, ``corpus_generations`` and
``metric_columns`` (the study loader's reads). CPU seconds (``time.process_time``) rather than wall time: other
work on the machine moves them less. Example:

    python benchmarks/bench_reads.py --generations 256000 --cache /tmp/bench \
        --tree before=/tmp/main/src --tree after=src --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import synthesise

_CHILD = r"""
import json, sqlite3, sys, time
from benger.store import open_store
from benger.store import _aggregate as agg
from benger.store import _aggregate_items as items
db = sys.argv[1]
store = open_store(db)
signatures = {"bleu": "bleu@bench"}
reads = {
    "item_scores": lambda: len(items.item_scores(store)),
    "scored_judgements": lambda: len(agg.scored_judgements(store)),
    "corpus_generations": lambda: len(agg.corpus_generations(store, "benchathon")),
    "metric_columns": lambda: sum(1 for _ in agg.metric_columns(store, signatures)),
}
out = {}
for name, read in reads.items():
    start = time.process_time()
    out[name] = {"rows": read(), "cpu_s": round(time.process_time() - start, 3)}
store.close()
print(json.dumps(out))
"""


def _run(db: Path, src: str | None) -> dict[str, dict[str, float]]:
    env = None if src is None else {**os.environ, "PYTHONPATH": src}
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(db)], capture_output=True, text=True, env=env, check=True)
    result: dict[str, dict[str, float]] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generations", type=int, default=256000)
    parser.add_argument("--cache", type=Path, required=True, help="the folder of bench_store's store-N.db")
    parser.add_argument("--tree", action="append", default=[], metavar="LABEL=SRC")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per tree (the fastest reported)")
    args = parser.parse_args()
    db = args.cache / f"store-{args.generations}.db"
    if not db.exists():
        args.cache.mkdir(parents=True, exist_ok=True)
        synthesise(db, args.generations)
    trees: dict[str, str | None] = {label: src for label, _, src in (t.partition("=") for t in args.tree)}
    trees = trees or {"this": None}
    runs: dict[str, list[dict[str, dict[str, float]]]] = {label: [] for label in trees}
    for _ in range(args.runs):
        for label, src in trees.items():
            runs[label].append(_run(db, src))
    best = {label: {read: min(r[read]["cpu_s"] for r in found) for read in found[0]} for label, found in runs.items()}
    print(json.dumps({"generations": args.generations, "load": os.getloadavg(), "cpu_s": best}, indent=2))
    labels = list(best)
    if len(labels) == 2:
        a, b = labels
        print(" ".join(f"{read} {a}/{b} {best[a][read] / max(best[b][read], 1e-9):.2f}x" for read in best[a]))


if __name__ == "__main__":
    main()
