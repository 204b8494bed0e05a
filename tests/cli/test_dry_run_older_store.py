"""A dry run leaves an older store as it is (new-user report, 2026-12-04): ``benger generate --dry-run``, ``judge
--dry-run``, ``run --dry-run`` and ``benger estimate`` upgraded a store of an older benger to the newest schema,
although a dry run writes nothing. The store is now opened read-only (``benger.cli._budget.estimate_store``,
``open_store(read_only=True)``: SQLite ``query_only``, no migration); the dry run says that the run would upgrade
it, plans without its results, and the file, its folder and its schema revision are as they were. A store at the
newest revision is read as before (tests/cli/test_checks_before_store_writes.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.store.test_migration_0015 import _below, _migrate
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store._engine import create_store_engine, head_revision, parse_url, stored_revision

from .test_checks_before_store_writes import _config

_register_commands()
runner = CliRunner()
DRY_RUNS = [["run", "--dry-run"], ["generate", "--dry-run"], ["judge", "--dry-run"], ["estimate"]]


def _state(path: Path) -> tuple[bytes, int, list[str]]:
    return path.read_bytes(), os.stat(path).st_mtime_ns, sorted(p.name for p in path.parent.iterdir())


def _revision(path: Path) -> str | None:
    engine = create_store_engine(parse_url(f"sqlite:///{path}"))
    try:
        return stored_revision(engine)
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def older(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store of the revision below 0015_rubric_store (built by the migration test's own helper)."""
    path = tmp_path_factory.mktemp("older") / "old.db"
    _migrate(str(path), _below(), up=True)
    return path


@pytest.mark.parametrize("command", DRY_RUNS, ids=" ".join)
def test_a_dry_run_does_not_upgrade_an_older_store(command: list[str], older: Path, tmp_path: Path) -> None:
    config = _config(tmp_path)
    db = tmp_path / "db" / "old.db"
    db.parent.mkdir()
    db.write_bytes(older.read_bytes())
    before = _state(db)
    result = runner.invoke(app, [command[0], str(config), *command[1:], "--db", str(db)])
    assert result.exit_code == 0, result.output
    note = (
        f"note: {db}: the run would upgrade this store first (schema {_below()} -> {head_revision()}); a dry run "
        "writes nothing, so this estimate counts none of the results it holds"
    )
    assert note in result.output.replace("\n", " ") or note in result.output, result.output
    assert "cost:" in result.output
    assert _state(db) == before
    assert _revision(db) == _below()
