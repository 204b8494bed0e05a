"""Issue 10, observation 8: NUL (U+0000) is stored losslessly on SQLite and PostgreSQL; the store's migration
0003 keeps a store made at revision 0002 readable."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, text

from benger.errors import InputError
from benger.schema import Corpus, Generation, SystemConfig
from benger.store import Store, open_store
from benger.store._engine import MIGRATIONS_DIR
from benger.store._text import escape, unescape

from ._data import make_corpus


def _gen(text: str, meta: dict[str, object], gid: str = "g1") -> Generation:
    return Generation(
        generation_id=gid,
        task_id="demo-t1",
        corpus="demo",
        system="sys",
        config_hash="h",
        text=text,
        reason=text,
        meta=meta,
    )


def test_obs8_a_reply_with_nul_is_saved_and_read_back_unchanged(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 2))
    reply = "Ergebnis:\x00 A hat \\0 einen Anspruch \\\\ aus § 433 BGB.\x00"
    meta = {"last\x00reply": ["x\x00y", {"k": "\x00"}], "plain": "a\\b", "n": 3}
    saved = store.save_generation(_gen(reply, meta))
    assert saved.text == reply
    back = store.get_generation("demo-t1", "h", 0)
    assert back is not None and back.text == reply and back.reason == reply and back.meta == meta
    assert store.get_generation_by_id("g1") == back
    # a finished row is kept on a second save (the escaped row compares as the same key)
    assert store.save_generation(_gen("other", {}, gid="g1")).text == reply


def test_obs8_corpus_facts_and_json_with_nul_round_trip(store: Store) -> None:
    corpus = make_corpus("demo", 2)
    task = corpus.tasks[0].model_copy(update={"facts": "A\x00B \\0", "meta": {"q\x00": "\x00"}})
    corpus = Corpus(name="demo", tasks=[task, corpus.tasks[1]], description="Korpus")
    store.add_corpus(corpus)
    assert store.load_corpus("demo") == corpus
    assert store.get_task(task.task_id) == task
    assert store.add_corpus(corpus).action == "unchanged"  # the escaped stored form compares as equal
    store.save_metric_value("generation", "g9", "m", "sig", 0.5, details={"note": "x\x00"})
    assert store.metric_values()[0].details == {"note": "x\x00"}
    system = SystemConfig(name="s", provider="openai-compatible", model="m", params={"stop": ["\x00"]})
    store.upsert_system(system)
    assert store.systems() == [system]


def test_a_nul_in_an_id_is_refused_with_the_column(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 1))
    bad = _gen("ok", {}).model_copy(update={"system": "sy\x00s"})
    with pytest.raises(InputError, match=r"field 'system'.*NUL"):
        store.save_generation(bad)
    assert store.generations() == []


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(["\x00", "\\", "0", "a", "ä", "\n"]), max_size=30))
def test_escape_is_lossless(value: str) -> None:
    assert unescape(escape(value)) == value
    assert "\x00" not in escape(value)


def _at_0002(url: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(url if "://" in url else f"sqlite:///{url}")
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0002_study")
        connection.execute(text("INSERT INTO corpora (name, description) VALUES ('alt', NULL)"))
        connection.execute(
            text("INSERT INTO systems (name, config_hash, config) VALUES ('sys-a', :h, :c)"),
            {"h": SYSTEM.config_hash(), "c": SYSTEM.model_dump_json()},
        )
    engine.dispose()


SYSTEM = SystemConfig(name="sys-a", provider="openai-compatible", model="m1")


def test_migration_0003_keeps_a_0002_store_readable(db_url: str) -> None:
    _at_0002(db_url if "://" in db_url else str(Path(db_url)))
    store = open_store(db_url)
    try:
        assert store.corpus_names() == ["alt"]
        assert store.systems() == [SYSTEM]
        other = SYSTEM.model_copy(update={"model": "m2"})  # a second configuration under the same name
        store.upsert_system(other)
        assert sorted(s.model for s in store.systems()) == ["m1", "m2"]
        assert store.claim("unit-1", "me") and store.claims()[0][:2] == ("unit-1", "me")
    finally:
        store.close()
