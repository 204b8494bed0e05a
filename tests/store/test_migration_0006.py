"""Migration 0006_rubric_id on a store written before it: the judgement's rubric identity survives the rename
and stays part of the judgement key (SQLite and PostgreSQL)."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from benger.store import open_store
from benger.store._engine import MIGRATIONS_DIR

RUBRIC = "benchathon@1+0123abcd"


def _at_0005(url: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(url if "://" in url else f"sqlite:///{url}")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0005_indexes")
        connection.execute(
            text(
                "INSERT INTO judgements (judgement_id, target_kind, target_id, judge, judge_config_hash, "
                "rubric_version, repeat_index, status, justifications, total, meta, created_at, updated_at) "
                "VALUES ('j1', 'generation', 'g1', 'judge-a', 'h1', :rubric, 0, 'scored', '{}', 61.5, '{}', "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
            ),
            {"rubric": RUBRIC},
        )
    engine.dispose()


def test_migration_0006_keeps_the_rubric_identity(db_url: str) -> None:
    _at_0005(db_url)
    store = open_store(db_url)
    try:
        [kept] = store.judgements(rubric_id=RUBRIC)
        assert (kept.judgement_id, kept.rubric_id, kept.total) == ("j1", RUBRIC, 61.5)
        assert store.judgements(rubric_id="other@1+ffffffff") == []
        assert store.get_judgement("generation", "g1", "h1", RUBRIC, 0) is not None
    finally:
        store.close()
