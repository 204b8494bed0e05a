"""A store imported from the release holds only the 30 human validation picks, not the study's 220 human solutions:
``benger analyze`` on it reports the per-annotation human estimates as ``benger reproduce`` does (unavailable, with
the reason; RQ4's effect under ``judge_picks``), never as if the picks were every human solution."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from benger.analysis import StudyData, compute_all

pytestmark = pytest.mark.release


@pytest.fixture(scope="module")
def both(release_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    from benger.corpora import load_release
    from benger.store import open_store

    store = open_store(tmp_path_factory.mktemp("release-store") / "study.db")
    try:
        store.import_release(load_release(release_dir))
        stored = compute_all(StudyData.from_store(store), seed=7, n_boot=50, n_stacked=10)
    finally:
        store.close()
    released = compute_all(StudyData.from_release(release_dir), seed=7, n_boot=50, n_stacked=10)
    return released, stored


def test_rq4_of_a_release_store_is_under_judge_picks_with_its_reason(both: tuple[dict, dict]) -> None:
    released, stored = both
    for rq4 in (released["rq4"], stored["rq4"]):
        assert rq4["source"] == "unavailable" and rq4["judge"] is None
        assert "validation picks" in rq4["reason"] and "see judge_picks" in rq4["reason"]
        assert rq4["judge_picks"] is not None
    assert "imported from the release" in stored["rq4"]["reason"]
    # the same 30 picks: the same arms and means (the intervals differ: a store resamples whole tasks)
    a, b = released["rq4"]["judge_picks"], stored["rq4"]["judge_picks"]
    assert (a["n"], a["mean"], a["delta"]) == (b["n"], b["mean"], b["delta"])
    assert stored["rq4"]["inputs"]["with_judge_score"] == 30


def test_human_judge_columns_of_a_release_store_are_unavailable(both: tuple[dict, dict]) -> None:
    released, stored = both
    for results in (released, stored):
        humans = [r for r in results["rq1"]["leaderboard"]["rows"] if r["kind"] == "human"]
        table2 = [r for r in results["rq1"]["appendix_a"]["final"]["table2"] if r["kind"] == "human"]
        assert [r["system"] for r in humans] == ["human_all", "human_traditional", "human_co_creation"]
        assert len(table2) == 2
        for row in humans:
            assert row["bench"]["source"] == "unavailable" and row["bench"]["reason"], row
            assert row["bench"]["human_raw"] is not None  # the human reviewers' columns stay
        for row in table2:
            assert row["raw"] is None and row["judge_source"] == "unavailable" and row["judge_reason"], row
            assert row["h_raw"] is not None
        if results is stored:
            reasons = [r["bench"]["reason"] for r in humans] + [r["judge_reason"] for r in table2]
            assert all("the release's validation picks only" in why for why in reasons), reasons
