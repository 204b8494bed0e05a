"""The 429 case of issue 30: a server that takes 5 requests a second and answers more with 429 + Retry-After.

64 Ja/Nein items (own wording) are generated with ``benger generate`` on the local executor at concurrency 32
against the stub server (its own process, ``--dialect '{"rate_limit": 5, "retry_after": 2}'``); the script
counts failed items, the requests sent and the 429s refused. Run it with a tree's ``src`` first on the path to
measure that tree (``PYTHONPATH=/path/to/tree/src``); the stub always comes from this file's tree, so the server
is the same for a before/after comparison::

    PYTHONPATH=$PWD/src python benchmarks/bench_rate_limit.py
    PYTHONPATH=/path/to/old/src python benchmarks/bench_rate_limit.py --stub-src $PWD/src
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def _port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--items", type=int, default=64)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--rate", type=float, default=5.0)
    parser.add_argument("--retry-after", type=float, default=2.0)
    parser.add_argument("--stub-src", default=str(HERE / "src"))
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench429-"))
    corpus = folder / "jn.jsonl"
    with corpus.open("w", encoding="utf-8") as out:
        for i in range(args.items):
            record = {"id": f"jn-{i:03d}", "bereich": "Zivilrecht", "fall": f"A leiht B am Tag {i} ein Fahrrad.",
                      "frage": "Ist ein Leihvertrag zustande gekommen?", "antwort": "Ja",
                      "begründung": "Unentgeltliche Gebrauchsüberlassung, § 598 BGB."}  # fmt: skip
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
    port, log = _port(), folder / "requests.jsonl"
    dialect = json.dumps({"rate_limit": args.rate, "retry_after": args.retry_after})
    stub_env = {**os.environ, "PYTHONPATH": args.stub_src}
    stub = subprocess.Popen(
        [sys.executable, "-m", "benger.testing.stub_server", "--port", str(port), "--dialect", dialect,
         "--request-log", str(log), "--latency-ms", "50"],
        env=stub_env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    time.sleep(2.0)
    config = folder / "run.yaml"
    config.write_text(
        f"corpora: ['{corpus}']\nconcurrency: {args.concurrency}\nsystems:\n"
        f"  - {{name: limited, provider: openai-compatible, model: stub, base_url: 'http://127.0.0.1:{port}/v1'}}\n",
        encoding="utf-8",
    )
    db = folder / "run.db"
    started = time.monotonic()
    cli = "import sys; from benger.cli import main; sys.exit(main())"
    command = [sys.executable, "-c", cli, "generate", str(config), "--db", str(db), "-q"]
    done = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    stub.terminate()
    stub.wait(timeout=10)
    with sqlite3.connect(db) as con:
        statuses = dict(con.execute("SELECT status, count(*) FROM generations GROUP BY status").fetchall())
    requests = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    refused = sum(1 for r in requests if r["status"] == 429)
    print(json.dumps({
        "items": args.items, "concurrency": args.concurrency, "limit_per_s": args.rate,
        "retry_after_s": args.retry_after, "exit_code": done.returncode, "generations": statuses,
        "failed_items": statuses.get("failed", 0), "requests": len(requests), "refused_429": refused,
        "wall_s": round(elapsed, 1), "load_avg": os.getloadavg()[0],
    }))  # fmt: skip


if __name__ == "__main__":
    main()
