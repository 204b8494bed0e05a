"""``get_generation_by_id`` / ``get_human_solution``: one row by primary key, None for an unknown id."""

from __future__ import annotations

from benger.schema import Generation, HumanSolution
from benger.store import Store

from ._data import make_corpus


def _gen(gid: str, status: str, run: int, text: str = "") -> Generation:
    return Generation.model_validate(
        {
            "generation_id": gid,
            "task_id": "demo-t1",
            "corpus": "demo",
            "system": "sys-a",
            "config_hash": "h1",
            "run_index": run,
            "status": status,
            "text": text,
            "reason": "timeout" if status == "failed" else None,
        }
    )


def test_generation_by_id_finds_each_row_whatever_its_status(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 1))
    ok = _gen("g-ok", "ok", run=0, text="Der Anspruch besteht aus § 433 II BGB.")
    failed = _gen("g-failed", "failed", run=1)
    store.save_generation(ok)
    store.save_generation(failed)
    assert store.get_generation_by_id("g-ok") == ok
    assert store.get_generation_by_id("g-failed") == failed
    assert store.get_generation_by_id("g-missing") is None
    assert store.get_generation_by_id("") is None


def test_retried_generation_is_found_by_its_new_id_only(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 1))
    store.save_generation(_gen("g-try1", "failed", run=0))
    retry = _gen("g-try2", "ok", run=0, text="Lösung")
    store.save_generation(retry)  # same key (task, config, run): the failed row is replaced
    assert store.get_generation_by_id("g-try2") == retry
    assert store.get_generation_by_id("g-try1") is None


def test_human_solution_by_id(store: Store) -> None:
    store.add_corpus(make_corpus("demo", 2))
    a = HumanSolution(
        solution_id="s1", task_id="demo-t1", corpus="demo", participant_id="p1", condition="traditional", text="A"
    )
    b = HumanSolution(
        solution_id="s2", task_id="demo-t2", corpus="demo", participant_id="p2", condition="co_creation", text="B"
    )
    store.add_human_solution(a)
    store.add_human_solution(b)
    assert store.get_human_solution("s1") == a
    assert store.get_human_solution("s2") == b
    assert store.get_human_solution("s3") is None
    assert store.get_generation_by_id("s1") is None  # the two lookups read different tables
