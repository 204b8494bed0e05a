"""Leaderboard and analysis at study scale: time and peak memory against store size (issue 18).

Synthesises SQLite stores of 1k / 8k / 64k (and with ``--huge`` 256k) generations, each with one judgement of a
primary judge (ten dimensions, a justification per dimension) and one metric value, written through benger's
public API (``Store.add_corpus``, ``upsert_system``, ``save_generations``, ``save_judgements``,
``save_metric_values``: one transaction per system). Each measurement runs in a fresh Python process, which
reports its wall time and peak RSS (``ru_maxrss``):

- ``leaderboard``: ``benger.analysis.leaderboard_from_store`` (bootstrap CI, B = 2000), what ``benger
  leaderboard`` prints; ``leaderboard_normal`` the same with ``--ci normal`` (the SQL path without the
  bootstrap, whose cost is B x n per row);
- ``analyze``: ``benger.report.analyze`` (results, tables, figures, HTML) — skipped above ``--analyze-max``;
- ``sql``: the plain-SQL reference, one ``GROUP BY`` of the same per-row means with the ``sqlite3`` module.

The growth exponent is the least-squares slope of log(time) over log(generations). ``--tree LABEL=SRC`` (more than
once) measures other source trees side by side, e.g. main before a change. Examples (numbers in README):

    python benchmarks/bench_store.py --sizes 1000 8000 64000
    python benchmarks/bench_store.py --sizes 8000 32000 64000 --kinds analyze --analyze-max 300000 \
        --cache /tmp/bench --tree before=/tmp/main/src --tree after=src
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TEXT = ("Der Anspruch des K gegen V aus § 433 Abs. 1 S. 1 BGB könnte bestehen. " * 60).strip()
DIMS = {
    "ergebnisrichtigkeit": 20,
    "vollstaendigkeit": 10,
    "rechtsgrundlagen": 10,
    "rechtskenntnis": 15,
    "subsumtion": 15,
    "schwerpunktsetzung": 10,
    "methodischer_stil": 10,
    "gliederung": 5,
    "sprache": 3,
    "formalia": 2,
}


def synthetic_records(n_generations: int) -> tuple[Any, list[Any], list[tuple[list[Any], list[Any], list[Any]]]]:
    """The records of a store with ``n_generations`` judged generations: (corpus, systems, one (generations,
    judgements, metric values) batch per system)."""
    from benger.schema import Corpus, FalloesungTask, Generation, Judgement, SystemConfig
    from benger.store import MetricValue

    n_systems = 10 if n_generations <= 8000 else 16 if n_generations <= 64000 else 32
    n_tasks = n_generations // n_systems
    tasks = [
        FalloesungTask(task_id=f"t{i:06d}", corpus="benchathon", area="Zivilrecht", facts=TEXT, reference=TEXT)
        for i in range(n_tasks)
    ]
    systems = [
        SystemConfig(name=f"sys-{s:02d}", provider="local", model=f"m{s}", tier="local") for s in range(n_systems)
    ]
    batches = []
    k = 0
    for s in range(n_systems):
        gens, judgements, values = [], [], []
        for t in tasks:
            k += 1
            gid = f"g-{s:02d}-{t.task_id}"
            total = float((k * 37 + s * 11) % 101)
            gens.append(
                Generation(
                    generation_id=gid,
                    task_id=t.task_id,
                    system=f"sys-{s:02d}",
                    config_hash=f"cfg{s:02d}",
                    text=TEXT,
                    output_tokens=900,
                )
            )
            scale = total / 100
            judgements.append(
                Judgement(
                    judgement_id=f"j-{gid}",
                    target_kind="generation",
                    target_id=gid,
                    judge="primary",
                    judge_config_hash="jh",
                    rubric_id="falloesung@1+bench",
                    status="scored",
                    dimensions={d: round(m * scale * 2) / 2 for d, m in DIMS.items()},
                    justifications={d: "Begründung " * 12 for d in DIMS},
                    total=total,
                    grade_points=int(total) % 19,
                    passed=total >= 50,
                )
            )
            values.append(
                MetricValue(
                    target_kind="generation", target_id=gid, metric="bleu", signature="bleu@bench", value=total / 100
                )
            )
        batches.append((gens, judgements, values))
    return Corpus(name="benchathon", tasks=tasks), systems, batches


def write_synthetic(store: Any, records: tuple[Any, list[Any], list[tuple[list[Any], list[Any], list[Any]]]]) -> None:
    """Write ``synthetic_records`` through the public API: one transaction per system and kind
    (``Store.save_generations`` & co., issue 26)."""
    corpus, systems, batches = records
    store.add_corpus(corpus)
    for system in systems:
        store.upsert_system(system)
    for gens, judgements, values in batches:
        store.save_generations(gens)
        store.save_judgements(judgements)
        store.save_metric_values(values)


def synthesise(path: Path | str, n_generations: int) -> dict[str, float]:
    """Write a store with ``n_generations`` judged generations through the public API; returns timings."""
    from benger.store import open_store
    from benger.store._aggregate import refresh_statistics

    start = time.perf_counter()
    records = synthetic_records(n_generations)
    store = open_store(path)
    write_synthetic(store, records)
    refresh_statistics(store)  # the same planner statistics for every measurement (the leaderboard writes them once)
    store.close()
    return {"synthesis_s": time.perf_counter() - start, "systems": len(records[1]), "tasks": len(records[0].tasks)}


_CHILD = r"""
import json, resource, sys, time, tempfile
kind, db = sys.argv[1], sys.argv[2]
begin = time.perf_counter()
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
if kind.startswith("leaderboard"):
    from benger.analysis import leaderboard_from_store
    from benger.store import open_store
    store = open_store(db)
    start, start_cpu = time.perf_counter(), cpu()
    ci = "normal" if kind == "leaderboard_normal" else "bootstrap"
    board = leaderboard_from_store(store, ci=ci, seed=0, n_resamples=2000)
    rows = len(board.rows)
    store.close()
