"""The core CLI commands through the console entry point (real store files, no network)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()


def test_help_lists_every_core_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("run", "generate", "judge", "leaderboard", "import", "corpora", "systems", "demo"):
        assert command in result.output


def test_systems_lists_the_catalog() -> None:
    result = runner.invoke(app, ["systems"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "qwen2.5-coder-0.5b-instruct" in result.output and "gpt-5.4-mini" in result.output


def test_import_corpora_and_empty_leaderboard(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    result = runner.invoke(app, ["import", "demo", "--db", db])
    assert result.exit_code == 0, result.output
    assert "imported corpus demo-falloesung: 3 tasks" in result.output
    assert "imported corpus demo-grundprinzipien: 13 tasks" in result.output
    listing = runner.invoke(app, ["corpora", "--db", db])
    assert "demo-falloesung" in listing.output and "store" in listing.output
    board = runner.invoke(app, ["leaderboard", "--db", db, "--out", str(tmp_path / "out")])
    assert board.exit_code == 0, board.output
    header = (tmp_path / "out" / "leaderboard.csv").read_text().splitlines()[0].split(",")
    assert header[0] == "rank" and {"system", "corpus", "n", "mean"} <= set(header)


def test_errors_are_one_line_without_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("corpora: [demo]\nsystems: [x]\nrepeats: 0\n", encoding="utf-8")
    cmd = [sys.executable, "-c", "from benger.cli import main; main()", "run", str(bad), "--db", str(tmp_path / "x.db")]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert f"error: {bad}:3, field 'repeats': Input should be greater than or equal to 1, got 0" in proc.stderr
    celery = tmp_path / "celery.yaml"
    celery.write_text("corpora: [demo]\nsystems: [smollm2-135m]\nexecutor: celery\n", encoding="utf-8")
    cmd[-3] = str(celery)
    dead_broker = {**os.environ, "BENGER_BROKER_URL": "redis://127.0.0.1:1/0"}  # nothing listens on port 1
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60, env=dead_broker)
    assert proc.returncode == 2 and "cannot reach the broker at redis://127.0.0.1:1/0" in proc.stderr


def test_reading_commands_do_not_create_a_missing_store(tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    result = runner.invoke(app, ["leaderboard", "--db", str(missing)])
    assert result.exit_code == 2
    assert "no benger store here" in result.output
    assert not missing.exists()
