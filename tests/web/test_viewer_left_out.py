"""The leaderboard page names the judges it leaves out: a judge configuration that scored only validation picks
(``store._aggregate_items.validation_only_judges``) makes no rows, and the page says so and why."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from viewer_helpers import _judgement, build, share_dims

from benger.judge import grade_points, passed
from benger.schema import HumanReview
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app, write_bundle


def test_a_validation_only_judge_is_named_with_the_reason(tmp_path: Path) -> None:
    world = build(tmp_path)
    store = world.store
    try:
        dims = share_dims(0.6)
        store.add_human_review(
            HumanReview(
                review_id="r-gen",
                target_kind="generation",
                target_id="g-alpha-c1",
                task_id="c1",
                grader_id="grader_01",
                role="blind",
                dimensions=dims,
                raw_score=sum(dims.values()),
                grade_points=grade_points(sum(dims.values())),
                passed=passed(sum(dims.values())),
            )
        )
        store.save_judgement(_judgement("generation", "g-alpha-c1", "cfgB_opus", 0, 0.7))  # the pick only
        with TestClient(create_viewer_app(store, Principal.local())) as c:
            de, en = c.get("/view/").text, c.get("/view/", params={"lang": "en"}).text
        write_bundle(store, tmp_path / "site", langs=("en",))
        bundled = (tmp_path / "site" / "en" / "index.html").read_text(encoding="utf-8")
    finally:
        store.close()
    assert 'data-judge-cfg="cfg-cfgB_opus"' not in en  # no rows
    for html in (en, bundled):
        assert 'id="left-out"' in html
        left = html[html.index('id="left-out"') :]
        left = left[: left.index("</section>")]
        assert "Opus-4.7" in left and "cfg-cfgB" in left
        assert "scored only validation picks: see the" in left and "validation page</a>" in left
    assert "bewertete nur Validierungs-Picks" in de
    assert "judge-x" not in left  # only the judges left out


def test_no_list_when_no_judge_is_left_out(tmp_path: Path) -> None:
    world = build(tmp_path)
    try:
        with TestClient(create_viewer_app(world.store, Principal.local())) as c:
            assert 'id="left-out"' not in c.get("/view/").text
    finally:
        world.store.close()
