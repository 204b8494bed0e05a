"""The results viewer at study scale (issue 27): how long the first page and a Browse page take on a big store.

Builds (once, ``--cache``) the synthetic SQLite store of ``bench_store.py`` (64k generations by default: 16
systems, one judgement each with ten dimensions and justifications, ~4 kB of text per generation), then, in a
fresh Python process, times through the real app (``fastapi.testclient``, the same ASGI stack ``benger view``
serves):

- ``open``: ``create_viewer_app`` on the opened store + ``GET /view/`` (the leaderboard with the CLI's bootstrap,
  every judge group, the figures, the judge statuses) — "the store opens";
- ``browse_*``: ``GET /view/browse`` for the first, a middle and the last page (50 rows, ``OFFSET`` paging in SQL),
  a system filter, a judge + score-range filter, a flag, and the full-text search (``ILIKE`` over every text);
  each the median of ``--repeat`` requests.

    python benchmarks/bench_viewer.py --generations 64000 --cache /tmp/bench-viewer
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import DIMS, TEXT


def synthesise(path: Path, n_generations: int, batch: int = 4000) -> dict[str, float]:
    """bench_store.py's store (same systems, tasks, texts, judgements with ten dimensions and justifications):
    corpus and systems through the Store API, the generation and judgement rows inserted in bulk (SQLAlchemy Core
    ``executemany`` into the tables ``open_store`` migrated; the per-record API takes ~30 min for 64k here)."""
    import time

    from sqlalchemy import insert

    from benger.schema import Corpus, FalloesungTask, SystemConfig
    from benger.store import open_store
    from benger.store._aggregate import refresh_statistics
    from benger.store._models import GenerationRow, JudgementRow

    n_systems = 10 if n_generations <= 8000 else 16 if n_generations <= 64000 else 32
    n_tasks = n_generations // n_systems
    start = time.perf_counter()
    store = open_store(path)
    tasks = [
        FalloesungTask(task_id=f"t{i:06d}", corpus="benchathon", area="Zivilrecht", facts=TEXT, reference=TEXT)
        for i in range(n_tasks)
    ]
    store.add_corpus(Corpus(name="benchathon", tasks=tasks))
    for s in range(n_systems):
        store.upsert_system(SystemConfig(name=f"sys-{s:02d}", provider="local", model=f"m{s}", tier="local"))
    cells = [(s, t.task_id) for s in range(n_systems) for t in tasks]
    for lo in range(0, len(cells), batch):
        gens, judgements = [], []
        for k, (s, tid) in enumerate(cells[lo : lo + batch], start=lo + 1):
            gid = f"g-{s:02d}-{tid}"
            total = float((k * 37 + s * 11) % 101)
            gens.append(
                {
                    "generation_id": gid,
                    "corpus": "benchathon",
                    "task_id": tid,
                    "system": f"sys-{s:02d}",
                    "config_hash": f"cfg{s:02d}",
                    "run_index": 0,
                    "status": "ok",
                    "text": TEXT,
                    "truncated": False,
                    "refused": False,
                    "output_tokens": 900,
                    "meta": {},
                }
            )
            judgements.append(
                {
                    "judgement_id": f"j-{gid}",
                    "target_kind": "generation",
                    "target_id": gid,
                    "judge": "primary",
                    "judge_config_hash": "jh",
                    "rubric_id": "falloesung@1+bench",
                    "repeat_index": 0,
                    "status": "scored",
                    "dimensions": {d: round(m * total / 100 * 2) / 2 for d, m in DIMS.items()},
                    "justifications": {d: "Begründung " * 12 for d in DIMS},
                    "total": total,
                    "grade_points": int(total) % 19,
                    "passed": total >= 50,
                    "meta": {},
                }
            )
        with store.engine.begin() as conn:
            conn.execute(insert(GenerationRow.__table__), gens)
            conn.execute(insert(JudgementRow.__table__), judgements)
    refresh_statistics(store)
    store.close()
    return {"synthesis_s": time.perf_counter() - start, "systems": n_systems, "tasks": n_tasks}


_CHILD = r"""
import json, statistics, sys, time
begin = time.perf_counter()
from fastapi.testclient import TestClient
from benger.store import open_store
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app
db, repeat = sys.argv[1], int(sys.argv[2])
imported = time.perf_counter()
store = open_store(db)
start = time.perf_counter()
client = TestClient(create_viewer_app(store, Principal.local()))
first = client.get("/view/")
assert first.status_code == 200, first.status_code
out = {"imports_s": imported - begin, "open_s": time.perf_counter() - start, "leaderboard_bytes": len(first.content)}
n = client.get("/view/browse").text
import re
pages = int(re.search(r"von (\d+)</p>", n).group(1))
cases = {
    "browse_first": {},
    "browse_middle": {"page": str(pages // 2)},
    "browse_last": {"page": str(pages)},
    "browse_system": {"system": "sys-03", "page": "20"},
    "browse_judge_score": {"judge": "primary", "min_score": "40", "max_score": "60", "page": "10"},
    "browse_flag": {"flag": "unjudged"},
    "browse_fulltext": {"q": "Anspruch des K", "page": "3"},
}
for name, params in cases.items():
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        r = client.get("/view/browse", params=params)
        times.append(time.perf_counter() - t)
        assert r.status_code == 200
    out[name + "_s"] = statistics.median(times)
out["pages"] = pages
print(json.dumps(out))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generations", type=int, default=64000)
    parser.add_argument("--cache", type=Path, help="keep the synthesised store here (store-N.db) and reuse it")
    parser.add_argument("--repeat", type=int, default=5, help="requests per Browse case (median reported)")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes; the fastest open is reported")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.cache or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        db = folder / f"store-{args.generations}.db"
        built = None
        if not db.exists():
            built = synthesise(db, args.generations)
        runs = []
        for _ in range(args.runs):
            proc = subprocess.run(
                [sys.executable, "-c", _CHILD, str(db), str(args.repeat)],
                capture_output=True,
                text=True,
                check=False,
                env=os.environ.copy(),
            )
            if proc.returncode != 0:
                raise SystemExit(proc.stderr)
            runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        best = min(runs, key=lambda r: r["open_s"])
        report = {
            "generations": args.generations,
            "store_mb": round(db.stat().st_size / 1e6, 1),
            "synthesis": built,
            "load_average": os.getloadavg(),
            "best": best,
            "open_s_all": [round(r["open_s"], 3) for r in runs],
        }
        print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
