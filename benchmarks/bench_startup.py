"""How long a command takes before and around its work: ``benger --help`` and ``benger leaderboard`` on a
synthetic 8k store (issue 26: < 0.3 s and < 0.6 CPU-s), each in a fresh process, whole-process wall and CPU
(user + sys of the child, imports included), the fastest and the median of ``--repeat`` runs, with the load
average. The store is written once by ``bench_store.synthesise`` (through the public API) into ``--cache``.

    python benchmarks/bench_startup.py --repeat 5 --cache /tmp/benchL
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

CLI = [sys.executable, "-c", "from benger.cli import main; main()"]


def timed(args: list[str]) -> tuple[float, float]:
    """(wall s, CPU s) of one run of the ``benger`` command ``args`` in a fresh interpreter."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"benger {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--size", type=int, default=8000, help="generations of the leaderboard store")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/benger-bench-startup"))
    args = parser.parse_args()

    from bench_store import synthesise

    args.cache.mkdir(parents=True, exist_ok=True)
    db = args.cache / f"store_{args.size}.db"
    if not db.exists():
        print(f"writing a {args.size:,}-generation store to {db} (once)", flush=True)
        synthesise(db, args.size)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    cases = {
        "benger --help": ["--help"],
        f"benger leaderboard ({args.size // 1000}k store, bootstrap)": ["leaderboard", "--db", str(db)],
        f"benger leaderboard ({args.size // 1000}k store, --ci normal)": [
            "leaderboard",
            "--db",
            str(db),
            "--ci",
            "normal",
        ],
    }
    for label, argv in cases.items():
        timed(argv)  # warm the file cache
        runs = [timed(argv) for _ in range(args.repeat)]
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"{label:<45} wall min {min(walls):.3f} s, median {statistics.median(walls):.3f} s; "
            f"CPU min {min(cpus):.3f} s, median {statistics.median(cpus):.3f} s  "
            f"(load {' '.join(f'{x:.2f}' for x in os.getloadavg())})",
            flush=True,
        )


if __name__ == "__main__":
    main()
