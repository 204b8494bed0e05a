"""The SQLite write path: driver-level saves equal SQLAlchemy's, checkpoints off the loop, WAL kept bounded."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from benger.schema import Generation
from benger.store import Store, open_store
from benger.store import _sqlite_writer as writer_module
from benger.store._models import GenerationRow

from ._data import make_corpus


def _gen(task_id: str, run: int = 0, status: str = "ok", **kw: object) -> Generation:
    return Generation(generation_id=f"g-{task_id}-{run}-{status}", task_id=task_id, corpus="demo", system="s",
                      config_hash="h", run_index=run, status=status, **kw)  # fmt: skip


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Store:
    store = open_store(tmp_path / "w.db")
    store.add_corpus(make_corpus("demo", 3))
    return store


def test_driver_saves_read_back_like_sqlalchemy_writes(sqlite_store: Store, tmp_path: Path) -> None:
    gen = _gen("demo-t1", text="Gutachten: K könnte … (§ 433 Abs. 2 BGB)", meta={"attempts": 2, "x": [1, None]},
               truncated=True, latency_s=1.5, cost_usd=None)  # fmt: skip
    assert sqlite_store.save_generation(gen) == gen
    assert sqlite_store.get_generation("demo-t1", "h", 0) == gen
    # the same row through the ORM: timestamps came back as datetimes, JSON as JSON
    with sqlite_store.session() as session:
        row = session.scalars(select(GenerationRow)).one()
        assert isinstance(row.created_at, datetime) and row.meta == {"attempts": 2, "x": [1, None]}
    # a finished row is kept: the second save returns the stored one unchanged
    again = _gen("demo-t1", text="anders")
    again.generation_id = gen.generation_id
    assert sqlite_store.save_generation(again).text == gen.text
    sqlite_store.close()


def test_a_failed_row_is_replaced_and_errors_name_the_task(sqlite_store: Store) -> None:
    sqlite_store.save_generation(_gen("demo-t2", status="failed", reason="Timeout"))
    done = _gen("demo-t2", text="fertig")
    assert sqlite_store.save_generation(done) == done
    assert [g.status for g in sqlite_store.generations()] == ["ok"]
    with pytest.raises(Exception, match="task 'ghost' of corpus 'demo' is not in the store"):
        sqlite_store.save_generation(_gen("ghost"))
    # the failed statement was rolled back: the connection takes the next save
    assert sqlite_store.save_generation(_gen("demo-t3")).task_id == "demo-t3"
    sqlite_store.close()


def test_the_write_connection_never_checkpoints_itself(sqlite_store: Store) -> None:
    sqlite_store.save_generation(_gen("demo-t1"))
    inline = sqlite_store._inline
    assert inline is not None and inline._connection is not None
    assert inline._connection[2].execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    sqlite_store.close()


def test_background_checkpoints_keep_the_wal_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer_module, "CHECKPOINT_EVERY", 4)
    monkeypatch.setattr(writer_module, "RESET_EVERY", 1)  # every checkpoint empties the WAL
    store = open_store(tmp_path / "w.db")
    store.add_corpus(make_corpus("demo", 8))
    for i in range(1, 5):  # the 4th save starts a checkpoint thread
        store.save_generation(_gen(f"demo-t{i}"))
    inline = store._inline
    assert inline is not None and inline._checkpoint_thread is not None
    inline._checkpoint_thread.join(timeout=30)
    assert (tmp_path / "w.db-wal").stat().st_size == 0  # TRUNCATE emptied it
    for i in range(5, 9):
        store.save_generation(_gen(f"demo-t{i}"))
    store.close()
    with sqlite3.connect(tmp_path / "w.db") as conn:  # every row reached the database file
        assert conn.execute("SELECT count(*) FROM generations").fetchone() == (8,)


def test_values_without_every_column_are_left_to_sqlalchemy(sqlite_store: Store) -> None:
    inline = sqlite_store._inline
    assert inline is not None
    table = GenerationRow.__table__
    stmt = sqlite_store._insert(GenerationRow).returning(table.c.generation_id)
    values = {"generation_id": "g", "corpus": "demo", "task_id": "demo-t1", "system": "s", "config_hash": "h",
              "run_index": 0, "status": "ok", "text": "", "truncated": False, "refused": False, "meta": {}}  # fmt: skip
    assert inline.execute_returns_row(stmt, values) is None  # created_at/updated_at: SQLAlchemy's defaults
    assert sqlite_store.get_generation("demo-t1", "h", 0) is None  # nothing was written
    sqlite_store.close()
