"""The leaderboard page marks a row on too few scored generations as the CLI does: its rank in parentheses
("(1)": the order of its mean only, ``analysis.leaderboard.MIN_RANKED_N``) with the reason in the page's language,
in served and bundled pages alike; a row on enough generations keeps its plain rank."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient
from viewer_helpers import build

from benger.analysis.leaderboard.model import MIN_RANKED_N
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app, write_bundle

RANK = re.compile(r'<td data-field="rank" data-value="(\d*)">(.*?)</td>')


def _ranks(html: str) -> list[tuple[str, str]]:
    return RANK.findall(html)


def test_a_row_on_two_generations_shows_its_rank_in_parentheses_with_the_reason(tmp_path: Path) -> None:
    world = build(tmp_path)  # every row rests on 2 cases (or 2 items)
    try:
        with TestClient(create_viewer_app(world.store, Principal.local())) as c:
            de, en = c.get("/view/").text, c.get("/view/", params={"lang": "en"}).text
        write_bundle(world.store, tmp_path / "site", langs=("en",))
        bundled = (tmp_path / "site" / "en" / "index.html").read_text(encoding="utf-8")
    finally:
        world.store.close()
    for html in (de, en, bundled):
        ranks = [(value, cell) for value, cell in _ranks(html) if value]
        assert ranks, "no ranked row"
        for value, cell in ranks:
            assert f">({value})</span>" in cell  # the rank, in parentheses
    assert f"n = 2: zu wenige für einen Rang (weniger als {MIN_RANKED_N} bewertete Generierungen)" in de
    for html in (en, bundled):
        assert f"n = 2: too few for a ranking (fewer than {MIN_RANKED_N} scored generations)" in html
        assert "zu wenige" not in html
