"""The viewer's solution grid with a review under a rubric without a grade table: its total shows "–" grade
points (none were given), not 0; the raw total is shown as for every review (issue 31)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient
from viewer_helpers import build, share_dims

from benger.schema import HumanReview
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app


def test_an_ungraded_review_shows_no_grade_points(tmp_path: Path) -> None:
    world = build(tmp_path)
    try:
        dims = share_dims(0.25)
        world.store.add_human_review(
            HumanReview(
                review_id="r-ungraded",
                target_kind="human_solution",
                target_id="hs-1",
                task_id="c1",
                grader_id="grader_07",
                role="blind",
                dimensions=dims,
                raw_score=sum(dims.values()),
                grade_points=None,
                passed=None,
                position=9,
            )
        )
        with TestClient(create_viewer_app(world.store, Principal.local())) as client:
            page = client.get("/view/solution", params={"kind": "human_solution", "id": "hs-1"})
        assert page.status_code == 200
        total = re.search(r'<tr class="total">.*?</tr>', page.text, re.S)
        assert total is not None
        cells = re.findall(r"<td>(.*?)</td>", total.group(0), re.S)
        mine = [c for c in cells if "<strong>25" in c]
        assert len(mine) == 1 and "– Notenpunkte" in mine[0] and " 0 Notenpunkte" not in mine[0]
    finally:
        world.store.close()
