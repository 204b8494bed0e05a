"""Every page type in one language shows no string of the other: the viewer's own table (``_render.EN``, German
key -> English) read both ways, over the served pages and the bundle's, after the other language was served
(the leaderboard and the validation are cached per store content; their text must still be the page's)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from viewer_helpers import ViewerWorld, build

from benger.web.access import Principal
from benger.web.viewer import create_viewer_app, write_bundle
from benger.web.viewer._render import EN

#: page type -> (served path and query, bundle file below the language folder or None)
PAGES: dict[str, tuple[str, dict[str, str], str | None]] = {
    "leaderboard": ("/view/", {}, "index.html"),
    "browse": ("/view/browse", {}, "browse/all-1.html"),
    "browse-filtered": ("/view/browse", {"judge": "judge-x", "min_score": "10", "flag": "unscored"}, None),
    "generation": ("/view/solution", {"kind": "generation", "id": "g-alpha-c1"}, None),
    "human-solution": ("/view/solution", {"kind": "human_solution", "id": "hs-1"}, None),
    "compare": ("/view/compare", {"corpus": "vcase", "task": "c1", "a": "g-alpha-c1", "b": "hs-1"}, None),
    "validation": ("/view/validation", {}, "validation.html"),
    "errors": ("/view/errors", {}, "errors.html"),
    "not-found": ("/view/solution", {"kind": "generation", "id": "nope"}, None),
}
GERMAN = {de for de, en in EN.items() if de != en}  # a German string whose English differs
ENGLISH = {en for de, en in EN.items() if de != en and en not in EN}  # ... and those English strings
VOID = {"area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
_SPLIT = re.compile(r"\s*(?::|·|;|\s–\s|\|)\s*")


class Texts(HTMLParser):
    """The text a reader meets: text nodes (SVG ``<text>``, ``<title>``, ``<desc>`` too) and the attributes a
    screen reader or a tooltip reads; each also cut at the separators the pages join parts with. An element
    marked as another language (``lang="en"`` around validate-judge's own English words) is left out."""

    ATTRS = ("title", "aria-label", "placeholder", "alt")

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.found: set[str] = set()
        self._skip = 0
        self._other: list[str] = []  # the open tags from one marked as another language

    def _add(self, text: str) -> None:
        text = " ".join(text.split())
        if text:
            self.found.add(text)
            self.found.update(p for p in _SPLIT.split(text) if p)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if self._other or (tag != "html" and a.get("lang") not in (None, self.lang)):
            if tag not in VOID:
                self._other.append(tag)
            return
        if tag in ("script", "style", "code"):  # code: the store's URL, config hashes
            self._skip += 1
        for k, v in attrs:
            if k in self.ATTRS and v:
                self._add(v)

    def handle_endtag(self, tag: str) -> None:
        if self._other:
            if self._other[-1] == tag:
                self._other.pop()
            return
        if tag in ("script", "style", "code"):
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and not self._other:
            self._add(data)


def _wrong(lang: str, html: str) -> list[str]:
    parser = Texts(lang)
    parser.feed(html)
    return sorted(parser.found & (GERMAN if lang == "en" else ENGLISH))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ViewerWorld]:
    w = build(tmp_path_factory.mktemp("i18n"))
    from viewer_helpers import _judgement

    w.store.save_judgement(_judgement("human_solution", "hs-1", "judge-y", 0, 0.4))  # a second judge's scatter
    yield w
    w.store.close()


@pytest.fixture(scope="module")
def client(world: ViewerWorld) -> Iterator[TestClient]:
    with TestClient(create_viewer_app(world.store, Principal.local())) as c:
        yield c


@pytest.fixture(scope="module")
def bundle(world: ViewerWorld, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("i18n-bundle") / "site"
    write_bundle(world.store, out)
    return out


def test_the_tables_are_read_both_ways() -> None:
    assert "Gutachter*innen (Mittel)" in GERMAN and "Annotators (mean)" in ENGLISH  # the scatter's axis
    assert "Rangliste" in GERMAN and "Leaderboard" in ENGLISH and "Judge" not in GERMAN | ENGLISH


@pytest.mark.parametrize("lang", ["de", "en", "de"])  # de again: after en was served (and cached)
@pytest.mark.parametrize("page", sorted(PAGES))
def test_a_served_page_shows_no_string_of_the_other_language(client: TestClient, page: str, lang: str) -> None:
    path, params, _ = PAGES[page]
    resp = client.get(path, params={**params, "lang": lang})
    assert resp.status_code == (404 if page == "not-found" else 200)
    assert f'<html lang="{lang}">' in resp.text
    assert _wrong(lang, resp.text) == []


@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("page", sorted(p for p, (_, _, f) in PAGES.items() if f))
def test_a_bundle_page_shows_no_string_of_the_other_language(bundle: Path, page: str, lang: str) -> None:
    name = PAGES[page][2]
    assert name is not None
    html = (bundle / lang / name).read_text(encoding="utf-8")
    assert _wrong(lang, html) == []


def test_the_scatter_axis_is_in_the_pages_language(client: TestClient) -> None:
    de = client.get("/view/validation").text
    en = client.get("/view/validation", params={"lang": "en"}).text
    assert de.count("Gutachter*innen (Mittel)") >= 2 and "Annotators (mean)" not in de
    assert en.count("Annotators (mean)") >= 2 and "Gutachter*innen" not in en
