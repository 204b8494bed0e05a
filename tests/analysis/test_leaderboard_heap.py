"""Issue 18: the bootstrap's item reading keeps the old heap out of full collections, and leaves the collector
as it found it."""

from __future__ import annotations

import gc

import pytest

from benger.analysis.leaderboard.heap import heap_frozen


def test_the_heap_is_frozen_inside_and_unfrozen_after() -> None:
    assert gc.get_freeze_count() == 0
    with heap_frozen():
        frozen = gc.get_freeze_count()
        young = [[i] for i in range(1000)]  # objects made inside stay collectable
        assert gc.get_freeze_count() == frozen > 0
        assert any(gc.is_tracked(x) for x in young)
    assert gc.get_freeze_count() == 0
    with pytest.raises(KeyError), heap_frozen():
        raise KeyError("a failed read")
    assert gc.get_freeze_count() == 0  # unfrozen on an error too


def test_a_heap_frozen_by_someone_else_stays_frozen() -> None:
    gc.freeze()  # e.g. the pipeline's run_gc() of a run in progress
    try:
        before = gc.get_freeze_count()
        with heap_frozen():
            assert gc.get_freeze_count() == before  # nothing frozen twice
        assert gc.get_freeze_count() == before  # and not unfrozen under the other user
    finally:
        gc.unfreeze()
