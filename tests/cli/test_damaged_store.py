"""A store file damaged in the middle (issue 26's new-user attack): SQLite finds the damage only when a command reads
the damaged page; the CLI says the file is damaged and exits 2 instead of reporting a bug in benger."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy.exc import DatabaseError, OperationalError
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands, damaged_store
from benger.schema import Corpus, FalloesungTask, Generation, Judgement, SystemConfig
from benger.store import open_store

_register_commands()
runner = CliRunner()


def _store(path: Path) -> None:
    store = open_store(str(path))
    try:
        task = FalloesungTask(task_id="t1", corpus="mini", area="Zivilrecht", facts="A kauft von B.", reference="R.")
        store.add_corpus(Corpus(name="mini", tasks=[task]))
        system = SystemConfig(name="sys-a", provider="openai-compatible", model="m")
        store.upsert_system(system)
        store.save_generations(
            [Generation(generation_id="g0", task_id="t1", system="sys-a", config_hash=system.config_hash(), text="T")]
        )
        store.save_judgements(
            [
                Judgement(
                    judgement_id="g0:j:0",
                    target_kind="generation",
                    target_id="g0",
                    judge="j",
                    judge_config_hash="h",
                    rubric_id="falloesung@1",
                    status="scored",
                    total=60.0,
                )
            ]
        )
    finally:
        store.close()


def _damage_table(path: Path, table: str) -> None:
    """Overwrite the root pages of ``table`` and of its indexes (a query may read an index only) with a byte
    pattern SQLite cannot read as a b-tree page."""
    with sqlite3.connect(path) as con:
        roots = [r for (r,) in con.execute("SELECT rootpage FROM sqlite_master WHERE tbl_name = ?", (table,)) if r]
        (size,) = con.execute("PRAGMA page_size").fetchone()
    con.close()
    with path.open("r+b") as f:
        for root in roots:
            f.seek((root - 1) * size)
            f.write(b"\xee" * size)


def test_a_store_damaged_in_the_middle_is_an_input_error_naming_the_damage(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    _store(db)
    assert runner.invoke(app, ["leaderboard", "--db", str(db)]).exit_code == 0
    _damage_table(db, "judgements")
    result = runner.invoke(app, ["leaderboard", "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert "the SQLite store file is damaged (database disk image is malformed)" in result.output
    assert "internal error" not in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (sqlite3.DatabaseError("database disk image is malformed"), "database disk image is malformed"),
        (sqlite3.DatabaseError("file is not a database"), "file is not a database"),
        (DatabaseError("SELECT 1", {}, sqlite3.DatabaseError("database disk image is malformed")), "malformed"),
        (OperationalError("SELECT 1", {}, sqlite3.OperationalError("database disk image is malformed")), "malformed"),
        (sqlite3.OperationalError("no such table: judgements"), None),  # not damage: another message elsewhere
        (ValueError("database disk image is malformed"), None),  # only SQLite's own errors count
    ],
)
def test_damage_is_recognised_from_sqlites_own_errors_only(error: BaseException, words: str | None) -> None:
    found = damaged_store(error)
    assert (found is None) if words is None else (found is not None and words in found)
