"""Migrations create every table on a fresh database and match the models; bad locations fail clearly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text

from benger.errors import BengerError, ConfigError, InputError
from benger.schema import SystemConfig
from benger.store import CORE_TABLES, Base, Store, open_store
from benger.store._engine import MIGRATIONS_DIR
from benger.store._fulltext import FOLDED, TRGM_INDEXES


def test_fresh_database_has_every_core_table_at_head(store: Store) -> None:
    tables = set(inspect(store.engine).get_table_names())
    assert set(CORE_TABLES) <= tables
    assert "alembic_version" in tables
    script = ScriptDirectory(str(MIGRATIONS_DIR))
    with store.engine.connect() as conn:
        heads = MigrationContext.configure(conn).get_current_heads()
    assert heads == (script.get_current_head(),)
    assert script.get_revision("0001_core").down_revision is None


def _core_only(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    """The core tables, less the full-text objects (benger.store._fulltext: not on the models)."""
    if name == FOLDED or name in TRGM_INDEXES.values():
        return False
    table = obj if type_ == "table" else getattr(obj, "table", None)
    return table is None or table.name in CORE_TABLES


def test_migrations_match_the_models(store: Store) -> None:
    """Autogenerate finds no difference between the migrated core tables and the models."""
    opts = {"compare_type": True, "include_object": _core_only}
    with store.engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn, opts=opts), Base.metadata)
    assert diffs == []


def test_reopening_is_a_no_op_and_keeps_data(db_url: str) -> None:
    first = open_store(db_url)
    first.upsert_system(_system())
    first.close()
    second = open_store(db_url)
    try:
        assert [s.name for s in second.systems()] == ["sys-a"]
    finally:
        second.close()


def test_sqlite_pragmas(tmp_path: Path) -> None:
    store = open_store(tmp_path / "p.db")
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 60000  # 60 s * 1000
    finally:
        store.close()


def test_env_var_selects_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "from_env.db"
    monkeypatch.setenv("BENGER_DB", str(target))
    store = open_store()
    store.close()
    assert target.exists()
    assert store.url == f"sqlite:///{target.resolve()}"


@pytest.mark.parametrize(
    ("location", "expected"),
    [
        ("mysql://root@127.0.0.1/x", "unsupported store URL"),
        ("postgresql+nosuchdriver://postgres@127.0.0.1/x", "unknown database driver"),
        ("sqlite:///", "needs an SQLite file"),
        ("not a url://", "cannot parse the store URL"),
        ("/nonexistent-benger-dir/sub/store.db", "does not exist"),
    ],
)
def test_bad_location_gives_a_clear_error(location: str, expected: str) -> None:
    with pytest.raises(ConfigError, match=expected):
        open_store(location)


@pytest.mark.postgres
def test_missing_postgres_database_names_the_url() -> None:
    url = "postgresql+psycopg://postgres:secret@127.0.0.1:5432/benger_store_does_not_exist"
    with pytest.raises(BengerError) as info:
        open_store(url)
    message = str(info.value)
    assert "benger_store_does_not_exist" in message and "does not exist" in message
    assert "secret" not in message  # the password is hidden


def _system() -> SystemConfig:
    return SystemConfig(name="sys-a", provider="openai", model="m")


def test_a_file_that_is_not_a_database_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("Dies ist keine Datenbank, sondern eine Notiz.\n" * 20, encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(InputError, match=r"notes\.db: not an SQLite database, not a benger store"):
        open_store(path)  # a writer refuses it as a reader does (benger.store._open), before writing
    assert path.read_bytes() == before


@pytest.mark.postgres
def test_unreachable_postgres_server_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match=r"cannot open the store at postgresql\+psycopg://postgres@127\.0\.0\.1:1/x"):
        open_store("postgresql://postgres@127.0.0.1:1/x")  # nothing listens on port 1


def test_a_store_from_a_newer_benger_is_a_clear_error(tmp_path: Path) -> None:
    store = open_store(tmp_path / "future.db")
    with store.engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '9999_future'"))
    store.close()
    # a writer too: refused before anything is written, naming the file (not the sqlite:/// URL Alembic was given)
    with pytest.raises(InputError, match="schema revision '9999_future' is unknown to this benger") as caught:
        open_store(tmp_path / "future.db")
    assert caught.value.file == str(tmp_path / "future.db")
