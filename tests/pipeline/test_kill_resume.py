"""kill -9 of a running ``benger generate`` subprocess, then a rerun: nothing finished is generated twice,
and the final store equals an uninterrupted run's (the stub is deterministic)."""

from __future__ import annotations

import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from benger.pipeline import PromptSet
from benger.store import open_store
from benger.testing.stub_server import messages_key

from .conftest import make_corpora

ITEMS = 20
BENGER = [sys.executable, "-c", "from benger.cli import main; main()"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def stub(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """The stub server as its own process, 300 ms latency, with a JSONL request log."""
    port, log = _free_port(), tmp_path / "requests.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "benger.testing.stub_server", "--port", str(port), "--latency-ms", "300",
         "--request-log", str(log)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    proc.stdout.readline()  # "benger stub server on ..." once it listens
    yield f"http://127.0.0.1:{port}/v1", log
    proc.terminate()
    proc.wait(timeout=10)


def _setup(tmp_path: Path, base_url: str) -> Path:
    corpus = tmp_path / "kill.jsonl"
    tasks = make_corpora(n_fall=ITEMS, n_gp=0)[0].tasks
    corpus.write_text("".join(json.dumps(t.model_dump(exclude={"corpus", "meta"}), ensure_ascii=False) + "\n"
                              for t in tasks), encoding="utf-8")  # fmt: skip
    config = tmp_path / "run.yaml"
    config.write_text(
        f"name: kill\ncorpora: [kill.jsonl]\nconcurrency: 4\nsystems:\n"
        f"  - {{name: stub, provider: openai-compatible, model: stub, base_url: '{base_url}', temperature: 0}}\n",
        encoding="utf-8",
    )
    return config


def _generate(config: Path, db: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([*BENGER, "generate", str(config), "--db", str(db), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip


def _saved(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(db, timeout=1) as con:
            return int(con.execute("select count(*) from generations").fetchone()[0])
    except sqlite3.OperationalError:  # tables not created yet
        return 0


def _content(db: Path) -> dict[tuple[str, str, int], tuple[str, str, str | None]]:
    store = open_store(db)
    try:
        return {(g.task_id, g.config_hash, g.run_index): (g.status, g.text, g.answer) for g in store.generations()}
    finally:
        store.close()


@pytest.mark.slow
def test_kill9_then_rerun(tmp_path: Path, stub: tuple[str, Path]) -> None:
    base_url, log = stub
    config = _setup(tmp_path, base_url)
    db = tmp_path / "killed.db"
    proc = _generate(config, db)
    deadline = time.monotonic() + 60
    while _saved(db) < 6 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    before = _content(db)
    assert 6 <= len(before) < ITEMS, "the kill must land mid-run"
    store = open_store(db)
    committed_at = {g.task_id: g.meta["completed_at"] for g in store.generations()}
    store.close()
    rerun = _generate(config, db)
    _, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err

    # the request log's key is the hash of the messages: map it back to the task
    prompts = PromptSet()
    task_of = {}
    for task in make_corpora(n_fall=ITEMS, n_gp=0)[0].tasks:
        task = task.model_copy(update={"corpus": "kill"})
        messages = [m.model_dump() for m in prompts.generation_messages(task)]
        task_of[messages_key(messages)] = task.task_id
    entries = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert {e["key"] for e in entries} <= set(task_of), "every request is one of the 20 generation prompts"
    for entry in entries:
        task_id = task_of[entry["key"]]
        if task_id in committed_at:
            # no request for an item started after that item's result was committed
            assert entry["ts"] <= committed_at[task_id], f"{task_id} was generated again after completion"
    requested = {task_of[e["key"]] for e in entries}
    assert len(requested) == ITEMS

    # an uninterrupted run into a fresh store gives the same content
    fresh = tmp_path / "fresh.db"
    clean = _generate(config, fresh)
    _, err = clean.communicate(timeout=120)
    assert clean.returncode == 0, err
    final, expected = _content(db), _content(fresh)
    assert len(final) == ITEMS and final == expected
    assert all(status == "ok" for status, _, _ in final.values())
    assert all(final[key] == value for key, value in before.items())  # what was saved before the kill is unchanged


def _requests_per_task(log: Path, corpus: str) -> dict[str, int]:
    prompts = PromptSet()
    task_of = {}
    for task in make_corpora(n_fall=ITEMS, n_gp=0)[0].tasks:
        task = task.model_copy(update={"corpus": corpus})
        task_of[messages_key([m.model_dump() for m in prompts.generation_messages(task)])] = task.task_id
    counts: dict[str, int] = {}
    for line in log.read_text(encoding="utf-8").splitlines():
        task_id = task_of[json.loads(line)["key"]]
        counts[task_id] = counts.get(task_id, 0) + 1
    return counts


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def test_obs9_two_concurrent_generate_runs_pay_once_per_item(
    tmp_path: Path, stub: tuple[str, Path], backend: str, request: pytest.FixtureRequest
) -> None:
    """Issue 10, observation 9: two ``benger generate`` processes on one store; the stub's request log
    shows exactly one model call per item, and the store holds every item once."""
    base_url, log = stub
    config = _setup(tmp_path, base_url)
    if backend == "sqlite":
        db: str = str(tmp_path / "shared.db")
        open_store(db).close()
        _run_both(config, db, log)
    else:
        with request.getfixturevalue("pg_database")("benger_payonce") as url:
            open_store(url).close()
            _run_both(config, url, log)


def _run_both(config: Path, db: str, log: Path) -> None:
    runs = [
        subprocess.Popen([*BENGER, "generate", str(config), "--db", db, "--quiet"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]  # fmt: skip
    codes = []
    for proc in runs:
        _, err = proc.communicate(timeout=180)
        codes.append(proc.returncode)
        assert proc.returncode in (0, 3), err  # 3: some items were still in the other run's hands at the end
    assert 0 in codes  # the run that finished last saw every item done
    counts = _requests_per_task(log, "kill")
    assert len(counts) == ITEMS
    assert {task: n for task, n in counts.items() if n != 1} == {}, "an item was paid for twice"
    store = open_store(db)
    try:
        gens = store.generations()
        assert len(gens) == ITEMS and {g.status for g in gens} == {"ok"}
        assert store.claims() == []  # every claim was released after its save
    finally:
        store.close()
