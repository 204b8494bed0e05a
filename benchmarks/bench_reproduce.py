"""Time `benger reproduce` phase by phase, each run in a fresh process (so imports count, as for the command).

Phases, in the order ``benger.report.reproduce`` runs them: ``imports`` (the analysis and report packages),
``load`` (release -> StudyData), ``compute`` (compute_all: every statistic, stacked bootstrap included),
``gutachten`` (the Gutachten validity table), ``report`` (results.json, tables, figures, HTML). Each phase is given
in wall seconds and in the process's CPU seconds; on a shared machine the CPU seconds are the steadier number (wall
is about CPU x (load / cores) once the load exceeds the 2 cores). ``uptime``'s load average is printed with them.

Usage: python benchmarks/bench_reproduce.py [RELEASE_DIR] [--repeat N] [--out DIR]
Target: the whole command under 10 s on 2 cores. Prints every run and the fastest total.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

DEFAULT_RELEASE = Path(__file__).resolve().parents[1].parent / "shared" / "benger-release"
PHASES = ("imports", "load", "compute", "gutachten", "report")

_CHILD = r"""
import json, resource, sys, time
def now():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return time.perf_counter(), usage.ru_utime + usage.ru_stime
laps = [now()]
from pathlib import Path
from benger.analysis import StudyData
from benger.report import _run, write_report
laps.append(now())
root, out = Path(sys.argv[1]), Path(sys.argv[2])
data = StudyData.from_release(root)
laps.append(now())
results = _run._compute(data, 7, 2000)
laps.append(now())
results["gutachten_validity"] = _run._gutachten_validity(root, 7, 2000)
laps.append(now())
results["provenance"] = {"source": "release", "location": str(root), "command": "bench_reproduce", "files": []}
write_report(results, out)
laps.append(now())
print(json.dumps({"wall": [b[0] - a[0] for a, b in zip(laps, laps[1:])],
                  "cpu": [b[1] - a[1] for a, b in zip(laps, laps[1:])],
                  "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_once(release: Path, out: Path) -> dict[str, list[float] | float]:
    """One fresh-process run; raises ``RuntimeError`` with the child's last error line when it fails."""
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, str(release), str(out)], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError((proc.stderr.strip().splitlines() or ["failed"])[-1])
    result: dict[str, list[float] | float] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("release", nargs="?", type=Path, default=DEFAULT_RELEASE)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="write the report here (default: a temporary folder)")
    args = parser.parse_args()
    totals = []
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):
            load = os.getloadavg()[0]
            run = run_once(args.release, args.out or Path(tmp))
            wall, cpu = run["wall"], run["cpu"]
            assert isinstance(wall, list) and isinstance(cpu, list)
            cells = "  ".join(f"{p} {w:.2f} [{c:.2f}]" for p, w, c in zip(PHASES, wall, cpu, strict=True))
            peak = f"{run['peak_mib']:.0f} MiB"
            print(f"{cells}  total {sum(wall):.2f} s [CPU {sum(cpu):.2f} s], {peak}, load average {load:.1f}")
            totals.append(sum(wall))
    best = min(totals)
    print(f"best total {best:.2f} s (target < 10 s on 2 cores): {'OK' if best < 10 else 'TOO SLOW'}")


if __name__ == "__main__":
    main()
