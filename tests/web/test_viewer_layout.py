"""The results viewer's layout in Debian Chromium, every page type over viewer_helpers' small store: axe-core finds
no violation of any impact and no landmark violation (each landmark uniquely labelled), the page never scrolls
sideways at 800 or 400 px (a wide table scrolls inside its own container, a long name in a filter's list is cut
to the page), and the scatter plots' legend lies inside its figure, under the plot (the leaderboard's whiskers,
which this store's rows are too small for, are checked on the release: tests/web/test_viewer_browser.py).

The systems carry long display names here (a catalogue alias can be that long) and one judge a long name: the
Browse and Compare selects list them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from viewer_helpers import ViewerWorld, _judgement

from benger.web.access import Principal
from benger.web.viewer import create_viewer_app
from browser_helpers import axe_violations, serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LONG_NAMES = {
    "alpha": "Alpha-7 Long-Context Reasoning Preview 2026-04-01 (thinking, maximum effort)",
    "beta": "Beta-3 Mini Instruct Quantised Q4_K_M Local Build",
}
PAGES = [
    "/view/",
    "/view/browse",
    "/view/solution?kind=generation&id=g-alpha-c1",
    "/view/solution?kind=human_solution&id=hs-1",
    "/view/compare?corpus=vcase&task=c1&a=g-alpha-c1&b=g-beta-c1",
    "/view/validation",
    "/view/errors",
    "/view/validation?lang=en",
    "/view/compare?corpus=vcase&task=c1&a=g-alpha-c1&b=g-beta-c1&lang=en",
]


#: A judge whose name is long (the Browse judge filter lists it as it is).
LONG_JUDGE = "local-judge-qwen3-30b-a3b-instruct-2507-q4_k_m-gguf-temperature-0"


@pytest.fixture(scope="module")
def url(vw: ViewerWorld) -> Iterator[str]:
    for system in vw.store.systems():
        vw.store.upsert_system(system.model_copy(update={"display_name": LONG_NAMES[system.name]}))
    judgement = _judgement("generation", "g-beta-c2", LONG_JUDGE, 0, 0.5)
    vw.store.save_judgement(judgement.model_copy(update={"judge_config_hash": "cfg-long-judge"}))
    with serve(create_viewer_app(vw.store, Principal.local())) as base:
        yield base


def _open(browser: object, target: str, width: int = 1400) -> object:
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()  # type: ignore[attr-defined]
    page.set_default_timeout(30_000)
    page.goto(target)
    return page


@pytest.mark.parametrize("path", PAGES)
def test_every_landmark_is_labelled_uniquely(browser: object, url: str, path: str) -> None:
    page = _open(browser, url + path)
    assert not axe_violations(page, strict=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("width", [800, 400])
@pytest.mark.parametrize("path", PAGES)
def test_the_page_never_scrolls_sideways(browser: object, url: str, path: str, width: int) -> None:
    page = _open(browser, url + path, width)
    widths = page.evaluate("() => [document.scrollingElement.scrollWidth, innerWidth]")  # type: ignore[attr-defined]
    assert widths[0] <= widths[1], (path, width, widths)
    # what is wider scrolls inside its container: the container is no wider than the page
    inner = page.evaluate(  # type: ignore[attr-defined]
        """() => Array.from(document.querySelectorAll('.scroll')).map(d => [d.scrollWidth > d.clientWidth,
            d.getBoundingClientRect().right <= innerWidth + 0.5, getComputedStyle(d).overflowX])"""
    )
    assert all(fits and overflow == "auto" for _wide, fits, overflow in inner), inner
    if path == "/view/" and width == 400:
        assert any(wide for wide, _fits, _o in inner)  # the leaderboard's table is wider than 400 px: it scrolls


def test_the_scatter_legend_lies_inside_its_figure(browser: object, url: str) -> None:
    page = _open(browser, url + "/view/validation")
    boxes = page.evaluate(  # type: ignore[attr-defined]
        """() => Array.from(document.querySelectorAll('svg.figure g.legend')).map(g => {
            const svg = g.ownerSVGElement, b = g.getBBox(), v = svg.viewBox.baseVal;
            const frame = svg.querySelector('rect.frame').getBBox();
            return [b.x >= 0 && b.x + b.width <= v.width && b.y + b.height <= v.height, b.y >= frame.y + frame.height,
                    g.querySelectorAll('text').length]; })"""
    )
    assert boxes and all(inside and below and n >= 2 for inside, below, n in boxes), boxes
