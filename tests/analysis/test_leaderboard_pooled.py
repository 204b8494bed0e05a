"""``--pool-judges`` pools every judge: per generation the mean over the judges that scored it, then the mean over
generations (hand-computed below). The new-user attack: on the release the pooled board equalled the primary
judge's, because the validation-only judges (the five judges that scored only the validation picks) were left
out of the pool as they are left out of the per-judge board, while the footer said "all judges"."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from tests.analysis.leaderboard_stores import Scores, tiny_store

from benger.analysis.leaderboard import POOLED, Leaderboard, leaderboard, leaderboard_from_store
from benger.store import Store

CASES: list[tuple[str, Scores, Sequence[tuple[str, int]], Mapping[str, float], Mapping[str, int]]] = [
    (
        "two judges of every generation",
        {"a": {"P": [60, 70, 80, 50], "Q": [40, 50, 60, 70]}, "b": {"P": [40, 50, 30, 60], "Q": [20, 20, 20, 20]}},
        (),
        # a: (50 + 60 + 70 + 60) / 4; b: (30 + 35 + 25 + 40) / 4
        {"a": 60.0, "b": 32.5},
        {"P": 8, "Q": 8},
    ),
    (
        "a validation-only judge (the release's five other judges)",
        {"a": {"P": [60, 70, 80, 50], "V": [90]}, "b": {"P": [40, 50, 30, 60], "V": [None, 20]}},
        (("a", 0), ("b", 1)),  # V scored the two reviewed picks only
        # a: (75 + 70 + 80 + 50) / 4 (P alone: 65); b: (40 + 35 + 30 + 60) / 4 (P alone: 45)
        {"a": 68.75, "b": 41.25},
        {"P": 8, "V": 2},
    ),
    (
        "a judge that scored part of the generations, none reviewed",
        {"a": {"P": [60, 70, 80], "Q": [None, None, 20]}, "b": {"P": [10, 20, 30]}},
        (),
        {"a": (60 + 70 + 50) / 3, "b": 20.0},
        {"P": 6, "Q": 1},
    ),
]


def _records_board(store: Store, **options: Any) -> Leaderboard:
    tasks = {t.task_id: t for name in store.corpus_names() for t in store.load_corpus(name).tasks}
    return leaderboard(
        store.generations(),
        store.judgements(target_kind="generation"),
        tasks,
        reviewed={r.target_id for r in store.human_reviews() if r.target_kind == "generation"},
        **options,
    )


@pytest.mark.parametrize(("name", "scores", "reviewed", "means", "pooled"), CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("path", ["store", "records"])
def test_pooled_means_are_hand_computed(
    tmp_path: Path,
    path: str,
    name: str,
    scores: Scores,
    reviewed: Sequence[tuple[str, int]],
    means: Mapping[str, float],
    pooled: Mapping[str, int],
) -> None:
    store = tiny_store(tmp_path / "tiny.db", scores, reviewed=reviewed)
    try:
        options: dict[str, Any] = {"pool_judges": True, "ci": "normal"}
        board = leaderboard_from_store(store, **options) if path == "store" else _records_board(store, **options)
    finally:
        store.close()
    rows = {r.system: r for r in board.rows}
    assert {s: rows[s].mean for s in means} == pytest.approx(means, abs=1e-12)
    assert {r.group for r in board.rows} == {POOLED}
    assert board.pooled == pooled
    judges = {j for row in scores.values() for j, v in row.items() if any(x is not None for x in v)}
    assert rows["a"].judge == ", ".join(sorted(j for j in judges if any(x is not None for x in scores["a"][j])))
    assert f"Judges pooled (--pool-judges): {', '.join(f'{j} ({n} generations)' for j, n in pooled.items())}" in (
        board.to_markdown()
    )


def test_without_pooling_a_validation_only_judge_still_makes_no_rows(tmp_path: Path) -> None:
    _, scores, reviewed, _, _ = CASES[1]
    store = tiny_store(tmp_path / "tiny.db", scores, reviewed=reviewed)
    try:
        board = leaderboard_from_store(store, ci="normal")
    finally:
        store.close()
    assert {r.judge for r in board.rows} == {"P"} and board.pooled == {}
    assert {r.system: r.mean for r in board.rows} == {"a": 65.0, "b": 45.0}


def test_the_release_pools_its_six_judges(release_dir: Path, tmp_path: Path) -> None:
    """The attack's store: the pooled board is no longer the primary judge's alone."""
    from benger.judge._released import PAPER_JUDGE_NAMES, PRIMARY_JUDGE
    from benger.store import open_store

    store = open_store(tmp_path / "release.db")
    try:
        store.import_release(release_dir)
        pooled = leaderboard_from_store(store, pool_judges=True, ci="normal")
        primary = leaderboard_from_store(store, ci="normal")
    finally:
        store.close()
    assert set(pooled.pooled) == set(PAPER_JUDGE_NAMES.values())
    assert pooled.pooled[PRIMARY_JUDGE] == max(pooled.pooled.values())
    means = {(r.system, r.config_hash): r.mean for r in primary.rows if r.judge == PRIMARY_JUDGE}
    moved = [r for r in pooled.rows if r.mean is not None and abs(r.mean - means[(r.system, r.config_hash)]) > 1e-9]
    assert moved  # the systems with a validation pick: their picks' scores are means over six judges
    assert all("cfgB_opus" in (r.judge or "") for r in moved)
