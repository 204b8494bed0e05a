"""Migration 0012_viewer_speed on a store written before it: the Browse indexes are added (SQLite and PostgreSQL),
rows are kept, and a downgrade removes it again."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, inspect

from benger.schema import SystemConfig
from benger.store import open_store
from benger.store._engine import MIGRATIONS_DIR


def _migrate(url: str, target: str, up: bool) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(url if "://" in url else f"sqlite:///{url}")
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.upgrade if up else command.downgrade)(config, target)
    finally:
        engine.dispose()


def _browse_index(url: str, table: str = "generations") -> list[str] | None:
    engine = create_engine(url if "://" in url else f"sqlite:///{url}")
    try:
        found = {i["name"]: i["column_names"] for i in inspect(engine).get_indexes(table)}
    finally:
        engine.dispose()
    return found.get(f"ix_{table}_browse")


def test_migration_0012_adds_the_browse_index_and_keeps_rows(db_url: str) -> None:
    _migrate(db_url, "0011_workbench_runs", up=True)
    assert _browse_index(db_url) is None
    store = open_store(db_url)  # upgrades to head
    try:
        store.upsert_system(SystemConfig(name="sys-a", provider="local", model="m", tier="local"))
    finally:
        store.close()
    assert _browse_index(db_url) == ["corpus", "task_id", "system", "generation_id", "status", "truncated", "refused"]
    assert _browse_index(db_url, "judgements") == ["judge", "target_kind", "target_id", "status", "total"]
    _migrate(db_url, "0011_workbench_runs", up=False)
    assert _browse_index(db_url) is None and _browse_index(db_url, "judgements") is None
    store = open_store(db_url)
    try:
        assert [s.name for s in store.systems()] == ["sys-a"]
        assert _browse_index(db_url) is not None
    finally:
        store.close()
