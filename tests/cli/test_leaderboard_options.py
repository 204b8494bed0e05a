"""``benger leaderboard`` refuses option values that would silently give a wrong or empty table (exit 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def demo_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("lb") / "demo.db"
    result = runner.invoke(app, ["import", "demo", "--db", str(db)])
    assert result.exit_code == 0, result.output
    return db


def _lb(db: Path, *args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["leaderboard", "--db", str(db), *args], env={"COLUMNS": "300"})
    return result.exit_code, result.output


def test_an_unknown_corpus_is_named_with_the_stored_ones(demo_store: Path) -> None:
    code, output = _lb(demo_store, "--corpus", "nosuch")
    assert code == 2, output
    assert "unknown corpus 'nosuch'; stored corpora: " in output
    stored = output.split("stored corpora: ")[1].split()[0].rstrip(",")
    assert stored and stored != "nosuch"


def test_judge_and_pool_judges_together_are_a_usage_error(tmp_path: Path) -> None:
    # refused before the store is opened: the missing store is never mentioned nor created
    code, output = _lb(tmp_path / "missing.db", "--judge", "gpt-5.4-mini", "--pool-judges")
    assert code == 2, output
    assert "Invalid value for '--pool-judges'" in output and "give one or the other" in output
    assert not (tmp_path / "missing.db").exists()


def test_a_signature_without_values_is_refused(demo_store: Path) -> None:
    code, output = _lb(demo_store, "--metric-signature", "bleu=bogus")
    assert code == 2, output
    assert "no stored values of metric bleu with signature 'bogus'; no value of metric bleu is stored" in output
