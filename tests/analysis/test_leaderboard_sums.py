"""Issue 18: with ``ci="normal"`` the leaderboard of a store reads per-row sums from SQL, never per-generation rows;
the numbers are those of the per-generation definition (``normal_mean_ci`` over the generations' scores)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from benger.schema import Corpus, FalloesungTask, Generation, Judgement
from benger.store import open_store

from .test_leaderboard_store import _assert_same, _fill


def test_the_normal_interval_from_sql_sums_is_the_interval_of_the_scores(tmp_path: Path) -> None:
    """Issue 18: with ``ci="normal"`` the rows come from SQL sums (no per-generation rows); each row's mean and
    interval equal ``normal_mean_ci`` over its per-generation scores, a near-constant row included."""
    import numpy as np

    from benger.stats import normal_mean_ci
    from benger.store._aggregate_items import row_sums

    store = open_store(tmp_path / "sums.db")
    _fill(store)
    # a near-constant row: two generations whose repeat means are both 100/3 (the sums cancel to ~0)
    tasks = [FalloesungTask(task_id=f"k{i}", corpus="k", area="Zivilrecht", facts="S", reference="R") for i in (1, 2)]
    store.add_corpus(Corpus(name="k", tasks=tasks))
    for t in tasks:
        gid = f"q-{t.task_id}"
        store.save_generation(Generation(generation_id=gid, task_id=t.task_id, system="q", config_hash="q", text="T"))
        for r, total in enumerate((0.0, 50.0, 50.0)):
            store.save_judgement(Judgement(judgement_id=f"{gid}-{r}", target_kind="generation", target_id=gid,
                                           judge="ja", judge_config_hash="h-ja", rubric_id="rub@1+abc",
                                           repeat_index=r, status="scored", total=total))  # fmt: skip
    assert {(s.system, s.corpus, s.n) for s in row_sums(store)} >= {("q", "k", 2)}
    board = _assert_same(store, ci="normal")
    judgements = store.judgements(target_kind="generation")
    gens = {g.generation_id: g for g in store.generations() if g.status == "ok"}
    corpus_of = {t.task_id: t.corpus for name in store.corpus_names() for t in store.load_corpus(name).tasks}
    for row in (r for r in board.rows if r.n >= 3):
        per_gen: dict[str, list[float]] = {}
        for j in judgements:
            g = gens.get(j.target_id)
            if g is None or j.judge != row.judge or j.status != "scored" or j.total is None:
                continue
            kind = "grundprinzip" if row.corpus == "gp" else "falloesung"
            same_config = g.config_hash in (row.config_hash, f"{row.config_hash}-{kind}")
            if g.system == row.system and same_config and corpus_of[g.task_id] == row.corpus:
                per_gen.setdefault(g.generation_id, []).append(j.total)
        scores = np.array([sum(v) / len(v) for _, v in sorted(per_gen.items())])
        expected = normal_mean_ci(scores, bounds=(0.0, 100.0))
        assert len(scores) == row.n and math.isclose(row.mean or 0, expected.estimate, abs_tol=1e-9)
        assert math.isclose(row.ci_low or 0, expected.low or 0, abs_tol=1e-9)
        assert math.isclose(row.ci_high or 0, expected.high or 0, abs_tol=1e-9)
    flat = next(r for r in board.rows if r.system == "q")  # two generations: no interval (issue 24: n < 3)
    assert flat.mean == pytest.approx(100 / 3) and flat.ci_low is flat.ci_high is None
    store.close()
