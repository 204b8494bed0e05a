"""A Celery run with no worker does not wait forever (issue 32, item 6): after a bounded wait without progress it
says which queue no worker consumes and exits 3 (incomplete; the same command resumes). Real Redis, no worker."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

pytestmark = [pytest.mark.redis, pytest.mark.slow]  # waits for the bounded worker wait (2 s) twice

STUB = "{name: s, provider: openai-compatible, model: s, base_url: 'http://127.0.0.1:9/v1'}"


def test_no_worker_on_the_queue_exits_3_after_a_bounded_wait(
    shared_redis: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _register_commands()
    runner = CliRunner()
    db = tmp_path / "run.db"
    assert runner.invoke(app, ["import", "demo", "--db", str(db)]).exit_code == 0
    config = tmp_path / "run.yaml"
    config.write_text(f"corpora: [demo-grundprinzipien]\nsystems:\n  - {STUB}\nexecutor: celery\n", encoding="utf-8")
    monkeypatch.setenv("BENGER_WORKER_WAIT_SECONDS", "2")
    for _ in range(2):  # the second run resumes the same units and ends the same way
        result = runner.invoke(app, ["generate", str(config), "--db", str(db), "--quiet", "--limit", "2"])
        assert result.exit_code == 3, result.output
        assert "no worker is consuming queue 'generation'" in result.output
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM generations WHERE status = 'ok'").fetchone()[0] == 0
