"""Writes through the store API on SQLite and PostgreSQL side by side (issue 26: PostgreSQL within 1.5x of SQLite).

For each backend (a new SQLite file; a new database on the local PostgreSQL server, dropped afterwards):

* ``import``: ``Store.import_release`` of the released data (one transaction);
* ``one by one``: N generations, N judgements and N metric values written with ``save_generation`` /
  ``save_judgement`` / ``save_metric_value`` (one transaction per record: what bulk writers did before);
* ``bulk``: the same records with ``save_generations`` / ``save_judgements`` / ``save_metric_values`` (one
  transaction per batch of ``--batch``);
* ``synthetic``: the ``--synthetic`` (64k) generation store of ``bench_store.py`` (a judgement with ten
  dimensions and justifications and a metric value per generation, ~4 KB of text each), written as that script
  writes it (one transaction per system and kind).

Records are built before the clock starts and the store is created and migrated before it too: the times are
the writes alone. Prints wall seconds per case and backend (the median of ``--repeat`` runs, each on a new store,
the backends alternating), the PostgreSQL / SQLite ratio and the load average.

    python benchmarks/bench_bulk_store.py --n 2000 --synthetic 64000 --release /work/shared/benger-release
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"


@contextmanager
def pg_database() -> Iterator[str]:
    import psycopg

    name = f"bench_bulk_{uuid.uuid4().hex[:8]}"
    with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{PG_SERVER}/{name}"
    finally:
        with psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def records(n: int) -> tuple[Any, list[Any], list[Any], list[Any]]:
    from benger.schema import Corpus, FalloesungTask, Generation, Judgement
    from benger.store import MetricValue

    tasks = [
        FalloesungTask(task_id=f"t{i:05d}", corpus="bench", area="Zivilrecht", facts="Sachverhalt.", reference="L.")
        for i in range(max(1, n // 10))
    ]
    gens = [
        Generation(
            generation_id=f"g{i:06d}", task_id=tasks[i % len(tasks)].task_id, corpus="bench",
            system=f"s{i // len(tasks)}", config_hash=f"h{i // len(tasks)}", run_index=0, status="ok",
            text="Der Anspruch besteht. " * 40,
        )
        for i in range(n)
    ]  # fmt: skip
    dims = {"ergebnisrichtigkeit": 10.0, "subsumtion": 7.5}
    judgements = [
        Judgement(
            judgement_id=f"j{i:06d}", target_kind="generation", target_id=g.generation_id, judge="j",
            judge_config_hash="jh", rubric_id="falloesung@1", status="scored", dimensions=dims, total=17.5,
            justifications={k: "Begründung." for k in dims},
        )
        for i, g in enumerate(gens)
    ]  # fmt: skip
    values = [
        MetricValue(target_kind="generation", target_id=g.generation_id, metric="bleu", signature="sig", value=0.5)
        for g in gens
    ]
    return Corpus(name="bench", tasks=tasks), gens, judgements, values


def one_by_one(store: Any, gens: list[Any], judgements: list[Any], values: list[Any], batch: int) -> None:
    for g in gens:
        store.save_generation(g)
    for j in judgements:
        store.save_judgement(j)
    for v in values:
        store.save_metric_value(v.target_kind, v.target_id, v.metric, v.signature, v.value, v.details)


def bulk(store: Any, gens: list[Any], judgements: list[Any], values: list[Any], batch: int) -> None:
    for start in range(0, len(gens), batch):
        store.save_generations(gens[start : start + batch])
        store.save_judgements(judgements[start : start + batch])
        store.save_metric_values(values[start : start + batch])


def timed(url: str, case: Callable[[Any], None]) -> float:
    from benger.store import open_store

    with open_store(url) as store:
        start = time.perf_counter()
        case(store)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=2000, help="generations (and judgements, metric values)")
    parser.add_argument("--batch", type=int, default=500)
    parser.add_argument("--synthetic", type=int, default=64000, help="generations of the synthetic store (0: none)")
    parser.add_argument("--release", type=Path, default=Path(os.environ.get("BENGER_RELEASE_DIR", "")))
    parser.add_argument("--cases", nargs="*", help="only the cases whose label starts with one of these")
    parser.add_argument("--repeat", type=int, default=1, help="runs per case and backend, alternating; medians")
    args = parser.parse_args()

    from benger.corpora import load_release

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_store import synthetic_records, write_synthetic

    corpus, gens, judgements, values = records(args.n)
    release = load_release(args.release) if args.release.is_dir() else None
    cases: dict[str, Callable[[Any], None]] = {}
    if release is not None:
        cases["import (release)"] = lambda store: store.import_release(release)
    for name, writer in (("one by one", one_by_one), ("bulk", bulk)):
        cases[f"{name} ({args.n:,} x 3 records)"] = lambda store, w=writer: (  # type: ignore[misc]
            store.add_corpus(corpus),
            w(store, gens, judgements, values, args.batch),
        )
    if args.synthetic:
        synthetic = synthetic_records(args.synthetic)
        cases[f"synthetic ({args.synthetic // 1000}k store)"] = lambda store: write_synthetic(store, synthetic)
    if args.cases:
        cases = {label: case for label, case in cases.items() if label.startswith(tuple(args.cases))}
    print(f"# load average at start {os.getloadavg()}")
    print(f"{'case':<34} {'SQLite s':>9} {'PostgreSQL s':>13} {'PG/SQLite':>10}  load")
    with tempfile.TemporaryDirectory() as tmp:
        for index, (label, case) in enumerate(cases.items()):
            sqlite_runs, pg_runs = [], []
            for run in range(args.repeat):  # a new store each time, SQLite and PostgreSQL alternating
                sqlite_runs.append(timed(str(Path(tmp) / f"s{index}-{run}.db"), case))
                with pg_database() as url:
                    pg_runs.append(timed(url, case))
            sqlite_s, pg_s = statistics.median(sqlite_runs), statistics.median(pg_runs)
            print(
                f"{label:<34} {sqlite_s:9.2f} {pg_s:13.2f} {pg_s / sqlite_s:10.2f}  {os.getloadavg()[0]:.2f}",
                flush=True,
            )
    print(f"# load average at end {os.getloadavg()}")


if __name__ == "__main__":
    main()
