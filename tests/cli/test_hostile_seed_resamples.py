"""Every bootstrap command takes ``--seed`` >= 0 and at most 100,000 resamples (2026-12-01 (c), hostile user).

Before: ``benger leaderboard --seed -5`` and ``benger reproduce ... --seed -1`` ended as "internal error:
ValueError: expected non-negative integer" (exit 1, numpy refuses a negative seed), and
``benger leaderboard --resamples 100000000`` as "internal error: MemoryError: Unable to allocate 763. MiB".
The options are defined once (``benger.cli._options``); these are usage errors (exit 2) before any work.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()

COMMANDS = [
    ["leaderboard", "--db", "{tmp}/s.db"],
    ["reproduce", "--release", "{tmp}", "--out", "{tmp}/out"],
    ["analyze", "--db", "{tmp}/s.db", "--out", "{tmp}/out"],
    ["gutachten-validity", "--release", "{tmp}"],
]
FLAG = {
    "leaderboard": "--resamples",
    "reproduce": "--n-boot",
    "analyze": "--n-boot",
    "gutachten-validity": "--resamples",
}


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--seed", "-1", "greater than or equal to 0"),
        ("RESAMPLES", "100000000", "less than or equal to 100000"),
        ("RESAMPLES", "99", "greater than or equal to 100"),
    ],
)
def test_a_bad_seed_or_resample_count_is_a_usage_error(
    command: list[str], option: str, value: str, message: str, tmp_path: Path
) -> None:
    flag = FLAG[command[0]] if option == "RESAMPLES" else option
    args = [a.format(tmp=tmp_path) for a in command] + [flag, value]
    result = runner.invoke(app, args, env={"COLUMNS": "200"})
    assert result.exit_code == 2, result.output
    assert f"Invalid value for '{flag}'" in result.output and message in result.output
    assert "internal error" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no store, no output folder
