"""The leaderboard and the validation blocks are computed once per store content (``benger.web.viewer._cache``):
a second request is not recomputed, any commit (a new row, a row replaced in place, another process's write)
is shown on the next request; on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_viewer import Cells
from viewer_helpers import DIMS, ViewerWorld, build

import benger.analysis
from benger.schema import Generation, Judgement, SystemConfig
from benger.store import open_store
from benger.web.access import Principal
from benger.web.viewer import _pages, create_viewer_app, warm
from benger.web.viewer._cache import ContentCache

#: 55 raw points on the ten dimensions (11 + 5.5 + 5.5 + 8 + 8.5 + 5.5 + 5.5 + 3 + 2 + 0.5)
FIFTY_FIVE = dict(zip(DIMS, (11, 5.5, 5.5, 8, 8.5, 5.5, 5.5, 3, 2, 0.5), strict=True))


@pytest.fixture
def world(tmp_path: Path) -> Iterator[ViewerWorld]:
    vw = build(tmp_path)
    yield vw
    vw.store.close()


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often the viewer computed the leaderboard and the validation blocks."""
    counted = {"leaderboard": 0, "validation": 0}
    board, blocks = benger.analysis.leaderboard_from_store, _pages.validation_blocks

    def counting_board(*args: Any, **kwargs: Any) -> Any:
        counted["leaderboard"] += 1
        return board(*args, **kwargs)

    def counting_blocks(*args: Any, **kwargs: Any) -> Any:
        counted["validation"] += 1
        return blocks(*args, **kwargs)

    monkeypatch.setattr(benger.analysis, "leaderboard_from_store", counting_board)
    monkeypatch.setattr(_pages, "validation_blocks", counting_blocks)
    return counted


def _row(html: str, system: str, judge_cfg: str) -> dict[str, str]:
    cells = Cells()
    cells.feed(html)
    return next(r for r in cells.rows if r["system"] == system and r["jcfg"] == judge_cfg and r["corpus"] == "vcase")


def _scored(judgement_id: str, target_id: str, judge: str, repeat: int) -> Judgement:
    return Judgement(
        judgement_id=judgement_id,
        target_kind="generation",
        target_id=target_id,
        judge=judge,
        judge_config_hash=f"cfg-{judge}",
        rubric_id="falloesung@1",
        repeat_index=repeat,
        status="scored",
        dimensions=FIFTY_FIVE,
        justifications={k: "Begründung" for k in DIMS},
        total=55.0,
        grade_points=6,
        passed=True,
    )


def test_second_request_is_not_recomputed(world: ViewerWorld, calls: dict[str, int]) -> None:
    with TestClient(create_viewer_app(world.store, Principal.local())) as client:
        first = client.get("/view/")
        again = client.get("/view/")
        validation = client.get("/view/validation")
    assert first.status_code == again.status_code == validation.status_code == 200
    assert again.text == first.text
    assert calls == {"leaderboard": 1, "validation": 1}  # the validation page reuses the leaderboard's blocks


def test_warm_computes_the_first_page_ahead(world: ViewerWorld, calls: dict[str, int]) -> None:
    warm(world.store, Principal.local()).join(timeout=60)
    assert calls == {"leaderboard": 1, "validation": 1}
    with TestClient(create_viewer_app(world.store, Principal.local())) as client:
        assert client.get("/view/").status_code == 200
    assert calls == {"leaderboard": 1, "validation": 1}


def test_a_commit_is_shown_on_the_next_request(world: ViewerWorld, calls: dict[str, int]) -> None:
    store = world.store
    with TestClient(create_viewer_app(store, Principal.local())) as client:
        before = _row(client.get("/view/").text, "alpha", "cfg-judge-x")
        assert before["unscored"] == "1"  # alpha's c1 has an unscored third judge-x repeat
        # the same row replaced in place (unscored -> scored): no row count changes
        store.save_judgement(_scored("j-g-alpha-c1-judge-x-2", "g-alpha-c1", "judge-x", 2))
        replaced = _row(client.get("/view/").text, "alpha", "cfg-judge-x")
        assert replaced["unscored"] == "0"
        assert calls["leaderboard"] == 2
        # a new system with one generation judged 55 by judge-y: a new row n = 1, mean 55
        gamma = SystemConfig(name="gamma", provider="openai-compatible", model="m-gamma", tier="local")
        store.upsert_system(gamma)
        store.save_generation(
            Generation(
                generation_id="g-gamma-c1",
                task_id="c1",
                corpus="vcase",
                system="gamma",
                config_hash=gamma.config_hash(),
                text="Lösung.",
            )
        )
        store.save_judgement(_scored("j-gamma", "g-gamma-c1", "judge-y", 0))
        row = _row(client.get("/view/").text, "gamma", "cfg-judge-y")
        assert (row["n"], float(row["mean"])) == ("1", 55.0)
        client.get("/view/")
    assert calls["leaderboard"] == 3


def test_sqlite_version_changes_with_another_process_commit(world: ViewerWorld) -> None:
    cache = ContentCache(world.store)
    first = cache.version()
    assert cache.version() == first
    other = open_store(world.store.url)  # another engine: another connection pool, as another process has
    try:
        other.save_judgement(_scored("j-other", "g-beta-c1", "judge-z", 0))
    finally:
        other.close()
    assert cache.version() != first


@pytest.mark.postgres
def test_postgres_version_changes_with_a_commit(pg_database: Callable[[str], AbstractContextManager[str]]) -> None:
    with pg_database("benger_viewer_cache") as url:
        vw = build(Path("."), url)
        try:
            cache = ContentCache(vw.store)
            first = cache.version()
            # equal while nothing commits; other databases of the server may commit meanwhile (then it differs:
            # more recomputation, never a stale page), so equality is checked on a reading of its own
            assert isinstance(first, str) and first.count(":") == 2
            vw.store.save_judgement(_scored("j-pg", "g-beta-c1", "judge-z", 0))
            assert cache.version() != first
            with TestClient(create_viewer_app(vw.store, Principal.local())) as client:
                row = _row(client.get("/view/").text, "beta", "cfg-judge-z")
            assert (row["n"], float(row["mean"])) == ("1", 55.0)
        finally:
            vw.store.close()
