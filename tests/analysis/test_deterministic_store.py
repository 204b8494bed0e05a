"""Issue 24 item 6: every query that feeds a resample or a ranking has an ORDER BY on stable keys. The same
content inserted in different orders gives byte-identical results.json and leaderboard JSON, on SQLite and on
PostgreSQL (before: PostgreSQL's heap order reached the resampler)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from benger.analysis import StudyData, compute_all, leaderboard_from_store
from benger.schema import Corpus, FalloesungTask, Generation, Judgement, SystemConfig
from benger.store import Store, open_store

TASKS = [FalloesungTask(task_id=f"t{i}", corpus="benchathon", area="Zivilrecht", facts="SV", reference="ML")
         for i in range(6)]  # fmt: skip


def _content() -> tuple[list[Generation], list[Judgement]]:
    rng = random.Random(24)
    gens, judgements = [], []
    for system in ("alpha", "beta", "gamma"):
        for task in TASKS:
            for run in range(2):  # repetitions: the task is the unit
                gid = f"{system}-{task.task_id}-{run}"
                gens.append(Generation(generation_id=gid, task_id=task.task_id, system=system, config_hash=system,
                                       run_index=run, text="T"))  # fmt: skip
                for repeat in range(2):
                    total = float(rng.randint(20, 95))
                    judgements.append(
                        Judgement(judgement_id=f"{gid}-{repeat}", target_kind="generation", target_id=gid,
                                  judge="J", judge_config_hash="jh", rubric_id="falloesung@1+abc",
                                  repeat_index=repeat, status="scored", total=total,
                                  grade_points=int(total // 6), passed=total >= 50)
                    )  # fmt: skip
    return gens, judgements


def _fill(store: Store, order: int) -> None:
    gens, judgements = _content()
    shuffle = random.Random(order)
    shuffle.shuffle(gens)
    shuffle.shuffle(judgements)
    store.add_corpus(Corpus(name="benchathon", tasks=TASKS))
    for name in ("gamma", "alpha", "beta") if order else ("alpha", "beta", "gamma"):
        store.upsert_system(SystemConfig(name=name, provider="local", model=name))
    for g in gens:
        store.save_generation(g)
    for j in judgements:
        store.save_judgement(j)


def _outputs(store: Store) -> tuple[str, str]:
    board = leaderboard_from_store(store, ci="percentile", seed=5, n_resamples=300)
    data = StudyData.from_store(store)
    results = compute_all(data, seed=5, n_boot=200, n_stacked=20)
    results["meta"].pop("benger_version", None)
    return board.to_json(), json.dumps(results, sort_keys=True, ensure_ascii=False)


def _both_orders(url_of: Callable[[int], AbstractContextManager[str]]) -> list[tuple[str, str]]:
    out = []
    for order in (0, 1):
        with url_of(order) as url:
            store = open_store(url)
            try:
                _fill(store, order)
                out.append(_outputs(store))
            finally:
                store.close()
    return out


def test_insert_order_does_not_change_the_numbers_on_sqlite(tmp_path: Path) -> None:
    from contextlib import nullcontext

    first, second = _both_orders(lambda order: nullcontext(str(tmp_path / f"o{order}.db")))
    assert first[0] == second[0]
    assert first[1] == second[1]


@pytest.mark.slow
def test_insert_order_does_not_change_the_numbers_on_postgresql(
    tmp_path: Path, pg_database: Callable[[str], AbstractContextManager[str]]
) -> None:
    from contextlib import nullcontext

    pg = _both_orders(lambda order: pg_database(f"benger_order_{order}"))
    assert pg[0] == pg[1]
    (sqlite,) = _both_orders(lambda order: nullcontext(str(tmp_path / f"s{order}.db")))[:1]
    assert pg[0] == sqlite  # and the same bytes as SQLite's
