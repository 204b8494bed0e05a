"""Migration 0007_task_identity on a store written before it: a task is (corpus, task id) afterwards, and the
task, its generation (id unchanged, corpus filled in) and the generation's judgement read back (SQLite and
PostgreSQL); a second corpus may then hold a task of the same id."""

from __future__ import annotations

import json

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text

from benger.schema import Corpus, FalloesungTask
from benger.store import open_store
from benger.store._engine import MIGRATIONS_DIR

RUBRIC = "falloesung@1+0123abcd"
PAYLOAD = {
    "kind": "falloesung",
    "task_id": "t1",
    "corpus": "alt",
    "area": "Zivilrecht",
    "facts": "A verkauft B ein Rad.",
    "reference": "B hat einen Anspruch aus § 433 II BGB.",
    "difficulty": None,
    "title": None,
    "meta": {},
}


def _at_0006(url: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(url if "://" in url else f"sqlite:///{url}")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0006_rubric_id")
        for statement, values in (
            ("INSERT INTO corpora (name, description) VALUES ('alt', 'vor 0007')", {}),
            (
                "INSERT INTO tasks (task_id, corpus, position, kind, area, payload) "
                "VALUES ('t1', 'alt', 0, 'falloesung', 'Zivilrecht', :payload)",
                {"payload": json.dumps(PAYLOAD)},
            ),
            (
                "INSERT INTO generations (generation_id, task_id, system, config_hash, run_index, status, text, "
                "truncated, refused, meta, created_at, updated_at) VALUES ('gen-old', 't1', 'sys-a', 'h1', 0, "
                "'ok', 'Gutachten.', false, false, '{}', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                {},
            ),
            (
                "INSERT INTO judgements (judgement_id, target_kind, target_id, judge, judge_config_hash, "
                "rubric_id, repeat_index, status, justifications, total, meta, created_at, updated_at) "
                "VALUES ('j1', 'generation', 'gen-old', 'judge-a', 'jh', :rubric, 0, 'scored', '{}', 61.5, '{}', "
                "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)",
                {"rubric": RUBRIC},
            ),
        ):
            connection.execute(text(statement), values)
    engine.dispose()


def test_migration_0007_keeps_tasks_generations_and_judgements(db_url: str) -> None:
    _at_0006(db_url)
    store = open_store(db_url)
    try:
        task = store.get_task("t1")
        assert task is not None and (task.task_id, task.corpus) == ("t1", "alt")
        assert store.get_task("t1", "alt") == task
        [gen] = store.generations(corpus="alt")
        assert (gen.generation_id, gen.corpus, gen.task_id, gen.text) == ("gen-old", "alt", "t1", "Gutachten.")
        assert store.get_generation("t1", "h1", 0) == gen
        # resume: the old unit is finished under its whole key, so a rerun neither redoes nor re-pays it
        assert store.finished_generation_keys(["h1"]) == {("alt", "t1", "h1", 0)}
        assert not store.claim("gen/alt/t1/h1/0", "me", generation=("alt", "t1", "h1", 0))
        [judgement] = store.judgements(target_ids=["gen-old"])
        assert (judgement.judgement_id, judgement.total, judgement.rubric_id) == ("j1", 61.5, RUBRIC)
        # the new key: another corpus may hold a task "t1" of its own, the old one is untouched
        other = FalloesungTask(task_id="t1", corpus="neu", area="Strafrecht", facts="F.", reference="R.")
        assert store.add_corpus(Corpus(name="neu", tasks=[other])).action == "added"
        assert store.get_task("t1", "alt") == task
        assert store.get_task("t1", "neu") == other
        assert [g.generation_id for g in store.generations()] == ["gen-old"]
    finally:
        store.close()


def _downgrade_to_0006(url: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(url if "://" in url else f"sqlite:///{url}")
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.downgrade(config, "0006_rubric_id")
    finally:
        engine.dispose()


def test_migration_0007_downgrades_unless_two_corpora_share_a_task_id(db_url: str) -> None:
    _at_0006(db_url)
    store = open_store(db_url)
    other = FalloesungTask(task_id="t1", corpus="neu", area="Strafrecht", facts="F.", reference="R.")
    store.add_corpus(Corpus(name="neu", tasks=[other]))
    store.close()
    with pytest.raises(
        RuntimeError, match=r"cannot downgrade below 0007: 1 task id\(s\) are in several corpora \(t1\)"
    ):
        _downgrade_to_0006(db_url)
    store = open_store(db_url)  # the refused downgrade changed nothing
    assert store.get_task("t1", "neu") == other and len(store.generations()) == 1
    with store.engine.begin() as connection:
        connection.execute(text("DELETE FROM tasks WHERE corpus = 'neu'"))
    store.close()
    _downgrade_to_0006(db_url)
    engine = create_engine(db_url if "://" in db_url else f"sqlite:///{db_url}")
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT generation_id, task_id, config_hash FROM generations")).all()
        assert [tuple(r) for r in rows] == [("gen-old", "t1", "h1")]
        assert connection.execute(text("SELECT COUNT(*) FROM judgements")).scalar() == 1
    engine.dispose()
