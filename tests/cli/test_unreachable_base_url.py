"""A ``base_url`` no server answers is refused before any item or store write (2026-12-04 attack).

Before: a run config whose system pointed at a wrong port (nothing listening) was found item by item: every
item failed (labelled "request timed out"), was stored as a failed row, and ``benger run`` exited 3 ("run the
same command again"). Now the real run's preflight (``pipeline._orchestrate.check_endpoints``, after
``check_run``) asks every distinct ``base_url`` of the systems and judges it calls once: one line naming the
system, the ``base_url`` and the config file, exit 2, the store (missing or existing) as it was, no request made.
The dry run calls nothing and asks no server.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store import open_store
from benger.testing import StubServer, run_stub_server

_register_commands()
runner = CliRunner()


def free_port() -> int:
    """A port nothing listens on: bound, then closed again."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def stub() -> Iterator[StubServer]:
    with run_stub_server() as server:
        yield server


def _config(folder: Path, system_url: str, judge_url: str) -> Path:
    record = {"id": "f1", "bereich": "Zivilrecht", "sachverhalt": "K kauft ein Rad.", "musterlösung": "K hat ..."}
    (folder / "faelle.jsonl").write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    config = folder / "run.yaml"
    config.write_text(
        f"corpora: ['{folder}/faelle.jsonl']\n"
        f"systems:\n  - {{name: ok, provider: openai-compatible, model: stub, base_url: '{judge_url}'}}\n"
        f"  - {{name: wrong-port, provider: openai-compatible, model: stub, base_url: '{system_url}'}}\n"
        f"judges: [{{name: j, provider: openai-compatible, model: stub, base_url: '{judge_url}'}}]\n",
        encoding="utf-8",
    )
    return config


def _state(path: Path) -> tuple[bytes, int, list[str]] | None:
    if not path.exists():
        return None
    return path.read_bytes(), os.stat(path).st_mtime_ns, sorted(p.name for p in path.parent.iterdir())


@pytest.mark.parametrize("store", ["missing", "existing"])
@pytest.mark.parametrize("command", ["run", "generate"])
def test_a_wrong_port_is_one_error_before_any_item(command: str, store: str, stub: StubServer, tmp_path: Path) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    config = _config(tmp_path, dead, stub.base_url)
    db = tmp_path / "db" / "s.db"
    db.parent.mkdir()
    if store == "existing":
        open_store(db).close()
    before = _state(db)
    stub.log.clear()
    result = runner.invoke(app, [command, str(config), "--db", str(db), "-q"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    assert lines[0].startswith(f"error: {config}, field 'systems[1].base_url': system 'wrong-port': "), lines[0]
    assert f"no server answers at base_url {dead}: connection refused" in lines[0]
    assert "timed out" not in lines[0] and "'ok'" not in lines[0]  # the server that answers is not named
    assert list(stub.log) == []  # not one request: the good system did not start either
    assert _state(db) == before
    dry = runner.invoke(app, [command, str(config), "--db", str(db), "--dry-run"])
    assert dry.exit_code == 0, dry.output  # a dry run calls nothing, so asks no server


def test_a_judge_at_a_wrong_port_stops_judge_before_any_judgement(stub: StubServer, tmp_path: Path) -> None:
    dead = f"http://127.0.0.1:{free_port()}/v1"
    db = tmp_path / "s.db"
    config = _config(tmp_path, stub.base_url, stub.base_url)
    assert runner.invoke(app, ["generate", str(config), "--db", str(db), "-q"]).exit_code == 0
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace(f"base_url: '{stub.base_url}'}}]", f"base_url: '{dead}'}}]"), encoding="utf-8")
    stub.log.clear()
    result = runner.invoke(app, ["judge", str(config), "--db", str(db), "-q"])
    assert result.exit_code == 2, result.output
    assert f"field 'judges[0].base_url': judge 'j': no server answers at base_url {dead}" in result.output
    assert list(stub.log) == []
    store = open_store(db, create=False)
    try:  # (the folder is not compared: ``judge`` refused on a filled store leaves its -wal/-shm, as before)
        assert store.judgements() == [] and [g.status for g in store.generations()] == ["ok"]
    finally:
        store.close()


def test_a_finished_run_run_again_asks_no_server(tmp_path: Path) -> None:
    """Only a model with work is asked: the run done, its server gone, the same command exits 0 (nothing to do)."""
    db = tmp_path / "s.db"
    with run_stub_server() as gone:
        config = _config(tmp_path, gone.base_url, gone.base_url)
        assert runner.invoke(app, ["run", str(config), "--db", str(db), "-q"]).exit_code == 0
    again = runner.invoke(app, ["run", str(config), "--db", str(db), "-q"])
    assert again.exit_code == 0 and "no server answers" not in again.output, again.output
    text = config.read_text(encoding="utf-8")  # another judge setting has work: its server (the same, gone) is asked
    config.write_text(text.replace("judges: [{name: j,", "judges: [{name: j2, temperature: 0.5,"), encoding="utf-8")
    judged = runner.invoke(app, ["judge", str(config), "--db", str(db), "-q"])
    assert judged.exit_code == 2 and f"judge 'j2': no server answers at base_url {gone.base_url}" in judged.output


def test_systems_sharing_a_dead_url_are_named_in_one_line(tmp_path: Path) -> None:
    """Given on the command line (no config file, so no field): the message names the systems and the URL."""
    dead = f"http://127.0.0.1:{free_port()}/v1"
    result = runner.invoke(
        app,
        ["run", "--model", "openai-compatible/a", "--model-base-url", dead, "--judge-model",
         "openai-compatible/b", "--judge-model-base-url", dead, "--corpus", "demo-grundprinzipien",
         "--db", str(tmp_path / "s.db"), "-q"],
    )  # fmt: skip
    assert result.exit_code == 2, result.output
    assert result.output.startswith(
        f"error: system 'openai-compatible/a', judge 'openai-compatible/b': no server answers at base_url {dead}: "
        "connection refused"
    ), result.output
    assert not (tmp_path / "s.db").exists()  # the new empty store is removed as for every refused input


def test_validate_judge_with_a_judge_at_a_wrong_port_makes_no_judgement(tmp_path: Path, release_dir: Path) -> None:
    """``validate-judge`` judges the release's picks with the config's first judge (``analysis.judge_picks``): the
    same preflight before its first judgement (a second judge, which it does not call, is not asked)."""
    dead = f"http://127.0.0.1:{free_port()}/v1"
    config = tmp_path / "judge.yaml"
    config.write_text(
        f"judges:\n  - {{name: j, provider: openai-compatible, model: m, base_url: '{dead}'}}\n"
        f"  - {{name: unused, provider: openai-compatible, model: m, base_url: 'http://127.0.0.1:{free_port()}/v1'}}\n",
        encoding="utf-8",
    )
    db = tmp_path / "vj.db"
    result = runner.invoke(app, ["validate-judge", str(config), "--release", str(release_dir), "--db", str(db), "-q"])
    assert result.exit_code == 2, result.output
    assert f"field 'judges[0].base_url': judge 'j': no server answers at base_url {dead}" in result.output
    assert "unused" not in result.output
    store = open_store(db, create=False)
    try:
        assert store.judgements(judge="j") == []  # (the release import brings its recorded judgements)
    finally:
        store.close()
