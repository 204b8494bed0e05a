"""Migration 0004_study_lifecycle on a store written before it: studies get the state their rows imply,
and the downgrade returns to 0003_identity."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text
from sqlalchemy.engine import make_url

from benger.store import open_store
from benger.store._engine import MIGRATIONS_DIR, create_store_engine

NOW = "2026-05-09 10:00:00.000000"


def _migrate(url: str, revision: str, down: bool = False) -> None:
    engine = create_store_engine(make_url(url))
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.downgrade if down else command.upgrade)(config, revision)
    finally:
        engine.dispose()


def test_existing_studies_get_their_state_and_the_downgrade_works(tmp_path: Path) -> None:
    _check(f"sqlite:///{tmp_path / 'old.db'}", tmp_path / "old.db")


@pytest.mark.postgres
def test_the_same_on_postgres(pg_database: Callable[[str], AbstractContextManager[str]]) -> None:
    with pg_database("benger_mig4") as url:
        _check(url, url)


def _check(url: str, target: str | Path) -> None:
    _migrate(url, "0003_identity")
    engine = create_store_engine(make_url(url))
    with engine.begin() as c:
        c.execute(text(
            "INSERT INTO study_users (id, username, password_hash, roles, pseudonym, active, created_at) "
            "VALUES (1, 'g', 'x', 'grader', 'u-1', TRUE, :t)"
        ), {"t": NOW})  # fmt: skip
        for sid in (1, 2, 3):
            c.execute(text(
                "INSERT INTO studies (id, name, corpus, seed, time_limit_s, created_at) "
                "VALUES (:id, :name, 'mini', 1, 60, :t)"
            ), {"id": sid, "name": f"s{sid}", "t": NOW})  # fmt: skip
        for pid, sid in ((1, 2), (2, 3)):
            c.execute(text(
                "INSERT INTO study_picks (id, study_id, code, task_id, provenance, target_kind, target_id, meta) "
                "VALUES (:id, :sid, 'P01', 't1', 'llm', 'generation', 'g1', '{}')"
            ), {"id": pid, "sid": sid})  # fmt: skip
        c.execute(text(
            "INSERT INTO study_review_assignments (study_id, pick_id, grader_id, role, slot) "
            "VALUES (3, 2, 1, 'blind', 'A')"
        ))  # fmt: skip
        c.execute(text("INSERT INTO study_login_attempts (key, at) VALUES ('g|1.2.3.4', :t)"), {"t": NOW})
    engine.dispose()
    store = open_store(target)  # upgrades to head
    with store.engine.connect() as c:
        states = dict(c.execute(text("SELECT name, state FROM studies ORDER BY id")).all())
        user = c.execute(text("SELECT session_version, groups FROM study_users")).one()
        tables = set(inspect(c).get_table_names())
    store.close()
    # no picks: it took submissions before, so open; picks: picked; review assignments: in_review
    assert states == {"s1": "open", "s2": "picked", "s3": "in_review"}
    assert tuple(user) == (0, "")
    assert {"study_login_counters", "study_problem_reports"} <= tables and "study_login_attempts" not in tables
    _migrate(url, "0003_identity", down=True)
    engine = create_store_engine(make_url(url))
    with engine.connect() as c:
        columns = {col["name"] for col in inspect(c).get_columns("studies")}
        tables = set(inspect(c).get_table_names())
    engine.dispose()
    assert "state" not in columns and "study_login_attempts" in tables and "study_login_counters" not in tables
