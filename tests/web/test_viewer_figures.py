"""The viewer's figures and the leaderboard's counts (issue 27's leftovers): a bar's value stands right of its CI
whisker (the whisker never crosses it), the judge-vs-reviewer scatter plots carry a legend of their marks in the
page's language, and the leaderboard page has the superseded column of ``benger leaderboard``'s CSV.

tests/web/test_viewer_layout.py checks the same in Chromium (bounding boxes); these read the SVG and the HTML.
"""

from __future__ import annotations

import csv
import io
import re

import pytest
from fastapi.testclient import TestClient
from viewer_helpers import ViewerWorld, _judgement

from benger.analysis import leaderboard_from_store
from benger.schema import Generation
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app
from benger.web.viewer._render import number, translator
from benger.web.viewer._svg import Bar, Point, bars, scatter

BARS = [
    Bar("narrow", 50.0, 49.5, 50.5),
    Bar("wide", 40.0, 20.0, 75.0),
    Bar("top", 98.0, 90.0, 100.0),
    Bar("no interval", 30.0, None, None),
    Bar("zero", 0.0, 0.0, 12.0),
]


def _attrs(tag: str) -> dict[str, str]:
    return dict(re.findall(r'(\w[\w-]*)="([^"]*)"', tag))


def test_a_value_stands_right_of_its_whisker() -> None:
    svg = str(bars("t", BARS, "f"))
    values = [_attrs(t) for t in re.findall(r'<text [^>]*class="val"[^>]*>', svg)]
    whiskers = [_attrs(t) for t in re.findall(r'<line [^>]*class="ci"[^>]*/>', svg)]
    width = float(_attrs(re.search(r"<svg [^>]*>", svg)[0])["width"])  # type: ignore[index]
    assert len(values) == len(BARS) and len(whiskers) == 4
    ends = iter(float(w["x2"]) for w in whiskers)
    for bar, value in zip(BARS, values, strict=True):
        x = float(value["x"])
        if bar.high is not None:
            assert x >= next(ends) + 3, bar  # right of the whisker's end, with a gap
        assert x + 6.5 * 5 <= width, bar  # "100.0" fits in the figure


@pytest.mark.parametrize(
    ("lang", "groups", "words"),
    [
        ("de", ["human", "llm"], ["LLM-Picks", "menschliche Picks", "gestrichelt: Judge = Gutachter*innen"]),
        ("en", ["human", "llm"], ["LLM picks", "human picks", "dashed: judge = annotators"]),
        ("de", ["human"], ["menschliche Picks", "gestrichelt: Judge = Gutachter*innen"]),
        ("en", ["llm", "other"], ["LLM picks", "other", "dashed: judge = annotators"]),
    ],
)
def test_the_scatter_plot_has_a_legend_of_its_marks(lang: str, groups: list[str], words: list[str]) -> None:
    points = [Point(10.0 * i, 20.0 + i, f"p{i}", g) for i, g in enumerate(groups * 3)]
    svg = str(scatter("J", points, "s", "Gutachter*innen (Mittel)", "J", translate=translator(lang), fmt=number(lang)))
    legend = re.search(r'<g class="legend">(.*?)</g>', svg, re.S)
    assert legend is not None
    assert re.findall(r"<text [^>]*>([^<]*)</text>", legend[1]) == words
    marks = re.findall(r'<circle [^>]*class="(pt [^"]*)"', legend[1])
    drawn = {c for c in re.findall(r'<circle [^>]*class="(pt [^"]*)">', svg)}  # the points (with their titles)
    assert set(marks) == drawn and len(marks) == len(groups)  # one mark per group, as its points are drawn
    assert '<line x1="' in legend[1] and 'class="diag"' in legend[1]  # the diagonal's dash
    height = float(_attrs(re.search(r"<svg [^>]*>", svg)[0])["height"])  # type: ignore[index]
    assert all(float(y) < height for y in re.findall(r' y="([\d.]+)"', legend[1]))  # inside the figure


def test_the_validation_page_shows_the_legend(vw: ViewerWorld) -> None:
    with TestClient(create_viewer_app(vw.store, Principal.local())) as c:
        de, en = (c.get("/view/validation", params={"lang": lang}).text for lang in ("de", "en"))
    for html, pool, diagonal in ((de, "menschliche Picks", "gestrichelt"), (en, "human picks", "dashed")):
        legend = re.search(r'<g class="legend">(.*?)</g>', html, re.S)
        assert legend is not None and pool in legend[1] and diagonal in legend[1]


def _superseded_world(vw: ViewerWorld) -> None:
    """An April configuration of alpha (another model id: another hash) whose one generation of c2 is superseded
    and judged: the leaderboard counts it in alpha's current row (its ``superseded`` column)."""
    store = vw.store
    old = next(s for s in store.systems() if s.name == "alpha").model_copy(update={"model": "m-alpha-april"})
    store.upsert_system(old)
    store.save_generation(
        Generation(
            generation_id="g-alpha-old-c2",
            task_id="c2",
            corpus="vcase",
            system="alpha",
            config_hash=old.config_hash(),
            text="Alt.",
            status="excluded",
            reason="superseded by the May run",
        )
    )
    store.save_judgement(_judgement("generation", "g-alpha-old-c2", "judge-x", 0, 0.4))


def test_the_leaderboard_page_has_the_superseded_column(vw: ViewerWorld) -> None:
    _superseded_world(vw)
    expected = list(csv.DictReader(io.StringIO(leaderboard_from_store(vw.store).to_csv())))
    assert {r["superseded"] for r in expected} == {"0", "1"}  # the CLI's CSV column (benger leaderboard --out)
    with TestClient(create_viewer_app(vw.store, Principal.local())) as c:
        de, en = (c.get("/view/", params={"lang": lang}).text for lang in ("de", "en"))
    shown = {
        (system, jcfg, value)
        for system, jcfg, value in re.findall(
            r'<tr data-system="([^"]*)" data-corpus="vcase" data-judge-cfg="([^"]*)">.*?'
            r'<td data-field="superseded" data-value="(\d+)">\3</td>',
            de,
            re.S,
        )
    }
    assert shown == {(r["system"], r["judge_config_hash"], r["superseded"]) for r in expected if r["corpus"] == "vcase"}
    assert ("alpha", "cfg-judge-x", "1") in shown
    assert '<button type="button" class="sort" data-col="14">Überholt</button>' in de
    assert '<button type="button" class="sort" data-col="14">Superseded</button>' in en
