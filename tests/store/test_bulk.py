"""Bulk writes (issue 26): ``save_generations`` / ``save_judgements`` / ``save_metric_values`` store what the
one-record calls store, record by record in order, in one transaction; a record that cannot be stored leaves the
store unchanged."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from benger.errors import InputError
from benger.schema import Generation, Judgement
from benger.store import MetricValue, Store, open_store

from ._data import dump, make_corpus


def _gen(task: str, run: int, status: str, gid: str, text: str = "") -> Generation:
    reason = None if status == "ok" else "boom"
    return Generation(
        generation_id=gid, task_id=task, corpus=None, system="sys-a", config_hash="h1", run_index=run,
        status=status, reason=reason, text=text,
    )  # fmt: skip


def _judgement(target: str, status: str, jid: str, total: float | None) -> Judgement:
    scored = status == "scored"
    return Judgement(
        judgement_id=jid, target_kind="generation", target_id=target, judge="j", judge_config_hash="jh",
        rubric_id="falloesung@1", status=status, reason=None if scored else "unparsable",
        dimensions={"subsumtion": total} if scored else None, total=total if scored else None,
    )  # fmt: skip


#: (generations, judgements, metric values) written in this order; hand-checked outcome in the comments
CASES: list[tuple[list[Generation], list[Judgement], list[MetricValue]]] = [
    # plain inserts
    ([_gen("demo-t1", 0, "ok", "a"), _gen("demo-t2", 0, "ok", "b")], [_judgement("a", "scored", "ja", 5.0)], []),
    # a failed generation replaced by a later ok one of the same key: the ok one ("b2") is stored
    ([_gen("demo-t1", 0, "failed", "b1"), _gen("demo-t1", 0, "ok", "b2", "text")], [], []),
    # an ok generation is kept: the later failed one of its key is dropped ("c1" stays)
    ([_gen("demo-t3", 1, "ok", "c1", "first"), _gen("demo-t3", 1, "failed", "c2")], [], []),
    # unscored then scored: the scored one stays; scored then unscored: the first stays
    (
        [],
        [
            _judgement("g1", "unscored", "u1", None),
            _judgement("g1", "scored", "s1", 3.0),
            _judgement("g1", "unscored", "u2", None),
        ],
        [],
    ),
    # a metric value updated by a later one with the same key
    (
        [],
        [],
        [
            MetricValue(target_kind="generation", target_id="a", metric="bleu", signature="s", value=0.25),
            MetricValue(target_kind="generation", target_id="a", metric="bleu", signature="s", value=0.5),
            MetricValue(target_kind="generation", target_id="a", metric="chrf", signature="s", value=1.0),
        ],
    ),
]


def _records(store: Store) -> dict[str, list[dict[str, Any]]]:
    drop = {"created_at", "updated_at"}
    return {
        "generations": [{k: v for k, v in g.model_dump().items() if k not in drop} for g in store.generations()],
        "judgements": [{k: v for k, v in j.model_dump().items() if k not in drop} for j in store.judgements()],
        "metrics": [m.model_dump() for m in store.metric_values()],
    }


def _one_by_one(store: Store, gens: Sequence[Generation], js: Sequence[Judgement], ms: Sequence[MetricValue]) -> None:
    for g in gens:
        store.save_generation(g)
    for j in js:
        store.save_judgement(j)
    for m in ms:
        store.save_metric_value(m.target_kind, m.target_id, m.metric, m.signature, m.value, m.details)


@pytest.mark.parametrize(("gens", "js", "ms"), CASES)
def test_a_batch_stores_what_the_one_record_calls_store(
    gens: list[Generation], js: list[Judgement], ms: list[MetricValue], store: Store, tmp_path: Path
) -> None:
    store.add_corpus(make_corpus())
    with open_store(tmp_path / "one.db") as reference:
        reference.add_corpus(make_corpus())
        _one_by_one(reference, gens, js, ms)
        expected = _records(reference)
    store.save_generations(gens)
    store.save_judgements(js)
    store.save_metric_values(ms)
    assert _records(store) == expected


def test_hand_checked_outcome(store: Store) -> None:
    store.add_corpus(make_corpus())
    store.save_generations([_gen("demo-t1", 0, "failed", "b1"), _gen("demo-t1", 0, "ok", "b2", "text")])
    store.save_generations([_gen("demo-t1", 0, "failed", "b3")])  # a later batch cannot replace a finished row
    assert [(g.generation_id, g.status, g.text, g.corpus) for g in store.generations()] == [
        ("b2", "ok", "text", "demo")
    ]


def test_a_batch_with_an_unknown_task_writes_nothing(store: Store) -> None:
    store.add_corpus(make_corpus())
    before = dump(store)
    batch = [_gen("demo-t1", 0, "ok", "a"), _gen("nowhere-t9", 0, "ok", "b")]
    with pytest.raises(InputError, match=r"'b': task 'nowhere-t9'.*nothing of this batch was written"):
        store.save_generations(batch)
    assert dump(store) == before
