"""Commands that read a store refuse a file that is not a benger store and leave it byte for byte as it was
(2026-12-02, new-user attack): ``benger leaderboard --db notes.sqlite`` created benger's tables in the user's own
SQLite file (and switched it to WAL), ``benger corpora --db typo.db`` created a store; the commands that write
(import, run, ...) still create and upgrade stores. One table: every kind of non-store x every reading command.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()
FUTURE = "9999_from_a_newer_benger"


def _other_app(path: Path) -> None:
    """Another program's SQLite database (rollback journal, one table of its own)."""
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        con.execute("INSERT INTO notes (body) VALUES ('mine')")
    con.close()


def _no_tables(path: Path) -> None:
    """A valid SQLite database without any table (``sqlite3 x.db 'PRAGMA user_version=1'``)."""
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA user_version = 1")
    con.close()


def _newer(path: Path, template: Path) -> None:
    """A benger store written by a newer benger: a schema revision this benger does not know."""
    path.write_bytes(template.read_bytes())
    with sqlite3.connect(path) as con:
        con.execute("UPDATE alembic_version SET version_num = ?", (FUTURE,))
    con.close()


# kind -> (make the file at path (None: leave it missing), a phrase of the one error line)
KINDS: dict[str, tuple[Callable[[Path, Path], None] | None, str]] = {
    "other-program": (lambda p, _t: _other_app(p), "not a benger store (no alembic_version table; it holds: notes)"),
    "no-tables": (lambda p, _t: _no_tables(p), "empty database, not a benger store"),
    "zero-bytes": (lambda p, _t: p.touch(), "empty file, not a benger store"),
    "newer-schema": (_newer, f"schema revision {FUTURE!r} is unknown to this benger"),
    "missing": (None, "no benger store here"),
}

# the commands that only read a store (or write into an existing one only): {out} is a fresh folder
READERS: dict[str, list[str]] = {
    "leaderboard": ["leaderboard"],
    "corpora": ["corpora"],
    "view": ["view", "--bundle", "{out}"],
    "analyze": ["analyze", "--out", "{out}"],
    "errors": ["errors"],
    "inspect-solution": ["inspect-solution", "--generation", "g1"],
    "import-reviews": ["import-reviews", "{reviews}"],
    "validate-judge": ["validate-judge", "--judge", "gpt-5.4-mini", "--corpus", "mine"],
    "study-list": ["study", "list"],
    "study-export": ["study", "export", "--study", "s", "--out", "{out}"],
    # judge consumes the stored generations: ``judge --db typo.db`` created a store, "nothing to judge", exit 0
    # (2026-12-04 attack, item 4); its dry run refuses alike
    "judge": ["judge", "--corpus", "demo", "--judge", "gpt-5.4-mini"],
    "judge-dry-run": ["judge", "--corpus", "demo", "--judge", "gpt-5.4-mini", "--dry-run"],
}


def _state(path: Path) -> tuple[str | None, list[str]]:
    digest = hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None
    return digest, sorted(p.name for p in path.parent.iterdir())


@pytest.mark.parametrize("command", list(READERS), ids=str)
@pytest.mark.parametrize("kind", list(KINDS), ids=str)
def test_a_reading_command_refuses_what_is_not_a_store(
    kind: str, command: str, tmp_path: Path, migrated_sqlite: Path
) -> None:
    make, phrase = KINDS[kind]
    folder = tmp_path / "db"
    folder.mkdir()
    db = folder / "x.db"
    if make is not None:
        make(db, migrated_sqlite)
    before = _state(db)
    reviews = tmp_path / "reviews.csv"
    reviews.write_text("solution_id,reviewer,role\n", encoding="utf-8")
    args = [a.format(out=tmp_path / "out", reviews=reviews) for a in READERS[command]]
    result = runner.invoke(app, [*args, "--db", str(db)], env={"OPENAI_API_KEY": "sk-unused"})
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {db}: ") and phrase in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert _state(db) == before  # not created, not migrated, no journal mode switched, no -wal left
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("kind", list(KINDS), ids=str)
def test_export_refuses_what_is_not_a_store(kind: str, tmp_path: Path, migrated_sqlite: Path) -> None:
    make, phrase = KINDS[kind]
    db = tmp_path / "db" / "x.db"
    db.parent.mkdir()
    if make is not None:
        make(db, migrated_sqlite)
    before = _state(db)
    result = runner.invoke(app, ["export", "hf", str(db), str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert phrase in result.output and str(db) in result.output
    assert _state(db) == before


def test_a_writing_command_creates_only_a_new_store(tmp_path: Path) -> None:
    """A writer refuses another program's database as a reader does (tests/cli/test_writers_refuse_foreign.py
    has the table); in a missing file it creates the store."""
    db = tmp_path / "notes.sqlite"
    _other_app(db)
    before = _state(db)
    result = runner.invoke(app, ["import", "demo", "--db", str(db)])
    assert result.exit_code == 2 and "not a benger store (no alembic_version table; it holds: notes)" in result.output
    assert _state(db) == before
    new = tmp_path / "new.db"
    assert runner.invoke(app, ["import", "demo", "--db", str(new)]).exit_code == 0
    listing = runner.invoke(app, ["corpora", "--db", str(new)])
    assert listing.exit_code == 0 and "demo-falloesung" in listing.output
