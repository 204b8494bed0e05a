"""``benger leaderboard --judge NAME`` with a name no stored judgement carries: exit 2, one message that lists
the store's judge names (the paper's judges with their display names), whatever the other options."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.analysis.leaderboard_stores import tiny_store
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.judge._released import PRIMARY_JUDGE

_register_commands()
runner = CliRunner()
STORED = f"stored judges: cfgB_opus [Opus-4.7], {PRIMARY_JUDGE} [GPT-5.4-mini (primary)], my-judge"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("judges") / "tiny.db"
    judges = {PRIMARY_JUDGE: [60.0, 70.0, 80.0], "cfgB_opus": [50.0], "my-judge": [10.0, 20.0, 30.0]}
    tiny_store(path, {"a": judges, "b": judges}).close()
    return path


@pytest.mark.parametrize(
    ("args", "unknown"),
    [
        (["--judge", "nosuch"], "'nosuch'"),
        (["--judge", "Opus-4.7"], "'Opus-4.7'"),  # the display name is not the judge's name
        (["--judge", "gpt54mini"], "'gpt54mini'"),  # the release's key is not the stored name
        (["--judge", "nosuch", "--judge", "cfgB_opus"], "'nosuch'"),
        (["--judge", "x", "--judge", "y"], "'x', 'y'"),
        (["--judge", "nosuch", "--ci", "normal"], "'nosuch'"),
        (["--judge", "nosuch", "--system", "a"], "'nosuch'"),
    ],
)
def test_an_unknown_judge_is_named_with_the_stored_ones(db: Path, args: list[str], unknown: str) -> None:
    result = runner.invoke(app, ["leaderboard", "--db", str(db), *args], env={"COLUMNS": "400"})
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert f"unknown judge {unknown};" in lines[0] and lines[0].endswith(STORED), lines[0]


def test_a_stored_judge_is_taken(db: Path) -> None:
    result = runner.invoke(app, ["leaderboard", "--db", str(db), "--judge", "my-judge"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
