"""`benger leaderboard` piped (not a terminal, COLUMNS=160): one line per row, no cell wrapped mid-word."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.table import Table
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.cli._execute import print_table

_register_commands()
runner = CliRunner()


def test_a_piped_table_gets_its_natural_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    table = Table(title="T")
    for header in ("System", "Judge"):
        table.add_column(header, overflow="fold")
    table.add_row("Gemini-3.1-Flash-Lite-Preview", "gpt-5.4-mini")
    print_table(table)
    lines = capsys.readouterr().out.splitlines()
    # the row is one line: "│ " + 29 + " │ " + 12 + " │" = 48 characters, wider than COLUMNS=40
    assert "│ Gemini-3.1-Flash-Lite-Preview │ gpt-5.4-mini │" in lines
    assert max(len(line) for line in lines) == 48


def test_leaderboard_piped_at_160_columns_keeps_every_row_on_one_line(release_dir: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "release.db")
    imported = runner.invoke(app, ["import", f"release:{release_dir}", "--db", db])
    assert imported.exit_code == 0, imported.output
    result = runner.invoke(
        app, ["leaderboard", "--db", db, "--corpus", "benchathon", "--resamples", "100"], env={"COLUMNS": "160"}
    )
    assert result.exit_code == 0, result.output
    body = [line for line in result.output.splitlines() if line.startswith("│")]
    # the release's 12 system configurations on the Benchathon corpus, each one line with its full names
    assert len(body) == 12, result.output
    assert any("│ Gemini-3.1-Flash-Lite │" in line and "│ gpt-5.4-mini │ benchathon │" in line for line in body)
