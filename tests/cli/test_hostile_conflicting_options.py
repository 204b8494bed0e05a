"""Options that would be silently ignored or overridden are refused (2026-12-01 (c), hostile user).

Before: ``validate-judge --recorded gpt54mini --dry-run`` ran the whole validation (no dry run), and
``--repeats 3`` / ``--concurrency 2`` with ``--recorded`` were ignored, exit 0; ``leaderboard
--metric-signature bleu=a --metric-signature bleu=b`` used the last one without a word.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()


@pytest.mark.parametrize(
    ("extra", "flags"),
    [
        (["--dry-run"], "--dry-run"),
        (["--repeats", "3"], "--repeats"),
        (["--repeats", "1"], "--repeats"),  # given, even at the default, is not ignored silently
        (["--concurrency", "2", "--dry-run"], "--concurrency, --dry-run"),
    ],
)
def test_judging_options_with_recorded_scores(extra: list[str], flags: str, tmp_path: Path) -> None:
    # refused before the release is read: the folder does not even exist
    args = ["validate-judge", "--recorded", "gpt54mini", "--release", str(tmp_path / "none"), *extra]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert f"--recorded replays stored scores and judges nothing, so {flags} would be ignored" in result.output


def test_two_signatures_of_one_metric(tmp_path: Path) -> None:
    args = ["--metric-signature", "bleu=a", "--metric-signature", "bleu=b"]
    result = runner.invoke(app, ["leaderboard", "--db", str(tmp_path / "none.db"), *args])
    assert result.exit_code == 2, result.output
    assert "error: --metric-signature names two signatures of bleu: 'a' and 'b'; give one" in result.output