elif kind == "analyze":
    from benger.report import analyze
    start, start_cpu = time.perf_counter(), cpu()
    with tempfile.TemporaryDirectory() as out:
        analyze(db, out, seed=7, n_boot=2000)
    rows = 0
else:
    import sqlite3
    con = sqlite3.connect(db)
    start, start_cpu = time.perf_counter(), cpu()
    rows = len(con.execute(
        "SELECT system, config_hash, corpus, judge, judge_config_hash, rubric_id, count(*), avg(s) FROM ("
        " SELECT g.system, g.config_hash, t.corpus, j.judge, j.judge_config_hash, j.rubric_id,"
        " g.generation_id, avg(j.total) AS s FROM generations g JOIN tasks t ON t.task_id = g.task_id"
        " JOIN judgements j ON j.target_kind = 'generation' AND j.target_id = g.generation_id"
        " WHERE g.status = 'ok' AND j.status = 'scored' GROUP BY g.system, g.config_hash, t.corpus, j.judge,"
        " j.judge_config_hash, j.rubric_id, g.generation_id)"
        " GROUP BY system, config_hash, corpus, judge, judge_config_hash, rubric_id").fetchall())
    con.close()
end = time.perf_counter()
print(json.dumps({"seconds": end - start, "cpu_s": cpu() - start_cpu, "with_imports_s": end - begin,
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "rows": rows}))
"""


KINDS = ("sql", "leaderboard_normal", "leaderboard", "analyze")


def measure(kind: str, db: Path, timeout: float, repeat: int = 1, src: Path | None = None) -> dict[str, float | str]:
    """The fastest of ``repeat`` runs (wall ``seconds``), each in a fresh process: ``seconds`` after imports and
    opening the store (analyze: after imports), ``cpu_s`` the process's CPU seconds over the same span (less
    sensitive to other jobs on a shared machine), ``with_imports_s`` from interpreter start of the measurement,
    and the process's peak RSS."""
    runs = [_measure_once(kind, db, timeout, src) for _ in range(repeat)]
    done = [r for r in runs if "seconds" in r]
    return min(done, key=lambda r: float(r["seconds"])) if done else runs[-1]


