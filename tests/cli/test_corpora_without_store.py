"""``benger corpora`` lists the built-in demo corpora where no store is yet, as the README says.

Tester (2026-12-03): ``benger corpora`` in a folder without ``benger.db`` said "no benger store here" (exit 2).
Without --db and BENGER_DB the default store may be missing: only the built-in corpora are listed, nothing is
created. A --db or BENGER_DB that names no store is still refused (a typo must not look like an empty store).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.corpora import DEMO_NAMES

_register_commands()
runner = CliRunner()

# case -> (arguments, BENGER_DB, exit code, a phrase of the output)
CASES: dict[str, tuple[list[str], str | None, int, str]] = {
    "no-store-no-option": ([], None, 0, "built-in (benger import demo)"),
    "missing-db-option": (["--db", "typo.db"], None, 2, "no benger store here"),
    "missing-BENGER_DB": ([], "typo.db", 2, "no benger store here"),
}


@pytest.mark.parametrize("case", list(CASES), ids=str)
def test_corpora_where_no_store_is(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args, env_db, code, phrase = CASES[case]
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BENGER_DB", raising=False)
    if env_db is not None:
        monkeypatch.setenv("BENGER_DB", env_db)
    result = runner.invoke(app, ["corpora", *args])
    assert result.exit_code == code, result.output
    assert phrase in result.output, result.output
    if code == 0:
        assert all(name in result.output for name in DEMO_NAMES), result.output
    assert list(tmp_path.iterdir()) == []  # no store created


def test_corpora_lists_a_default_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BENGER_DB", raising=False)
    assert runner.invoke(app, ["import", "demo"]).exit_code == 0
    result = runner.invoke(app, ["corpora"])
    assert result.exit_code == 0 and "store" in result.output, result.output
