"""The SQLite full-text index is synced lazily (``benger.store._fulltext``, migration 0017_lazy_fulltext): a write
queues its row instead of indexing it, :func:`sync` indexes the queue, and a search answers the same whether a
row is queued or indexed, through any sequence of inserts, updates, deletes and syncs (a contentless FTS5 index
told to delete a row it does not hold would answer wrongly ever after)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select, text

from benger.schema import Corpus, FalloesungTask, Generation, SystemConfig
from benger.store import Store, open_store
from benger.store._engine import MIGRATIONS_DIR
from benger.store._fulltext import TextSearch
from benger.store._models import GenerationRow

SYSTEM = SystemConfig(name="sys", provider="local", model="m", tier="local")
WORDS = ["Kaufvertrag", "Rücktritt", "Anfechtung", "Minderung", "Schadensersatz"]


def _store(path: Path) -> Store:
    store = open_store(path)
    store.add_corpus(
        Corpus(name="c", tasks=[FalloesungTask(task_id="t1", corpus="c", area="Zivilrecht", facts="S", reference="L")])
    )
    store.upsert_system(SYSTEM)
    return store


def _save(store: Store, gid: str, run: int, body: str, status: str = "ok") -> None:
    gen = Generation(generation_id=gid, task_id="t1", corpus="c", system="sys", config_hash=SYSTEM.config_hash(),
                     run_index=run, text=body, status=status)  # fmt: skip
    store.save_generation(gen)


def _found(store: Store, q: str) -> list[str]:
    with store.engine.connect() as connection:
        search = TextSearch(connection, q)
        assert search.use_index["generation"]  # the index path (with the queue's scan) is what is tested
        rows = connection.scalars(
            select(GenerationRow.generation_id).where(search.clause("generation", GenerationRow.text))
        )
        return sorted(rows)


def _counts(store: Store) -> tuple[int, int]:
    """(rows queued, rows the index answers for a word every text holds)."""
    with store.engine.connect() as connection:
        queued = connection.exec_driver_sql("SELECT count(*) FROM generations_fts_pending").scalar_one()
        indexed = connection.exec_driver_sql(
            "SELECT count(*) FROM generations_fts WHERE generations_fts MATCH '\"fall\"'"
        ).scalar_one()
    return queued, indexed


def test_a_write_queues_its_row_and_sync_indexes_it(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.db")
    try:
        _save(store, "g1", 0, "Fall 1: Rücktritt vom Kaufvertrag")
        _save(store, "g2", 1, "Fall 2: Anfechtung")
        assert _counts(store) == (2, 0)  # queued, not indexed
        assert _found(store, "RÜCKTRITT") == ["g1"]  # found through the queue's scan
        assert store.sync_search_index() == 2
        assert _counts(store) == (0, 2)
        assert _found(store, "rücktritt") == ["g1"]
        assert store.sync_search_index() == 0
    finally:
        store.close()


def test_a_writer_opening_the_store_indexes_what_was_queued(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.db")
    _save(store, "g1", 0, "Fall: Minderung")
    store.close()
    reader = open_store(tmp_path / "s.db", create=False)  # a reader writes nothing
    try:
        assert _counts(reader) == (1, 0)
        assert _found(reader, "minderung") == ["g1"]
    finally:
        reader.close()
    writer = open_store(tmp_path / "s.db")
    try:
        assert _counts(writer) == (0, 1)
    finally:
        writer.close()


def test_a_raw_sqlite3_write_is_queued(tmp_path: Path) -> None:
    store = _store(tmp_path / "s.db")
    try:
        _save(store, "g1", 0, "Fall: Minderung")
        raw = sqlite3.connect(tmp_path / "s.db")
        with raw:
            raw.execute("UPDATE generations SET text = 'Fall: Schadensersatz' WHERE generation_id = 'g1'")
        raw.close()
        assert (_found(store, "minderung"), _found(store, "schadensersatz")) == ([], ["g1"])
    finally:
        store.close()


_OPS = st.lists(
    st.one_of(
        st.tuples(st.just("save"), st.integers(0, 3), st.sampled_from(WORDS)),  # insert, or update the text
        st.tuples(st.just("fail"), st.integers(0, 3), st.sampled_from(WORDS)),  # a failed row, replaced by a save
        st.tuples(st.just("delete"), st.integers(0, 3), st.just("")),
        st.tuples(st.just("sync"), st.just(0), st.just("")),
    ),
    max_size=14,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=_OPS)
def test_search_equals_the_texts_through_any_writes_and_syncs(
    tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[str, int, str]]
) -> None:
    store = _store(tmp_path_factory.mktemp("q") / "s.db")
    texts: dict[str, str] = {}  # the reference: generation id -> its text now
    failed: set[str] = set()  # the ids stored as failed (save_generation replaces them)
    try:
        for op, n, word in ops:
            gid = f"g{n}"
            if op == "fail" and gid not in texts:
                _save(store, gid, n, f"Fall {n}: {word}", status="failed")
                texts[gid], failed = f"Fall {n}: {word}", failed | {gid}
            elif op == "fail":
                continue
            elif op == "save" and (gid not in texts or gid in failed):  # an insert, or the upsert of a failed row
                _save(store, gid, n, f"Fall {n}: {word}")
                texts[gid], failed = f"Fall {n}: {word}", failed - {gid}
            elif op == "save":  # a finished row is kept by save_generation: its text changed in SQL
                with store.engine.begin() as connection:
                    connection.execute(
                        text("UPDATE generations SET text = :t WHERE generation_id = :g"),
                        {"t": f"Fall {n}: {word}", "g": gid},
                    )
                texts[gid] = f"Fall {n}: {word}"
            elif op == "delete":
                with store.engine.begin() as connection:
                    connection.execute(text("DELETE FROM generations WHERE generation_id = :g"), {"g": gid})
                texts.pop(gid, None)
                failed.discard(gid)
            else:
                store.sync_search_index()
            for word_ in WORDS:
                assert _found(store, word_.upper()) == sorted(g for g, t in texts.items() if word_ in t), (ops, word_)
        store.sync_search_index()
        assert _counts(store) == (0, len(texts))  # the index holds each live row once, no deleted one
    finally:
        store.close()


def _migrate(path: Path, target: str, up: bool) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    engine = create_engine(f"sqlite:///{path}")
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.upgrade if up else command.downgrade)(config, target)
    finally:
        engine.dispose()


def test_migration_0017_queues_writes_and_its_downgrade_indexes_the_queue(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    store = _store(path)
    _save(store, "g1", 0, "Fall: Anfechtung")
    store.close()
    _migrate(path, "0016_budget_validations", up=False)  # indexes the queued row, indexing triggers back
    engine = create_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        tables = {r[0] for r in connection.exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "generations_fts_pending" not in tables
        connection.exec_driver_sql(
            "INSERT INTO generations (generation_id, corpus, task_id, system, config_hash, run_index, status, text, "
            "truncated, refused, meta, created_at, updated_at) VALUES ('g2', 'c', 't1', 'sys', 'x', 9, 'ok', "
            "'Fall: Minderung', 0, 0, '{}', '2026-12-04 00:00:00', '2026-12-04 00:00:00')"
        )
        found = connection.exec_driver_sql(
            "SELECT count(*) FROM generations_fts WHERE generations_fts MATCH '\"fall\"'"
        ).scalar_one()
        assert found == 2  # both indexed at 0016 (the old trigger indexed g2 on its insert)
    engine.dispose()
    store = open_store(path)  # up to 0017 again
    try:
        assert _counts(store) == (0, 2)
        _save(store, "g3", 3, "Fall: Rücktritt")
        assert _counts(store) == (1, 2)
        assert (_found(store, "anfechtung"), _found(store, "minderung"), _found(store, "rücktritt")) == (
            ["g1"],
            ["g2"],
            ["g3"],
        )
    finally:
        store.close()
