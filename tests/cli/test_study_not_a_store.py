"""``benger study`` subcommands need an existing store (issue 26 leftovers, 2026-12-03): ``study picks --db
typo.db`` (and assign/open/close/set-*/...) created an empty store at the mistyped path before failing. Only the
commands that start a deployment create one (``serve``, ``study create-user``); every other subcommand refuses a
missing file, a text file and another program's SQLite database as the reading commands do
(tests/cli/test_not_a_store.py): exit 2, one line naming the file, the file untouched or not created.

A writer meeting a store of a newer benger names the file too (it named the SQLite URL, in Alembic's words).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

from .test_not_a_store import FUTURE, _newer, _other_app, _state

_register_commands()
runner = CliRunner()
PW = "ein-langes-passwort"


def _text(path: Path, _template: Path) -> None:
    path.write_text("Einkaufsliste: Brot, Milch\n", encoding="utf-8")


# kind -> (make the file (None: leave it missing), a phrase of the one error line)
KINDS: dict[str, tuple[Callable[[Path, Path], None] | None, str]] = {
    "missing": (None, "no benger store here"),
    "text-file": (_text, "not an SQLite database, not a benger store"),
    "other-sqlite": (lambda p, _t: _other_app(p), "not a benger store (no alembic_version table; it holds: notes)"),
}

# every study subcommand that needs the store to exist already (list and export: test_not_a_store.py)
SUBCOMMANDS: dict[str, list[str]] = {
    "picks": ["picks", "--study", "s"],
    "assign": ["assign", "--study", "s"],
    "open": ["open", "--study", "s"],
    "close": ["close", "--study", "s"],
    "finish": ["finish", "--study", "s"],
    "feedback": ["feedback", "--study", "s", "--on"],
    "visible-to": ["visible-to", "--study", "s", "--group", "kurs-a"],
    "set-author": ["set-author", "t1", "alice", "--study", "s"],
    "set-password": ["set-password", "alice", "--password", PW],
    "set-roles": ["set-roles", "alice", "--role", "grader"],
    "set-groups": ["set-groups", "alice", "--group", "kurs-a"],
    "activate": ["activate", "alice"],
    "deactivate": ["deactivate", "alice"],
    "invite": ["invite", "participant"],
    "expire": ["expire"],
    "create": ["create", "Sommer", "--corpus", "demo-falloesung"],  # a study needs a corpus in the store
}


@pytest.mark.parametrize("command", list(SUBCOMMANDS), ids=str)
@pytest.mark.parametrize("kind", list(KINDS), ids=str)
def test_a_study_subcommand_refuses_what_is_not_a_store(
    kind: str, command: str, tmp_path: Path, migrated_sqlite: Path
) -> None:
    make, phrase = KINDS[kind]
    folder = tmp_path / "db"
    folder.mkdir()
    db = folder / "typo.db"
    if make is not None:
        make(db, migrated_sqlite)
    before = _state(db)
    result = runner.invoke(app, ["study", *SUBCOMMANDS[command], "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {db}: ") and phrase in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert _state(db) == before  # not created, no tables added, no -wal/-journal left


def test_create_user_still_creates_the_store(tmp_path: Path) -> None:
    db = tmp_path / "study.db"
    args = ["study", "create-user", "admin", "--role", "admin", "--password", PW, "--db", str(db)]
    created = runner.invoke(app, args)
    assert created.exit_code == 0, created.output
    assert runner.invoke(app, ["study", "set-roles", "admin", "--role", "grader", "--db", str(db)]).exit_code == 0


# a writer on a store of a newer benger: the SQLite file's path, not its URL
WRITERS: dict[str, list[str]] = {
    "study-create-user": ["study", "create-user", "admin", "--role", "admin", "--password", PW],
    "import": ["import", "demo"],
}


@pytest.mark.parametrize("command", list(WRITERS), ids=str)
def test_a_writer_names_the_file_of_a_newer_store(command: str, tmp_path: Path, migrated_sqlite: Path) -> None:
    db = tmp_path / "newer.db"
    _newer(db, migrated_sqlite)
    before = _state(db)
    result = runner.invoke(app, [*WRITERS[command], "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {db}: its schema revision {FUTURE!r} is unknown to this benger")
    assert "sqlite://" not in result.output and len(result.output.strip().splitlines()) == 1, result.output
    assert _state(db) == before
    with sqlite3.connect(db) as con:  # left at its own revision, nothing migrated
        assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [(FUTURE,)]
    con.close()
