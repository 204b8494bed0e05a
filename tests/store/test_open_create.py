"""``open_store(db, create=False)`` and ``open_reader(db)`` refuse what is not a benger store and write nothing, on
SQLite and PostgreSQL alike (benger.store._open); ``open_store(db)`` still creates and upgrades. Before, an empty
PostgreSQL database given to ``benger leaderboard --db URL`` got every benger table."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from typer.testing import CliRunner

from benger.errors import InputError
from benger.store import open_reader, open_store

FUTURE = "9999_from_a_newer_benger"


def _tables(db: str) -> list[str]:
    url = db if "://" in db else f"sqlite:///{db}"
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return sorted(inspect(connection).get_table_names())
    finally:
        engine.dispose()


def _execute(db: str, *statements: str) -> None:
    if "://" not in db:
        with sqlite3.connect(db) as con:
            for statement in statements:
                con.execute(statement)
        con.close()
        return
    engine = create_engine(db)
    with engine.begin() as connection:
        for statement in statements:
            connection.execute(text(statement))
    engine.dispose()


# kind -> (statements that make it, phrase of the refusal)
KINDS: dict[str, tuple[tuple[str, ...], str]] = {
    "empty": (("CREATE TABLE t (x INTEGER)", "DROP TABLE t"), "empty database, not a benger store"),
    "other-program": (
        ("CREATE TABLE notes (body TEXT)",), "not a benger store (no alembic_version table; it holds: notes)"
    ),
    "newer-schema": (
        ("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)",
         f"INSERT INTO alembic_version VALUES ('{FUTURE}')"),
        f"schema revision {FUTURE!r} is unknown to this benger",
    ),
    "two-revisions": (
        ("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL)", "INSERT INTO alembic_version VALUES ('a')",
         "INSERT INTO alembic_version VALUES ('b')"),
        "its alembic_version table holds 2 revisions",
    ),
}  # fmt: skip
OPENERS: dict[str, Callable[[str], object]] = {
    "open_store(create=False)": lambda db: open_store(db, create=False),
    "open_reader": open_reader,
}


@pytest.mark.parametrize("opener", list(OPENERS), ids=str)
@pytest.mark.parametrize("kind", list(KINDS), ids=str)
def test_opening_without_create_refuses_and_writes_nothing(kind: str, opener: str, db_url: str) -> None:
    statements, phrase = KINDS[kind]
    _execute(db_url, *statements)
    before = _tables(db_url)
    with pytest.raises(InputError, match="benger") as caught:
        OPENERS[opener](db_url)
    assert str(caught.value).startswith(f"{db_url}: ") and phrase in str(caught.value)  # names the file or database
    assert _tables(db_url) == before  # no benger table created


def test_an_empty_postgres_database_is_refused_by_a_reading_command(pg_url: str) -> None:
    from benger.cli import app
    from benger.cli._app import _register_commands

    _register_commands()
    for command in (["leaderboard"], ["corpora"], ["errors"]):
        result = CliRunner().invoke(app, [*command, "--db", pg_url])
        assert result.exit_code == 2, result.output
        assert result.output == f"error: {pg_url}: empty database, not a benger store (run benger import/generate " \
                                "first, or pass --db)\n"  # fmt: skip
    assert _tables(pg_url) == []


def test_creating_still_creates_and_a_store_then_opens_without_create(db_url: str) -> None:
    open_store(db_url).close()
    assert "alembic_version" in _tables(db_url)
    open_store(db_url, create=False).close()
    open_reader(db_url).close()


def test_a_missing_file_is_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    for opener in OPENERS.values():
        with pytest.raises(InputError, match="no benger store here"):
            opener(str(missing))
    assert list(tmp_path.iterdir()) == []
