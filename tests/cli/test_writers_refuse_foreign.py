"""A command that writes a store creates one only where nothing is yet (a missing or 0-byte file, a database
without any table); another program's SQLite database or a newer benger's store is refused, left byte for byte.

Tester (2026-12-03): ``benger import good.jsonl --db other.db`` on a database holding a foreign table ``x``
printed "imported corpus good", exit 0, and added ~47 benger tables; ``benger run run.yaml --dry-run --db
foreign.db`` the same. The rule is ``benger.store._open.open_engine(create=True)``'s.
"""

from __future__ import annotations

import json
import os
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
_UNUSED = "base_url: 'http://127.0.0.1:9/v1'"  # nothing listens: the refusal comes before any call


def _foreign(path: Path, _template: Path) -> None:
    """The tester's file: another program's database with one table ``x``."""
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE x (id INTEGER PRIMARY KEY, body TEXT)")
        con.execute("INSERT INTO x (body) VALUES ('mine')")
    con.close()


def _text(path: Path, _template: Path) -> None:
    path.write_text("id,name\n1,mine\n", encoding="utf-8")


def _newer(path: Path, template: Path) -> None:
    path.write_bytes(template.read_bytes())
    with sqlite3.connect(path) as con:
        con.execute("UPDATE alembic_version SET version_num = ?", (FUTURE,))
    con.close()


# kind -> (make the file, a phrase of the one error line)
REFUSED: dict[str, tuple[Callable[[Path, Path], None], str]] = {
    "foreign-table": (_foreign, "not a benger store (no alembic_version table; it holds: x)"),
    "text-file": (_text, "not an SQLite database"),
    "newer-schema": (_newer, f"schema revision {FUTURE!r} is unknown to this benger"),
}

# the commands that write (or, --dry-run/estimate, only read) a store; {corpus} and {config} are files
WRITERS: dict[str, list[str]] = {
    "import": ["import", "{corpus}"],
    "run": ["run", "{config}"],
    "run-dry-run": ["run", "{config}", "--dry-run"],
    "generate": ["generate", "{config}"],
    "judge": ["judge", "{config}"],
    "estimate": ["estimate", "{config}"],
}


def _inputs(folder: Path) -> dict[str, Path]:
    corpus = folder / "good.jsonl"
    record = {"id": "t1", "bereich": "Strafrecht", "fall": "T lädt sein Auto.", "frage": "Analogie?",
              "antwort": "Ja", "begründung": "Strom ist keine Sache."}  # fmt: skip
    corpus.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    config = folder / "run.yaml"
    config.write_text(
        f"corpora: ['{corpus}']\n"
        f"systems:\n  - {{name: s, provider: openai-compatible, model: m, {_UNUSED}}}\n"
        f"judges:\n  - {{name: j, provider: openai-compatible, model: m, {_UNUSED}}}\n",
        encoding="utf-8",
    )
    return {"corpus": corpus, "config": config}


def _state(path: Path) -> tuple[bytes, int, list[str]]:
    return path.read_bytes(), os.stat(path).st_mtime_ns, sorted(p.name for p in path.parent.iterdir())


@pytest.mark.parametrize("command", list(WRITERS), ids=str)
@pytest.mark.parametrize("kind", list(REFUSED), ids=str)
def test_a_writing_command_refuses_what_is_not_its_store(
    kind: str, command: str, tmp_path: Path, migrated_sqlite: Path
) -> None:
    make, phrase = REFUSED[kind]
    inputs = _inputs(tmp_path)
    db = tmp_path / "db" / "other.db"
    db.parent.mkdir()
    make(db, migrated_sqlite)
    before = _state(db)
    args = [a.format(**inputs) for a in WRITERS[command]]
    result = runner.invoke(app, [*args, "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {db}: ") and phrase in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1, result.output
    assert "imported corpus" not in result.output
    assert _state(db) == before  # no table added, no journal mode switched, no -wal left


@pytest.mark.parametrize("kind", ["missing", "zero-bytes", "no-tables", "benger-store"])
def test_import_creates_a_store_only_where_nothing_is(
    kind: str, tmp_path: Path, copy_of_migrated_sqlite: Callable[[Path], Path]
) -> None:
    db = tmp_path / "new.db"
    if kind == "zero-bytes":
        db.touch()
    elif kind == "no-tables":
        with sqlite3.connect(db) as con:
            con.execute("PRAGMA user_version = 1")
        con.close()
    elif kind == "benger-store":  # a store already: written into
        copy_of_migrated_sqlite(db)
    result = runner.invoke(app, ["import", str(_inputs(tmp_path)["corpus"]), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "imported corpus good: 1 tasks" in result.output
    listing = runner.invoke(app, ["corpora", "--db", str(db)])
    assert listing.exit_code == 0 and "good" in listing.output, listing.output