def _measure_once(kind: str, db: Path, timeout: float, src: Path | None = None) -> dict[str, float | str]:
    env = None if src is None else {**os.environ, "PYTHONPATH": str(src)}  # another source tree (--tree)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, kind, str(db)],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout:.0f} s"}
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    result: dict[str, float | str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def exponent(points: list[tuple[int, float]]) -> float | None:
    """Least-squares slope of log(seconds) over log(size)."""
    if len(points) < 2:
        return None
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(max(t, 1e-6)) for _, t in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 8000, 64000])
    parser.add_argument("--huge", action="store_true", help="also 256k generations")
    parser.add_argument("--analyze-max", type=int, default=64000, help="skip analyze above this many generations")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per measurement")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--cache",
        type=Path,
        help="keep the synthesised stores in this folder (store-N.db) and reuse them in later runs",
    )
    parser.add_argument("--repeat", type=int, default=1, help="runs per measurement; the fastest is reported")
    parser.add_argument(
        "--kinds", nargs="+", choices=KINDS, default=list(KINDS), help="measure only these (default: all)"
    )
    parser.add_argument(
        "--tree",
        action="append",
        default=[],
        metavar="LABEL=SRC",
        help="measure benger from this source folder too (PYTHONPATH=SRC), e.g. before=/tmp/main/src: each "
        "measurement runs once per tree, side by side at the same load; columns are named kind@LABEL",
    )
    args = parser.parse_args()
    trees: dict[str, Path | None] = {label: Path(src) for label, _, src in (t.partition("=") for t in args.tree)}
    columns = [
        (f"{k}@{label}" if trees else k, k, src) for k in args.kinds for label, src in (trees or {"": None}).items()
    ]
    sizes = sorted(set(args.sizes + ([256000] if args.huge else [])))
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            folder = args.cache or Path(tmp)
            folder.mkdir(parents=True, exist_ok=True)
            db = folder / f"store-{n}.db"
            if args.cache is not None and db.exists():
                info: dict[str, float] = {"synthesis_s": 0.0, "cached": 1}
            else:
                db.unlink(missing_ok=True)
                info = synthesise(db, n)
            row: dict[str, object] = {"generations": n, **info}
            row["load"] = os.getloadavg()[0]
            for column, kind, src in columns:
                if kind == "analyze" and n > args.analyze_max:
                    row[column] = {"error": f"skipped (> --analyze-max {args.analyze_max})"}
                    continue
                row[column] = measure(kind, db, args.timeout, args.repeat, src)
            results.append(row)
            print(json.dumps(row), flush=True)
    kinds = [column for column, _, _ in columns]
    print("\ngenerations | " + " | ".join(f"{k} s [CPU s] (with imports), MiB" for k in kinds))
    for row in results:
        cells = []
        for kind in kinds:
            m = row[kind]
            assert isinstance(m, dict)
            ok = "seconds" in m
            cpu = f" [{m['cpu_s']:.2f}]" if "cpu_s" in m else ""
            text = f"{m['seconds']:.2f}{cpu} ({m['with_imports_s']:.2f}), {m['peak_mib']:.0f}" if ok else ""
            text = text or str(m.get("error"))
            cells.append(text)
        print(f"{row['generations']:>11} | " + " | ".join(cells) + f"  (load {row['load']:.1f})")
    for row in results:
        sql = row.get("sql")
        for kind in (c for c, k, _ in columns if k in ("leaderboard_normal", "leaderboard")):
            m = row.get(kind)
            if isinstance(sql, dict) and isinstance(m, dict) and "seconds" in sql and "seconds" in m:
                ratio = float(m["seconds"]) / max(float(sql["seconds"]), 1e-6)
                print(f"{kind} / sql at {row['generations']}: {ratio:.2f}x")
    for kind in kinds:
        slopes = []
        for field in ("seconds", "cpu_s"):  # CPU seconds: less sensitive to other jobs on a shared machine
            pts = [
                (int(str(r["generations"])), float(m[field]))
                for r in results
                if isinstance(m := r[kind], dict) and field in m
            ]
            slope = exponent(pts)
            slopes.append(f"{'–' if slope is None else f'{slope:.2f}'}")
        print(f"growth exponent {kind}: {slopes[0]} wall, {slopes[1]} CPU (over {len(pts)} sizes)")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
