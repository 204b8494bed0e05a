"""A human review under a rubric without a grade table (grade points and pass None) goes through the Hugging Face
export and back as None: a null parquet cell, never 0 / False (issue 31)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.interop.test_hf import FALL_DIMS, _dump, _fill

from benger.interop.hf import export_hf, read_hf
from benger.schema import HumanReview
from benger.store import open_store

pq = pytest.importorskip("pyarrow.parquet")


def test_ungraded_review_round_trips_as_none(tmp_path: Path) -> None:
    store = open_store(tmp_path / "a.db")
    copy = open_store(tmp_path / "b.db")
    try:
        _fill(store)
        store.add_human_review(
            HumanReview(
                review_id="r2",
                target_kind="human_solution",
                target_id="s1",
                task_id="demo-sr-1",
                grader_id="rev2",
                role="blind",
                dimensions=FALL_DIMS,
                raw_score=sum(FALL_DIMS.values()),
                grade_points=None,
                passed=None,
                position=1,
            )
        )
        export_hf(store, tmp_path / "out")
        table = pq.read_table(tmp_path / "out" / "human_reviews" / "demo_falloesung.parquet").to_pylist()
        cells = {r["review_id"]: (r["grade_points"], r["passed"]) for r in table}
        assert cells == {"r1": (11, True), "r2": (None, None)}
        copy.import_records(read_hf(tmp_path / "out"))
        got = {r.review_id: (r.grade_points, r.passed) for r in copy.human_reviews()}
        assert got == {"r1": (11, True), "r2": (None, None)}
        assert _dump(copy) == _dump(store)
    finally:
        store.close()
        copy.close()
