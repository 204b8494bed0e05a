"""Migration 0010_organisations: one head, the organisation tables as the models declare them (SQLite and
PostgreSQL), a store written before it keeps its corpus, downgrade and upgrade again; the database refuses
an unknown role and a second owner row of the same corpus."""

from __future__ import annotations

from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError

from benger.store import Base, Store, open_store
from benger.store._engine import MIGRATIONS_DIR
from benger.store._orgs import ORG_TABLES


def _config(connection: Any) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.attributes["connection"] = connection
    return config


def _engine(url: str) -> Any:
    return create_engine(url if "://" in url else f"sqlite:///{url}")


def test_one_head_and_its_parent() -> None:
    script = ScriptDirectory(str(MIGRATIONS_DIR))
    assert script.get_heads() == [script.get_current_head()]
    assert script.get_revision("0010_organisations").down_revision == "0009_judge_validations"


def _ours(obj: Any, name: str | None, type_: str, reflected: bool, compare_to: Any) -> bool:
    table = obj if type_ == "table" else getattr(obj, "table", None)
    return table is None or table.name in ORG_TABLES


def test_the_migrated_tables_match_the_models(store: Store) -> None:
    assert set(ORG_TABLES) <= set(inspect(store.engine).get_table_names())
    opts = {"compare_type": True, "include_object": _ours}
    with store.engine.connect() as conn:
        diffs = compare_metadata(MigrationContext.configure(conn, opts=opts), Base.metadata)
    assert diffs == []


def test_a_store_from_before_keeps_its_corpus_and_downgrades(db_url: str) -> None:
    engine = _engine(db_url)
    with engine.begin() as connection:
        command.upgrade(_config(connection), "0009_judge_validations")
        connection.execute(text("INSERT INTO corpora (name, description) VALUES ('alt', 'vor 0010')"))
    engine.dispose()
    store = open_store(db_url)
    try:
        assert store.corpus_names() == ["alt"]
        with store.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM organisation_corpora")).scalar() == 0
    finally:
        store.close()
    engine = _engine(db_url)
    with engine.begin() as connection:
        command.downgrade(_config(connection), "0009_judge_validations")
    assert not set(ORG_TABLES) & set(inspect(engine).get_table_names())
    with engine.begin() as connection:
        command.upgrade(_config(connection), "head")
    assert set(ORG_TABLES) <= set(inspect(engine).get_table_names())
    engine.dispose()


def _org(conn: Any) -> None:
    conn.execute(text("INSERT INTO organisations (id, name, slug, created_at) VALUES (1, 'A', 'a', CURRENT_TIMESTAMP)"))
    conn.execute(
        text(
            "INSERT INTO study_users (id, username, password_hash, roles, pseudonym, active, created_at, "
            "session_version, groups) VALUES (1, 'u', 'x', 'admin', 'u-1', true, CURRENT_TIMESTAMP, 0, '')"
        )
    )


@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO organisation_members (organisation_id, user_id, role, joined_at) "
        "VALUES (1, 1, 'admin', CURRENT_TIMESTAMP)",
        "INSERT INTO organisation_members (organisation_id, user_id, role, joined_at) "
        "VALUES (2, 1, 'owner', CURRENT_TIMESTAMP)",  # no organisation 2
        "INSERT INTO organisation_corpora (corpus, organisation_id, label, imported_at) "
        "VALUES ('nicht-da', 1, 'x', CURRENT_TIMESTAMP)",  # no such corpus
    ],
)
def test_the_database_refuses_bad_rows(store: Store, statement: str) -> None:
    with store.engine.begin() as conn:
        _org(conn)
    with pytest.raises(IntegrityError), store.engine.begin() as conn:
        conn.execute(text(statement))
