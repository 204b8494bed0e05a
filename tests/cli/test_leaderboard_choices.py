"""``benger leaderboard``'s options with choices take them in any case (the new-user attack: ``--ci BCA`` was
refused), and refuse any other value with the choices listed (exit 2)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest
from tests.analysis.leaderboard_stores import tiny_store
from typer.testing import CliRunner

from benger.analysis.leaderboard import CiKind
from benger.cli import app
from benger.cli._app import _register_commands
from benger.cli._leaderboard import CiChoice

_register_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("choices") / "tiny.db"
    tiny_store(path, {"a": {"j": [60.0, 70.0, 80.0, 65.0]}, "b": {"j": [40.0, 50.0, 45.0, 55.0]}}).close()
    return path


def test_the_command_offers_every_ci_kind() -> None:
    assert get_args(CiChoice) == get_args(CiKind)


@pytest.mark.parametrize(
    ("option", "given", "stored"),
    [
        ("--ci", "BCA", "bca"),
        ("--ci", "Bca", "bca"),
        ("--ci", "bca", "bca"),
        ("--ci", "NORMAL", "normal"),
        ("--ci", "Percentile", "percentile"),
        ("--ci", "BOOTSTRAP", "bootstrap"),
        ("--ci", "T", "t"),
        ("--ci", "Auto", "auto"),
    ],
)
def test_a_choice_in_any_case_is_taken(db: Path, tmp_path: Path, option: str, given: str, stored: str) -> None:
    result = runner.invoke(app, ["leaderboard", "--db", str(db), option, given, "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    board = json.loads((tmp_path / "o" / "leaderboard.json").read_text())
    assert board["ci"] == stored


@pytest.mark.parametrize(("option", "given"), [("--ci", "bcaa"), ("--ci", ""), ("--ci", "b ca")])
def test_another_value_is_refused_with_the_choices(db: Path, option: str, given: str) -> None:
    result = runner.invoke(app, ["leaderboard", "--db", str(db), option, given], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{option}'" in result.output and "'percentile', 'bca', 't', 'normal'" in result.output
