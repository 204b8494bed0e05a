"""Fixtures: a fresh store on a new SQLite file or on PostgreSQL (own databases, dropped afterwards)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from benger.store import Base, Store, open_store

PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"


@contextmanager
def _pg_database() -> Iterator[str]:
    """Create ``benger_store_<uuid8>`` on the local server, yield its URL, drop it afterwards."""
    psycopg = pytest.importorskip("psycopg")
    name = f"benger_store_{uuid.uuid4().hex[:8]}"
    try:
        admin = psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=postgres", autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL on 127.0.0.1:5432 is not reachable: {exc}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{PG_SERVER}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def pg_url() -> Iterator[str]:
    """URL of a new, empty PostgreSQL database; dropped in teardown."""
    with _pg_database() as url:
        yield url


@pytest.fixture(scope="session")
def _pg_migrated() -> Iterator[str]:
    """One migrated PostgreSQL database for the whole session (emptied before each test that uses it)."""
    with _pg_database() as url:
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
def store(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """An opened, empty store: a new SQLite file, or the session's PostgreSQL database with every table emptied."""
    if backend == "sqlite":
        opened = open_store(tmp_path / "store.db")
    else:
        opened = open_store(request.getfixturevalue("_pg_migrated"))
        with opened.engine.begin() as conn:  # DELETE is much faster than TRUNCATE on tiny tables
            for table in reversed(Base.metadata.sorted_tables):
                conn.execute(table.delete())
    try:
        yield opened
    finally:
        opened.close()
