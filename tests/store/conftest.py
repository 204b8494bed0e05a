"""Fixtures: a fresh store on a new SQLite file or on PostgreSQL (own databases, dropped afterwards)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from benger.store import Base, Store, open_store


@pytest.fixture
def pg_url(pg_database: Callable[[str], AbstractContextManager[str]]) -> Iterator[str]:
    """URL of a new, empty PostgreSQL database; dropped in teardown."""
    with pg_database("benger_store") as url:
        yield url


@pytest.fixture(scope="session")
def _pg_migrated(pg_database: Callable[[str], AbstractContextManager[str]]) -> Iterator[str]:
    """One migrated PostgreSQL database for the whole session (emptied before each test that uses it)."""
    with pg_database("benger_store") as url:
        open_store(url).close()
        yield url


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_url(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, never-migrated database: an SQLite file path, or a new PostgreSQL database URL."""
    if backend == "sqlite":
        return str(tmp_path / "store.db")
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
def store(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path, copy_of_migrated_sqlite: Callable[[Path], Path]
) -> Iterator[Store]:
    """An opened, empty store: a new SQLite file (a copy of the session's migrated template, so no migration runs
    per test), or the session's PostgreSQL database with every table emptied."""
    if backend == "sqlite":
        opened = open_store(copy_of_migrated_sqlite(tmp_path / "store.db"))
    else:
        opened = open_store(request.getfixturevalue("_pg_migrated"))
        with opened.engine.begin() as conn:  # DELETE is much faster than TRUNCATE on tiny tables
            for table in reversed(Base.metadata.sorted_tables):
                conn.execute(table.delete())
    try:
        yield opened
    finally:
        opened.close()
