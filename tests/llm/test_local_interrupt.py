"""Ctrl-C stops a run on the embedded model within 2 s, mid-call, and the same command then resumes (issue 26).

Before, asyncio.run waited at shutdown for the worker thread, which finished the whole llama.cpp reply first:
the demo was still running 150 s after Ctrl-C."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
pytest.importorskip("llama_cpp", reason="needs benger[local] (llama-cpp-python)")

CONFIG = """\
name: interrupt
corpora: [demo-falloesung]
systems:
  - {name: smollm2, provider: local, model: smollm2-135m, temperature: 0.0, seed: 0, max_output_tokens: 600,
     params: {n_ctx: 4096}}
concurrency: 1
retry: {max_retries: 0, initial_wait: 0.0}
"""


def _claims(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1) as con:
            return int(con.execute("select count(*) from claims").fetchone()[0])
    except sqlite3.Error:  # not migrated yet
        return 0


def _generations(db: Path) -> list[tuple[str, str]]:
    with sqlite3.connect(db) as con:
        return [(row[0], row[1]) for row in con.execute("select task_id, status from generations order by task_id")]


def test_sigint_mid_call_stops_within_two_seconds_and_the_rerun_resumes(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    db = tmp_path / "run.db"
    command = [
        sys.executable,
        "-c",
        "from benger.cli import main; main()",
        "generate",
        str(config),
        "--db",
        str(db),
        "--quiet",
        "--threads",
        "1",
    ]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # a background test run ignores SIGINT
    )
    try:
        deadline = time.monotonic() + 120
        while _claims(db) == 0:  # the first item is claimed right before its model call
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no item was claimed in 120 s"
            time.sleep(0.05)
        time.sleep(1.5)  # inside the call: 600 tokens take SmolLM2 10-20 s on one thread
        assert proc.poll() is None
        lines: list[tuple[float, str]] = []
        reader = threading.Thread(
            target=lambda: lines.extend((time.monotonic(), line) for line in iter(proc.stderr.readline, "")),  # type: ignore[union-attr]
            daemon=True,
        )
        reader.start()
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=30)
        exited = time.monotonic() - sent
        reader.join(timeout=5)
    finally:
        if proc.poll() is None:
            proc.kill()
    stderr = "".join(line for _, line in lines)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr, stderr
    said = [t for t, line in lines if line.startswith("interrupted")]
    assert said, stderr
    # the run has stopped: the message comes once asyncio.run has returned (no model call runs any more); closing
    # the store and the interpreter's own teardown (freeing the model) follow, a few tenths of a second when quiet
    assert said[0] - sent < 2.0, f"'interrupted' {said[0] - sent:.1f} s after SIGINT"
    assert exited < 10.0, f"exited {exited:.1f} s after SIGINT"
    assert _claims(db) == 0  # the interrupted item's claim was released, not left to expire
    assert all(status == "ok" for _, status in _generations(db))  # nothing half-written

    # the same command resumes (--limit 1: the interrupted first item) and finishes it: stored ok, or excluded
    # when the 135M model's reply is too short (exit 3, "excluded without a usable result"), never failed
    rerun = subprocess.run([*command, "--limit", "1"], env=env, capture_output=True, text=True, timeout=600)
    statuses = [status for _, status in _generations(db)]
    assert (rerun.returncode, statuses[:1]) in ((0, ["ok"]), (3, ["excluded"])), rerun.stderr
    assert "Traceback" not in rerun.stderr and _claims(db) == 0


def test_concurrent_llama_loads_leave_stderr_in_place() -> None:
    """A vocabulary load for the context-fit check and a model load in two threads at once: llama-cpp-python's
    ``verbose=False`` swaps sys.stderr for /dev/null around each and restores what it found, so interleaved loads
    left sys.stderr on /dev/null and the "interrupted" message of Ctrl-C was never seen (CI, 2026-12-01)."""
    code = (
        "import sys, threading\n"
        "from benger.llm import model_path\n"
        "from benger.llm._llama import LlamaKey, load_llama\n"
        "from benger.pipeline._fit import token_counter\n"
        "from benger.schema import SystemConfig\n"
        "system = SystemConfig(name='s', provider='local', model='smollm2-135m')\n"
        "path = str(model_path('smollm2-135m'))\n"
        "jobs = [lambda: [token_counter(system) for _ in range(30)] for _ in range(2)]\n"
        "jobs.append(lambda: [load_llama(LlamaKey(path, 256 + 64 * i, 64)) for i in range(12)])\n"
        "threads = [threading.Thread(target=job) for job in jobs]\n"
        "[t.start() for t in threads]; [t.join() for t in threads]\n"
        "print('still here', file=sys.stderr)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines()[-1:] == ["still here"], proc.stderr
