"""Issue 18: the SQLite writes of one loop turn commit together (``GroupWriter`` over ``Store.write_batch``),
and every caller still gets what an unbatched write gives it."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy.exc import OperationalError

from benger.errors import InputError
from benger.pipeline._writer import GroupWriter
from benger.schema import Corpus, FalloesungTask, Generation
from benger.store import Store, open_store
from benger.store._models import GenerationRow


def _gen(task_id: str, text: str = "Gutachten", status: str = "ok") -> Generation:
    return Generation(generation_id=f"g-{task_id}-{text}", task_id=task_id, corpus="c", system="s", config_hash="h",
                      run_index=0, status=status, text=text)  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = open_store(tmp_path / "g.db")
    tasks = [FalloesungTask(task_id=f"t{i}", corpus="c", area="Zivilrecht", facts="F", reference="R") for i in (1, 2)]
    store.add_corpus(Corpus(name="c", tasks=tasks))
    yield store
    store.close()


def _other_connection_sees(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("select count(*) from generations").fetchone()[0])


def test_a_batch_commits_at_its_end_and_a_failed_write_undoes_only_itself(store: Store, tmp_path: Path) -> None:
    with store.write_batch():
        assert store.save_generation(_gen("t1")) == _gen("t1")
        with pytest.raises(InputError, match="task 'nope' of corpus 'c' is not in the store"):  # the foreign key fails
            store.save_generation(_gen("nope"))
        assert store.save_generation(_gen("t2")) == _gen("t2")
        assert _other_connection_sees(tmp_path / "g.db") == 0  # not committed yet
    assert _other_connection_sees(tmp_path / "g.db") == 2
    assert sorted(g.task_id for g in store.generations()) == ["t1", "t2"]


def _row() -> type[GenerationRow]:
    return GenerationRow


async def test_each_caller_gets_the_unbatched_result_or_error(store: Store) -> None:
    group = GroupWriter(store, asyncio.get_running_loop())
    first, again = _gen("t1", "erste"), _gen("t1", "zweite")  # the same key: the second is not stored
    futures = [
        group.submit(store.save_generation, first),
        group.submit(store.save_generation, _gen("nope")),  # a task not in the store
        group.submit(store.save_generation, again),
        group.submit(store.save_generation, _gen("t2")),
    ]
    results = await asyncio.gather(*futures, return_exceptions=True)
    assert results[0] == first and results[3] == _gen("t2")
    assert isinstance(results[1], InputError) and "task 'nope' of corpus 'c' is not in the store" in str(results[1])
    assert results[2] == first  # unbatched: the finished row is kept and returned (re-run after the commit)
    assert group.batches == 1
    assert sorted((g.task_id, g.text) for g in store.generations()) == [("t1", "erste"), ("t2", "Gutachten")]


async def test_a_cancelled_caller_still_commits_its_write(store: Store) -> None:
    group = GroupWriter(store, asyncio.get_running_loop())

    async def save() -> Generation:
        return await group.submit(store.save_generation, _gen("t1"))

    task = asyncio.ensure_future(save())
    await asyncio.sleep(0)  # submitted, not yet flushed
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    await asyncio.sleep(0)
    assert [g.task_id for g in store.generations()] == ["t1"]


async def test_a_lost_transaction_runs_every_write_alone(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    real = store.write_batch
    inline = store._inline
    assert inline is not None

    @contextmanager
    def lost_batch() -> Iterator[None]:
        with pytest.raises(OperationalError, match="rolled back"), real():
            yield
            inline._driver().execute("ROLLBACK")  # what SQLite does on an I/O error or a full disk
        raise OperationalError("COMMIT", None, sqlite3.OperationalError("rolled back"))

    monkeypatch.setattr(store, "write_batch", lost_batch)
    group = GroupWriter(store, asyncio.get_running_loop())
    results = await asyncio.gather(group.submit(store.save_generation, _gen("t1")),
                                   group.submit(store.save_generation, _gen("t2")))  # fmt: skip
    assert results == [_gen("t1"), _gen("t2")] and group.batches == 0
    assert sorted(g.task_id for g in store.generations()) == ["t1", "t2"]


def test_a_write_without_every_column_inside_a_batch_is_refused(store: Store) -> None:
    inline = store._inline
    assert inline is not None
    table = _row().__table__
    stmt = store._insert(_row()).returning(table.c.generation_id)
    values = {"generation_id": "g", "task_id": "t1", "system": "s", "config_hash": "h", "run_index": 0,
              "status": "ok", "text": "", "truncated": False, "refused": False, "meta": {}}  # fmt: skip
    with store.write_batch(), pytest.raises(RuntimeError, match="needs every column"):
        inline.execute_returns_row(stmt, values)
    assert store.generations() == []
