"""Bulk writes are a few statements per batch, not one per record (issue 26: PostgreSQL within 1.5x of SQLite).

Counted with a ``before_cursor_execute`` listener: one event is one statement the client sends and waits for
(an executemany is one: psycopg 3 sends its parameter sets in one pipeline, sqlite3 loops in C). A batch of
2,500 generations that leave their corpus to the store used to look the corpus up with one SELECT per record
(2,500 round trips on PostgreSQL). What is stored must be what the one-record rules give, also when a key
repeats inside the batch or a task id is in two corpora.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event

from benger.errors import InputError
from benger.schema import Generation, Judgement
from benger.store import MetricValue, RecordBundle, Store
from benger.store._import import write_records

from ._data import dump, make_corpus

N = 2500
#: statements a batch of N may take: the corpus look-up in pages of 1,000 task ids, the task check, the writes
MAX_STATEMENTS = 10


@contextmanager
def _statements(store: Store) -> Iterator[list[str]]:
    """The statements sent while the block runs (first words of each, executemany counted once)."""
    sent: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, _parameters: Any, _context: Any, _many: bool) -> None:
        sent.append(" ".join(statement.split()[:3]))

    event.listen(store.engine, "before_cursor_execute", count)
    try:
        yield sent
    finally:
        event.remove(store.engine, "before_cursor_execute", count)


def _gen(i: int, status: str, gid: str, corpus: str | None = None) -> Generation:
    """Generation ``gid`` with key (demo, demo-t{1..3}, h1, run i // 3): 2,500 distinct keys for i < 2,500."""
    return Generation(
        generation_id=gid, task_id=f"demo-t{i % 3 + 1}", corpus=corpus, system="sys-a", config_hash="h1",
        run_index=i // 3, status=status, reason=None if status == "ok" else "boom", text=f"Text {i}",
    )  # fmt: skip


def _judgement(i: int) -> Judgement:
    return Judgement(
        judgement_id=f"j{i:04d}", target_kind="generation", target_id=f"g{i:04d}", judge="j",
        judge_config_hash="jh", rubric_id="falloesung@1", status="scored", dimensions={"subsumtion": 1.5},
        total=1.5,
    )  # fmt: skip


def _value(i: int, value: float) -> MetricValue:
    return MetricValue(target_kind="generation", target_id=f"g{i:04d}", metric="bleu", signature="s", value=value)


def test_a_batch_without_corpora_is_a_few_statements(store: Store) -> None:
    store.add_corpus(make_corpus())
    with _statements(store) as sent:
        store.save_generations([_gen(i, "ok", f"g{i:04d}") for i in range(N)])
    assert len(sent) <= MAX_STATEMENTS, sent[:5]
    assert sorted(
        (g.generation_id, g.corpus, g.task_id, g.run_index, g.status, g.text) for g in store.generations()
    ) == [(f"g{i:04d}", "demo", f"demo-t{i % 3 + 1}", i // 3, "ok", f"Text {i}") for i in range(N)]
    with _statements(store) as sent:
        store.save_judgements([_judgement(i) for i in range(N)])
        store.save_metric_values([_value(i, i / 4) for i in range(N)])
    assert len(sent) <= 2 * MAX_STATEMENTS, sent[:5]
    assert sorted((j.judgement_id, j.target_id, j.total) for j in store.judgements()) == [
        (f"j{i:04d}", f"g{i:04d}", 1.5) for i in range(N)
    ]
    assert [m.value for m in store.metric_values()] == [i / 4 for i in range(N)]


def test_a_repeated_key_keeps_the_one_record_rules(store: Store) -> None:
    store.add_corpus(make_corpus())
    half = N // 2
    # keys 0..1,249 first failed, then ok: the ok records ("ok0000".."ok1249") replace them
    gens = [_gen(i, "failed", f"f{i:04d}") for i in range(half)] + [_gen(i, "ok", f"ok{i:04d}") for i in range(half)]
    with _statements(store) as sent:
        store.save_generations(gens)
    assert len(sent) <= MAX_STATEMENTS, sent[:5]
    # a later failed record of a finished key is dropped: "ok0000" stays
    store.save_generations([_gen(0, "failed", "late")])
    assert sorted((g.generation_id, g.status) for g in store.generations()) == [
        (f"ok{i:04d}", "ok") for i in range(half)
    ]
    # metric values: the later value of a key wins (0.25 then 0.75 -> 0.75)
    store.save_metric_values([_value(i, 0.25) for i in range(half)] + [_value(i, 0.75) for i in range(half)])
    assert [(m.target_id, m.value) for m in store.metric_values()] == [(f"g{i:04d}", 0.75) for i in range(half)]


def test_a_task_id_in_two_corpora_must_be_named(store: Store) -> None:
    other = make_corpus("demo").model_copy(update={"name": "other"})
    other = other.model_copy(update={"tasks": [t.model_copy(update={"corpus": "other"}) for t in other.tasks]})
    store.add_corpora([make_corpus(), other])  # both hold demo-t1..demo-t3
    before = dump(store)
    batch = [_gen(0, "ok", "named", corpus="demo"), _gen(1, "ok", "unnamed")]
    with pytest.raises(InputError, match=r"task id 'demo-t2' is in 2 corpora \('demo', 'other'\).*must name"):
        store.save_generations(batch)
    assert dump(store) == before
    store.save_generations([_gen(0, "ok", "a", corpus="other"), _gen(1, "ok", "b", corpus="demo")])
    assert sorted((g.generation_id, g.corpus) for g in store.generations()) == [("a", "other"), ("b", "demo")]


def test_the_importer_is_a_few_statements(store: Store) -> None:
    gens = [_gen(i, "ok", f"g{i:04d}", corpus="demo") for i in range(N)]
    metric_rows = [
        {"target_kind": "generation", "target_id": f"g{i:04d}", "metric": "bleu", "signature": "release",
         "value": i / 4, "details": None}
        for i in range(N)
    ]  # fmt: skip
    with _statements(store) as sent:
        write_records(store, RecordBundle([make_corpus()], generations=gens, metric_values=metric_rows))
    assert len(sent) <= 2 * MAX_STATEMENTS, sent[:5]
    assert len(store.generations()) == N
    assert [m.value for m in store.metric_values()] == [i / 4 for i in range(N)]
