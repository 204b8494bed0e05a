"""Time the full reproduction: load the release, build StudyData, compute_all (stacked bootstrap included).

Usage: python benchmarks/bench_reproduce.py [RELEASE_DIR] [--repeat N]
Target: under 10 s on 2 cores. Prints the seconds of each phase and the best total.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from benger.analysis import StudyData, compute_all

DEFAULT_RELEASE = Path(__file__).resolve().parents[1].parent / "shared" / "benger-release"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("release", nargs="?", type=Path, default=DEFAULT_RELEASE)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write results.json here")
    args = parser.parse_args()
    totals = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        data = StudyData.from_release(args.release)
        t1 = time.perf_counter()
        results = compute_all(data, seed=0, n_boot=2000, n_stacked=500)
        t2 = time.perf_counter()
        totals.append(t2 - t0)
        print(f"load {t1 - t0:.2f} s  compute_all {t2 - t1:.2f} s  total {t2 - t0:.2f} s")
    if args.out:
        args.out.write_text(json.dumps(results, indent=1, allow_nan=False), encoding="utf-8")
    best = min(totals)
    print(f"best total {best:.2f} s (target < 10 s on 2 cores): {'OK' if best < 10 else 'TOO SLOW'}")


if __name__ == "__main__":
    main()
