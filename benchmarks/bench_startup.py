"""How long a command takes before and around its work: ``benger --help`` and ``benger leaderboard`` on a
synthetic 8k store (issue 26: < 0.3 s and < 0.6 CPU-s), each in a fresh process, whole-process wall and CPU
(user + sys of the child, imports included), the fastest and the median of ``--repeat`` runs, with the load
average. The store is written once by ``bench_store.synthesise`` (through the public API) into ``--cache``.

    python benchmarks/bench_startup.py --repeat 5 --cache /tmp/benchL

``--src NAME=PATH`` (repeatable) times each case once per source tree (``PYTHONPATH=PATH``), the trees
alternating run by run, so that a change and its base are compared side by side under the same load:

    python benchmarks/bench_startup.py --src main=/tmp/main/src --src branch=src

``--release DIR`` (default: ``$BENGER_RELEASE_DIR`` where set) adds ``benger leaderboard`` on the release's store
(imported once into ``--cache``): its 15- and 30-task rows get ``auto``'s Student-t interval.

Every child reads compiled bytecode as an installed package does (pip compiles it at install): the children run
with ``PYTHONPYCACHEPREFIX=CACHE/pycache`` (written by the untimed warm-up run, outside the source trees) and
without ``PYTHONDONTWRITEBYTECODE``. A source tree without ``__pycache__`` under ``PYTHONDONTWRITEBYTECODE=1``
(this project's sessions set it) would otherwise compile benger's ~60 modules in every run: ~0.1-0.2 CPU-s more.
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


def child_env(src: str | None, pycache: Path) -> dict[str, str]:
    """The environment of a timed child: ``src`` as its PYTHONPATH (None: this environment's), bytecode read from
    and written to ``pycache`` (see the module's docstring)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    if src is not None:
        env["PYTHONPATH"] = src
    return env


def timed(args: list[str], src: str | None, pycache: Path) -> tuple[float, float]:
    """(wall s, CPU s) of one run of the ``benger`` command ``args`` in a fresh interpreter (``src``: the
    PYTHONPATH of the benger to run; default: this environment's)."""
    env = child_env(src, pycache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*CLI, *args], capture_output=True, text=True, check=False, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"benger {' '.join(args)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def release_store(args: argparse.Namespace) -> Path:
    """The release imported into ``--cache`` (once)."""
    from benger.store import open_store

    db = args.cache / "release.db"
    if not db.exists():
        print(f"importing the release {args.release} into {db} (once)", flush=True)
        with open_store(db) as store:
            store.import_release(args.release)
    return db


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--size", type=int, default=8000, help="generations of the leaderboard store")
    parser.add_argument("--cache", type=Path, default=Path("/tmp/benger-bench-startup"))
    parser.add_argument("--src", action="append", default=[], metavar="NAME=PATH", help="a source tree to time")
    parser.add_argument("--release", type=Path, default=os.environ.get("BENGER_RELEASE_DIR") or None)
    args = parser.parse_args()
    trees: dict[str, str | None] = dict(item.split("=", 1) for item in args.src) or {"": None}

    from bench_store import synthesise

    args.cache.mkdir(parents=True, exist_ok=True)
    db = args.cache / f"store_{args.size}.db"
    if not db.exists():
        print(f"writing a {args.size:,}-generation store to {db} (once)", flush=True)
        synthesise(db, args.size)
    pycache = args.cache / "pycache"
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
    if args.release is not None:
        cases["benger leaderboard (release store, --ci auto)"] = ["leaderboard", "--db", str(release_store(args))]
    for label, argv in cases.items():
        for src in trees.values():
            timed(argv, src, pycache)  # warm the file cache and write the bytecode
        runs: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
        for _ in range(args.repeat):
            for name, src in trees.items():
                runs[name].append(timed(argv, src, pycache))
        for name, found in runs.items():
            walls, cpus = [w for w, _ in found], [c for _, c in found]
            print(
                f"{label + (f' [{name}]' if name else ''):<55} wall min {min(walls):.3f} s, median "
                f"{statistics.median(walls):.3f} s; CPU min {min(cpus):.3f} s, median {statistics.median(cpus):.3f} s  "
                f"(load {' '.join(f'{x:.2f}' for x in os.getloadavg())})",
                flush=True,
            )


if __name__ == "__main__":
    main()
