"""Commands that only read a store never create or migrate one: a missing or empty file is an input error."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()
READERS = [["leaderboard"], ["analyze", "--out", "unused-out"], ["errors"]]


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_an_empty_file_is_not_turned_into_a_store(command: list[str], tmp_path: Path) -> None:
    empty = tmp_path / "e.db"
    empty.touch()
    result = runner.invoke(app, [*command, "--db", str(empty)])
    assert result.exit_code == 2, result.output
    assert "empty file, not a benger store" in result.output
    assert empty.stat().st_size == 0  # no schema was written into it


@pytest.mark.parametrize("command", READERS, ids=lambda c: c[0])
def test_a_missing_file_is_not_created(command: list[str], tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    result = runner.invoke(app, [*command, "--db", str(missing)])
    assert result.exit_code == 2, result.output
    assert "no benger store here" in result.output
    assert not missing.exists()
