"""The results viewer at study scale (issue 27): how long the first page and a Browse page take on a big store.

Synthesises the store of ``bench_store.py`` (64k generations by default: 16 systems, judgements with ten
dimensions and justifications, ~4 kB of text per generation; every 97th generation truncated, every 211th
failed and unjudged, every 89th judgement unscored, every 7th generation also judged by a second judge, every
500th ok generation's text ends with the rare word ``MARKER``, so 128 of 64k), on
SQLite (a file, kept with ``--cache``) and/or PostgreSQL (a database on 127.0.0.1:5432, dropped afterwards),
then, each in a fresh Python process, times through the real app (``fastapi.testclient``, the same ASGI stack
``benger view`` serves):

- ``open``: ``create_viewer_app`` on the opened store + ``GET /view/`` (the leaderboard with the CLI's bootstrap,
  every judge group, the figures, the judge statuses) — "the store opens";
- ``served``: ``benger view --db STORE`` itself, from starting its process (``python -c``: the console script's
  ``main``) to the first page (``GET /view/`` over HTTP, asked every 10 ms from before the server listens) —
  the issue's "opens in < 2 s": Python's start, the CLI, the store, the leaderboard computed while the web stack
  loads (``benger.web.viewer.warm``), uvicorn's start; then ``served_browse`` (the first Browse page, the same
  server; the median of ``--repeat``); ``served_cpu_s``: the CPU seconds that process used up to the first page
  (all its threads; on a loaded machine a steadier figure than the wall time);
- ``again``: the leaderboard once more in the same process (kept under the store's content version,
  ``benger.web.viewer._cache``);
- ``browse_*``: ``GET /view/browse`` for the first, a middle and the last page (50 rows), a system filter, a
  judge + score-range filter, two flags, the full-text search of a phrase in every text (``browse_fulltext``)
  and of a word in 128 texts (``browse_fulltext_selective``, its third page); each the median of ``--repeat``
  requests.

``--before SRC`` (the ``src`` folder of another checkout, e.g. ``git archive main | tar -x -C /tmp/base``) times
that code too, on a store it synthesised itself, alternating before/after processes in one run, and reports
the ratios side by side with the load average at each figure; a digest of every page's HTML (the store's URL
left out) shows whether both show the same.

    python benchmarks/bench_viewer.py --generations 64000 --cache /tmp/bench-viewer
    python benchmarks/bench_viewer.py --backend sqlite --backend postgresql --before /tmp/base/src --runs 3
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import DIMS, TEXT

HERE = Path(__file__).resolve().parent

PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=postgres"
#: The rare word of the selective full-text case (in no other text of the store); every MARKER_EVERY-th ok
#: generation ends with it.
MARKER = "Zurückbehaltungseinrede"
MARKER_EVERY = 500


def _judgement(jid: str, gid: str, judge: str, total: float, unscored: bool) -> dict[str, Any]:
    return {
        "judgement_id": jid,
        "target_kind": "generation",
        "target_id": gid,
        "judge": judge,
        "judge_config_hash": f"jh-{judge}",
        "rubric_id": "falloesung@1+bench",
        "repeat_index": 0,
        "status": "unscored" if unscored else "scored",
        "reason": "no JSON object in the reply" if unscored else None,
        "dimensions": None if unscored else {d: round(m * total / 100 * 2) / 2 for d, m in DIMS.items()},
        "justifications": {d: "Begründung " * 12 for d in DIMS},
        "total": None if unscored else total,
        "grade_points": None if unscored else int(total) % 19,
        "passed": None if unscored else total >= 50,
        "meta": {},
    }


def synthesise(location: str, n_generations: int, batch: int = 4000) -> dict[str, float]:
    """bench_store.py's store (same systems, tasks, texts, judgements with ten dimensions and justifications) at
    ``location`` (an SQLite path or a database URL): corpus and systems through the Store API, the generation
    and judgement rows inserted in bulk (SQLAlchemy Core ``executemany`` into the tables ``open_store``
    migrated; the per-record API takes ~30 min for 64k here); statistics for the planner afterwards."""
    import time

    from sqlalchemy import insert

    from benger.schema import Corpus, FalloesungTask, SystemConfig
    from benger.store import open_store
    from benger.store._aggregate import refresh_statistics
    from benger.store._models import GenerationRow, JudgementRow

    n_systems = 10 if n_generations <= 8000 else 16 if n_generations <= 64000 else 32
    n_tasks = n_generations // n_systems
    start = time.perf_counter()
    store = open_store(location)
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
            failed = k % 211 == 0
            marked = not failed and k % MARKER_EVERY == 0
            gens.append(
                {
                    "generation_id": gid,
                    "corpus": "benchathon",
                    "task_id": tid,
                    "system": f"sys-{s:02d}",
                    "config_hash": f"cfg{s:02d}",
                    "run_index": 0,
                    "status": "failed" if failed else "ok",
                    "reason": "HTTP 500" if failed else None,
                    "text": "" if failed else f"{TEXT} {MARKER}." if marked else TEXT,
                    "truncated": k % 97 == 0,
                    "refused": False,
                    "output_tokens": None if failed else 900,
                    "meta": {},
                }
            )
            if failed:
                continue
            judgements.append(_judgement(f"j-{gid}", gid, "primary", total, k % 89 == 0))
            if k % 7 == 0:
                judgements.append(_judgement(f"j2-{gid}", gid, "second", float((k * 13) % 101), False))
        with store.engine.begin() as conn:
            conn.execute(insert(GenerationRow), gens)
            conn.execute(insert(JudgementRow), judgements)
    refresh_statistics(store)
    if store.engine.dialect.name == "postgresql":  # index-only scans need the visibility map
        with store.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
    store.close()
    return {"synthesis_s": time.perf_counter() - start, "systems": n_systems, "tasks": n_tasks}


_CHILD = r"""
import hashlib, json, os, re, statistics, sys, time
begin, begin_cpu = time.perf_counter(), time.process_time()
from fastapi.testclient import TestClient
from benger.store import open_store
try:  # where the viewer takes it from (benger.web.access loads the study package, as it did before issue 27)
    from benger.web._policy import Principal
