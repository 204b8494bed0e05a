"""Judges and systems by their display names on every page, served and in the bundle: one map each
(``_names.judge_name``, ``_names.system_names``); the bundle's validation table showed the store keys
(``cfgB_opus``) where a reader expects the model (Opus-4.7), Browse/Compare/Errors the systems' names (``gpt-5.4``)
where the leaderboard shows their display names (GPT-5.4)."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from viewer_helpers import ViewerWorld, _judgement, build

from benger.analysis import leaderboard_from_store
from benger.judge._released import PAPER_JUDGE_NAMES
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app, write_bundle
from benger.web.viewer._links import BundleLinks
from benger.web.viewer._names import JUDGE_NAMES, LABELS, judge_name


def test_the_names_are_the_reports() -> None:
    from benger.report._fmt import JUDGE_LABELS

    assert set(LABELS) == set(JUDGE_LABELS) and set(PAPER_JUDGE_NAMES) <= set(LABELS)
    for key, label in LABELS.items():  # the report's label less its English note
        assert JUDGE_LABELS[key].removesuffix(" (primary)").removesuffix(" (legacy)") == label
    assert judge_name("gpt-5.4-mini") == "GPT-5.4-mini" and judge_name("cfgB_opus") == "Opus-4.7"
    assert judge_name("judge-x") == "judge-x" and judge_name(None) == "–"
    assert JUDGE_NAMES["qwen"] == "Qwen3.5-397B-A17B"


def _row_heads(html: str) -> list[str]:
    table = html[html.index('<table class="validation">') :]
    table = table[: table.index("</table>")]
    return re.findall(r'<th scope="row"[^>]*>([^<]*)</th>', table)


def test_served_and_bundled_pages_name_the_judges_alike(tmp_path: Path) -> None:
    world = build(tmp_path)
    store = world.store
    try:
        store.save_judgement(_judgement("human_solution", "hs-1", "cfgB_opus", 0, 0.4))
        store.save_judgement(_judgement("generation", "g-beta-c1", "cfgB_opus", 0, 0.4))
        with TestClient(create_viewer_app(store, Principal.local())) as c:
            served = {
                "validation": c.get("/view/validation", params={"lang": "en"}).text,
                "solution": c.get("/view/solution", params={"kind": "human_solution", "id": "hs-1"}).text,
                "board": c.get("/view/").text,
                "browse": c.get("/view/browse").text,
            }
        out = tmp_path / "site"
        write_bundle(store, out)
    finally:
        store.close()
    bundled = (out / "en" / "validation.html").read_text(encoding="utf-8")
    assert _row_heads(served["validation"]) == _row_heads(bundled) == ["judge-x", "Opus-4.7"]
    for html in (served["validation"], bundled):
        assert "<figcaption>Opus-4.7</figcaption>" in html and '<title id="sc-vcase-1-t">Opus-4.7</title>' in html
    solution = next(p for p in (out / "de" / "solution").iterdir() if "hs-1" in p.name).read_text(encoding="utf-8")
    for html in (served["solution"], solution):
        assert "Judge: Opus-4.7<br>" in html and "Judge: cfgB_opus" not in html
    for html in (served["board"], (out / "de" / "index.html").read_text(encoding="utf-8")):
        assert re.search(r'<h2 id="group-\d">Judge: Opus-4\.7</h2>', html) and "Judge: cfgB_opus" not in html
    assert '<option value="cfgB_opus">Opus-4.7</option>' in served["browse"]


# -- systems ---------------------------------------------------------------------------------------------------
#: Display names given to the small store's systems (as a catalogue alias or a config's display_name gives them).
SYSTEM_NAMES = {"alpha": "Alpha-7", "beta": "Beta 3 Mini"}
#: Each page type that names systems: (served path, the bundle's file of it).
_FILE = BundleLinks("de", 1)
SYSTEM_PAGES = [
    ("/view/", "index.html"),
    ("/view/browse", "browse/all-1.html"),
    ("/view/browse?system=alpha&corpus=vcase", _FILE.browse(system="alpha", corpus="vcase", page="1")[3:]),
    ("/view/solution?kind=generation&id=g-alpha-c1", _FILE.solution("generation", "g-alpha-c1")[3:]),
    ("/view/compare?corpus=vcase&task=c1&a=g-alpha-c1&b=g-beta-c1", _FILE.compare("vcase", "c1")[3:]),
    ("/view/errors", "errors.html"),
]


def _visible(html: str) -> str:
    """The page's text a reader sees (tags, attribute values and the script left out)."""
    html = re.sub(r"<script.*?</script>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", html))


@pytest.fixture(scope="module")
def named(vw: ViewerWorld, tmp_path_factory: pytest.TempPathFactory) -> tuple[TestClient, Path]:
    """The small store with display names for its systems: the served app's client and the bundle."""
    store = vw.store
    for system in store.systems():
        store.upsert_system(system.model_copy(update={"display_name": SYSTEM_NAMES[system.name]}))
    out = tmp_path_factory.mktemp("named") / "site"
    write_bundle(store, out)
    return TestClient(create_viewer_app(store, Principal.local())), out


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize(("path", "bundled"), SYSTEM_PAGES)
def test_every_page_names_systems_as_the_leaderboard_does(
    named: tuple[TestClient, Path], vw: ViewerWorld, path: str, bundled: str, lang: str
) -> None:
    client, out = named
    board = {r.system: r.display for r in leaderboard_from_store(vw.store).rows}
    assert board == SYSTEM_NAMES  # the leaderboard's (benger leaderboard's System column) are the names to show
    served = client.get(f"{path}{'&' if '?' in path else '?'}lang={lang}")
    assert served.status_code == 200
    for html in (served.text, (out / lang / bundled).read_text(encoding="utf-8")):
        text = _visible(html)
        assert "Alpha-7" in text, (path, lang)
        for raw in SYSTEM_NAMES:
            assert not re.search(rf"(?<![\w-]){raw}(?![\w-])", text), (path, lang, raw)
