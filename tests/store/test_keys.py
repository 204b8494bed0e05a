"""Unit-of-work keys: finished work is never overwritten, failed work is retried, races make one row."""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path
from typing import Any

import pytest

from benger.schema import Generation, Judgement
from benger.store import Store, open_store

from ._data import make_corpus


def _gen(gid: str, status: str, text: str = "", run: int = 0, task_id: str = "demo-t1") -> Generation:
    return Generation.model_validate(
        {
            "generation_id": gid,
            "task_id": task_id,
            "corpus": "demo",
            "system": "sys-a",
            "config_hash": "h1",
            "run_index": run,
            "status": status,
            "text": text,
            "reason": "boom" if status == "failed" else None,
        }
    )


def _judgement(jid: str, status: str, total: float | None = None) -> Judgement:
    return Judgement(
        judgement_id=jid,
        target_kind="generation",
        target_id="g1",
        judge="judge-x",
        judge_config_hash="jh",
        rubric_id="falloesung@1",
        repeat_index=0,
        status=status,
        reason=None if status == "scored" else "invalid JSON",
        total=total,
        dimensions={"sprache": 2.0} if status == "scored" else None,
    )


def test_ok_generation_is_never_overwritten(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 1))
    first = _gen("g-a", "ok", "erste Lösung")
    assert store.save_generation(first) == first
    for later in (_gen("g-b", "ok", "zweite"), _gen("g-c", "failed"), _gen("g-d", "excluded")):
        assert store.save_generation(later) == first  # returned unchanged
    assert store.generations() == [first]


def test_a_generation_without_corpus_is_stored_under_its_task_s_only_corpus(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 1))
    bare = _gen("g-a", "ok", "Lösung").model_copy(update={"corpus": None})
    saved = store.save_generation(bare)
    assert saved.corpus == "demo" and saved == bare.model_copy(update={"corpus": "demo"})
    assert store.generations(corpus="demo") == [saved]


def test_excluded_generation_is_kept(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 1))
    excluded = _gen("g-x", "excluded", "zu kurz")
    store.save_generation(excluded)
    assert store.save_generation(_gen("g-y", "ok", "neu")) == excluded


def test_failed_generation_is_replaced(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 1))
    store.save_generation(_gen("g-1", "failed"))
    retried_fail = _gen("g-2", "failed")
    assert store.save_generation(retried_fail) == retried_fail  # a failed row may be replaced by a failed one
    done = _gen("g-3", "ok", "Gutachten")
    assert store.save_generation(done) == done
    assert store.generations() == [done]
    assert store.get_generation("demo-t1", "h1", 0) == done


def test_scored_judgement_is_never_overwritten_unscored_is_replaced(store: Store) -> None:
    unscored = _judgement("j-1", "unscored")
    assert store.save_judgement(unscored) == unscored
    scored = _judgement("j-2", "scored", total=2.0)
    assert store.save_judgement(scored) == scored
    assert store.save_judgement(_judgement("j-3", "scored", total=9.0)) == scored
    assert store.save_judgement(_judgement("j-4", "unscored")) == scored
    assert store.judgements() == [scored]


def test_twenty_threads_racing_on_one_key_make_one_row(store: Store) -> None:
    """20 threads save different ok generations for the same key at once: exactly one row, one winner for all."""
    store.add_corpus(make_corpus("demo", 1))
    barrier = threading.Barrier(20)
    results: list[Generation] = []
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            barrier.wait()
            results.append(store.save_generation(_gen(f"g-{i:02d}", "ok", f"Text {i}")))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    rows = store.generations()
    assert len(rows) == 1
    assert len(results) == 20 and all(r == rows[0] for r in results)


def _write_keys(path: str, worker: int, n: int, barrier: Any = None) -> None:
    store = open_store(path)
    if barrier is not None:
        barrier.wait(timeout=60)  # start writing together
    try:
        for run in range(n):
            store.save_generation(
                _gen(f"w{worker}-r{run}", "ok", f"Worker {worker}", run=run, task_id=f"demo-t{worker + 1}")
            )
    finally:
        store.close()


def test_two_processes_writing_one_sqlite_file_lose_nothing(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    store = open_store(path)
    store.add_corpus(make_corpus("demo", 2))
    ctx = multiprocessing.get_context("fork")
    n = 100
    barrier = ctx.Barrier(2)
    procs = [ctx.Process(target=_write_keys, args=(path, w, n, barrier)) for w in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    try:
        assert [p.exitcode for p in procs] == [0, 0]
        rows = store.generations()
        assert len(rows) == 2 * n  # 2 workers x 100 runs, distinct keys
        assert {g.generation_id for g in rows} == {f"w{w}-r{r}" for w in range(2) for r in range(n)}
    finally:
        store.close()


@pytest.mark.slow
def test_two_processes_opening_a_fresh_database_at_once(db_url: str) -> None:
    """Both migrate the same new database concurrently; the migration lock makes the second a no-op."""
    path = db_url
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_write_keys, args=(path, w, 0)) for w in range(2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0, 0]
    store = open_store(path)
    try:
        assert store.stats()["tasks"] == {"total": 0}
    finally:
        store.close()


def test_retry_with_the_same_id_replaces_failed_and_keeps_ok(store: Store) -> None:
    """Workers derive the id from the key, so a retry reuses it: the rules still hold."""
    store.add_corpus(make_corpus("demo", 1))
    store.save_generation(_gen("g-key", "failed"))
    done = _gen("g-key", "ok", "Gutachten")
    assert store.save_generation(done) == done
    assert store.save_generation(_gen("g-key", "ok", "anderer Text")) == done
    assert store.generations() == [done]