except ImportError:
    from benger.web.access import Principal
from benger.web.viewer import create_viewer_app
db, repeat = sys.argv[1], int(sys.argv[2])
imported, imported_cpu = time.perf_counter(), time.process_time()
store = open_store(db)
start, start_cpu = time.perf_counter(), time.process_time()
client = TestClient(create_viewer_app(store, Principal.local()))
first = client.get("/view/")
assert first.status_code == 200, first.status_code
def digest(text):
    return hashlib.sha256(text.replace(store.url, "STORE").encode()).hexdigest()[:12]
out = {"imports_s": imported - begin, "open_s": time.perf_counter() - start, "imports_cpu_s": imported_cpu - begin_cpu,
       "open_cpu_s": time.process_time() - start_cpu, "leaderboard_bytes": len(first.content),
       "load": os.getloadavg()[0], "digest": {"open": digest(first.text)}}
t = time.perf_counter()
again = client.get("/view/")
out["again_s"] = time.perf_counter() - t
assert again.text == first.text
pages = int(re.search(r"von (\d+)</p>", client.get("/view/browse").text).group(1))
cases = {
    "browse_first": {},
    "browse_middle": {"page": str(pages // 2)},
    "browse_last": {"page": str(pages)},
    "browse_system": {"system": "sys-03", "page": "20"},
    "browse_judge_score": {"judge": "primary", "min_score": "40", "max_score": "60", "page": "10"},
    "browse_flag_unjudged": {"flag": "unjudged"},
    "browse_flag_truncated": {"flag": "truncated", "page": "2"},
    "browse_fulltext": {"q": "Anspruch des K", "page": "3"},
    "browse_fulltext_selective": {"q": sys.argv[3].lower(), "page": "3"},
}
for name, params in cases.items():
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        r = client.get("/view/browse", params=params)
        times.append(time.perf_counter() - t)
        assert r.status_code == 200
    out[name + "_s"] = statistics.median(times)
    out["digest"][name] = digest(r.text)
out["pages"] = pages
print(json.dumps(out))
"""


@contextlib.contextmanager
def _locations(backend: str, tag: str, folder: Path, n: int) -> Iterator[str]:
    """Where one code version's store lives: an SQLite file in ``folder`` or a fresh PostgreSQL database."""
    if backend == "sqlite":
        yield str(folder / f"store-{n}-{tag}.db")
        return
    import psycopg

    name = f"benger_bench_viewer_{tag}_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


_SERVE = "import sys; from benger.cli import main; sys.argv[0] = 'benger'; main()"


def _cpu_of(pid: int) -> float:
    """The CPU seconds (user + system, all threads) process ``pid`` used so far (Linux ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _served(store: str, repeat: int, src: str | None) -> dict[str, Any]:
    """``benger view --db store`` in a fresh process: seconds from its start to the first page over HTTP, and the
    first Browse page of that server (median of ``repeat``)."""
    import socket
    import time
    import urllib.error
    import urllib.request

    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = os.environ.copy()
    if src:
        env["PYTHONPATH"] = src
    url = f"http://127.0.0.1:{port}/view/"
    args = [sys.executable, "-c", _SERVE, "view", "--db", store, "--port", str(port)]
    start = time.perf_counter()
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while True:
            try:
                with urllib.request.urlopen(url, timeout=120) as page:
                    assert page.status == 200, page.status
                    page.read()
                break
            except (urllib.error.URLError, ConnectionError):
                if proc.poll() is not None:
                    raise SystemExit(proc.stderr.read().decode() if proc.stderr else "benger view ended") from None
                time.sleep(0.01)
        served = time.perf_counter() - start
        out: dict[str, Any] = {"served_s": served, "served_cpu_s": _cpu_of(proc.pid), "load": os.getloadavg()[0]}
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            with urllib.request.urlopen(url + "browse", timeout=120) as page:
                page.read()
            times.append(time.perf_counter() - t)
        out["served_browse_s"] = statistics.median(times)
        return out
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _run(code: str, args: list[str], src: str | None) -> dict[str, Any]:
    env = os.environ.copy()
    if src:
        env["PYTHONPATH"] = src
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=False, env=env)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


_SYNTH = "import json, sys; sys.path.insert(0, sys.argv[3]); from bench_viewer import synthesise; "
_SYNTH += "print(json.dumps(synthesise(sys.argv[1], int(sys.argv[2]))))"


@contextlib.contextmanager
def _stores(backend: str, versions: dict[str, str | None], folder: Path, n: int) -> Iterator[dict[str, str]]:
    with contextlib.ExitStack() as stack:
        out = {}
        for tag, src in versions.items():
            location = stack.enter_context(_locations(backend, tag, folder, n))
            if backend != "sqlite" or not Path(location).exists():
                built = _run(_SYNTH, [location, str(n), str(HERE)], src)
                print(f"{backend} {tag}: synthesised {built}", file=sys.stderr)
            out[tag] = location
        yield out


def measure(backend: str, versions: dict[str, str | None], folder: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Alternating fresh processes per code version on its own store; per figure the median over the runs."""
    with _stores(backend, versions, folder, args.generations) as stores:
        runs: dict[str, list[dict[str, Any]]] = {tag: [] for tag in versions}
        for _ in range(args.runs):
            for tag, src in versions.items():
                served = _served(stores[tag], args.repeat, src)
                found = _run(_CHILD, [stores[tag], str(args.repeat), MARKER], src)
                runs[tag].append({**served, **found, "load": max(served["load"], found["load"])})
    report: dict[str, Any] = {"backend": backend}
    for tag, found in runs.items():
        keys = [k for k in found[0] if k.endswith("_s")]
        report[tag] = {k: round(statistics.median(r[k] for r in found), 3) for k in keys}
        report[tag]["load_1min"] = [round(r["load"], 2) for r in found]
        report[tag]["digest"] = found[-1]["digest"]
        report[tag]["pages"] = found[-1]["pages"]
    if "before" in runs:
        b, a = report["before"], report["after"]
        report["before/after"] = {k: round(b[k] / a[k], 1) for k in a if k.endswith("_s") and a[k] > 0}
        report["same_pages"] = b["digest"] == a["digest"]
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--generations", type=int, default=64000)
    parser.add_argument("--backend", action="append", choices=("sqlite", "postgresql"), help="default: sqlite")
    parser.add_argument("--cache", type=Path, help="keep the synthesised SQLite stores here and reuse them")
    parser.add_argument("--before", help="the src folder of the code to compare with (this checkout's is 'after')")
    parser.add_argument("--repeat", type=int, default=5, help="requests per Browse case (median reported)")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per code version (median reported)")
    args = parser.parse_args()
    versions: dict[str, str | None] = {"after": str(HERE.parent / "src")}
    if args.before:
        versions = {"before": str(Path(args.before).resolve()), **versions}
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.cache or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        reports = [measure(b, versions, folder, args) for b in args.backend or ["sqlite"]]
    print(json.dumps({"generations": args.generations, "uptime": os.getloadavg(), "reports": reports}, indent=2))


if __name__ == "__main__":
    main()
