"""Browse's query parameters (benger.web.viewer._browse_query): a value that cannot be a filter answers 400 with
the normal page and an alert naming the parameter and what it accepts (German or English), an unknown name lists
the known ones, a page past the last shows the last with a notice; random query strings never answer 500, and
valid values filter as the library does (hit counts on the imported release); HEAD answers like GET.

The small store is viewer_helpers.build: corpora vcase, vitem; systems alpha, beta (and human); judges judge-x,
judge-y; 9 visible solutions (one page).
"""

from __future__ import annotations

import html
import http.client
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from viewer_helpers import ViewerWorld

from benger.store import Store, open_store
from benger.web.access import Access, Principal
from benger.web.viewer import create_viewer_app
from benger.web.viewer._browse_query import PARAMETERS, parse_query
from benger.web.viewer._reader import FLAGS, BrowseFilter, ResultsReader
from browser_helpers import axe_violations, serve

KNOWN_SYSTEMS = "alpha, beta, human"


@pytest.fixture(scope="module")
def client(vw: ViewerWorld) -> Iterator[TestClient]:
    with TestClient(create_viewer_app(vw.store, Principal.local())) as c:
        yield c


def _alerts(text: str) -> list[str]:
    """The texts of the page's role=alert elements (tags dropped, entities decoded, spaces collapsed)."""
    found = re.findall(r'<(div|p)[^>]*role="alert"[^>]*>(.*?)</\1>', text, re.S)
    return [" ".join(html.unescape(re.sub(r"<[^>]+>", " ", inner)).split()) for _, inner in found]


def _count(text: str) -> tuple[int, int, int] | None:
    """(hits, page, pages) of the page's count line, None when it has none."""
    m = re.search(r'<p id="count" role="status">(\d+) \w+ · \w+ (\d+) \w+ (\d+)</p>', text)
    return (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m else None


# (query, lang, status, what the alert says); every 400 names the parameter and what it accepts
CASES: list[tuple[str, str, int, list[str]]] = [
    ("flag=bogus", "de", 400, ["ungültiger Wert „bogus“ für flag; erlaubt: " + ", ".join(FLAGS)]),
    ("flag=bogus", "en", 400, ["invalid value 'bogus' for flag; accepted: " + ", ".join(FLAGS)]),
    (
        "min_score=abc",
        "de",
        400,
        ["ungültiger Wert „abc“ für min_score; erlaubt: eine endliche Zahl, z. B. 50 oder 72,5"],
    ),
    ("max_score=abc", "en", 400, ["invalid value 'abc' for max_score; accepted: a finite number, e.g. 50 or 72.5"]),
    ("min_score=nan", "en", 400, ["invalid value 'nan' for min_score"]),
    ("max_score=inf", "en", 400, ["invalid value 'inf' for max_score"]),
    ("min_score=-Infinity", "en", 400, ["invalid value '-Infinity' for min_score"]),
    ("min_score=1e999", "en", 400, ["invalid value '1e999' for min_score"]),  # overflows to inf
    ("min_score=1_0", "en", 400, ["invalid value '1_0' for min_score"]),
    ("page=abc", "de", 400, ["ungültiger Wert „abc“ für page; erlaubt: eine ganze Zahl ab 1"]),
    ("page=abc", "en", 400, ["invalid value 'abc' for page; accepted: a whole number from 1"]),
    ("page=-1", "en", 400, ["invalid value '-1' for page"]),
    ("page=0", "en", 400, ["invalid value '0' for page"]),
    ("page=1.5", "en", 400, ["invalid value '1.5' for page"]),
    ("page=%D9%A3", "en", 400, ["invalid value '٣' for page"]),  # an Arabic-Indic 3: int() would take it
    ("system=nosuch", "en", 400, [f"unknown system 'nosuch' (parameter system); known: {KNOWN_SYSTEMS}"]),
    ("system=nosuch", "de", 400, [f"unbekanntes System „nosuch“ (Parameter system); bekannt: {KNOWN_SYSTEMS}"]),
    ("judge=nosuch", "en", 400, ["unknown judge 'nosuch' (parameter judge); known: judge-x, judge-y"]),
    ("corpus=nosuch", "en", 400, ["unknown corpus 'nosuch' (parameter corpus); known: vcase, vitem"]),
    ("area=Steuerrecht", "de", 400, ["unbekannter Bereich „Steuerrecht“ (Parameter area); bekannt: "]),
    ("minscore=50", "en", 400, ["unknown parameter 'minscore'; accepted: " + ", ".join((*PARAMETERS, "lang"))]),
    ("flag=truncated&flag=refused", "en", 400, ["parameter flag is given twice"]),
    ("q=a%00b", "en", 400, ["the value of q has a control character"]),
    ("flag=bogus&page=0", "en", 400, ["invalid value '0' for page", "invalid value 'bogus' for flag"]),
    # good values: no alert
    ("", "de", 200, []),
    ("flag=&min_score=&page=&system=", "de", 200, []),  # the form's empty fields: no filter
    ("min_score=72,5", "de", 200, []),
    ("page=1", "en", 200, []),
    # past the last page: the last one, with a notice
    ("page=2", "de", 200, ["Seite 2 gibt es nicht; gezeigt wird die letzte Seite (1)"]),
    ("page=" + "9" * 5000, "en", 200, ["there is no page 999"]),  # int() refuses over 4300 digits: no 500
    ("system=human&page=7", "en", 200, ["there is no page 7; the last page (1) is shown"]),
]


@pytest.mark.parametrize(("query", "lang", "status", "says"), CASES, ids=[f"{q[:40]}-{g}" for q, g, *_ in CASES])
def test_bad_values_answer_with_their_message(
    client: TestClient, query: str, lang: str, status: int, says: list[str]
) -> None:
    resp = client.get(f"/view/browse?{query}&lang={lang}")
    assert resp.status_code == status, resp.text[-2000:]
    alerts = _alerts(resp.text)
    if not says:
        assert alerts == []
        return
    assert len(alerts) == 1, alerts  # one alert region, every problem in it
    for text in says:
        assert text in alerts[0], (text, alerts[0])
    assert 'role="search"' in resp.text  # the normal page: the filter form is there
    if status == 400:  # no list, no count of a filter that was not applied
        assert _count(resp.text) is None and "data-id=" not in resp.text
    else:  # the last page is shown
        count = _count(resp.text)
        assert count is not None and count[1] == count[2], count


def test_a_refused_page_keeps_the_valid_filters_in_the_form(client: TestClient) -> None:
    text = client.get("/view/browse", params={"system": "beta", "flag": "bogus"}).text
    assert '<option value="beta" selected>' in text and "selected>truncated" not in text


def test_past_the_last_page_shows_the_last_rows(client: TestClient) -> None:
    last = client.get("/view/browse", params={"page": "9", "corpus": "vcase"})
    first = client.get("/view/browse", params={"corpus": "vcase"})
    assert last.status_code == 200 and _count(last.text) == (5, 1, 1)
    assert re.findall(r'data-id="([^"]+)"', last.text) == re.findall(r'data-id="([^"]+)"', first.text)


def test_the_known_names_are_the_principals_options() -> None:
    """An organisation member's options hold its corpora only, so another organisation's stay unknown."""
    _, problems = parse_query([("corpus", "vitem")], {"corpus": ["vcase"]})
    assert [p.en for p in problems] == ["unknown corpus 'vitem' (parameter corpus); known: vcase"]


PAGES = ["/view/", "/view/browse", "/view/browse?flag=bogus", "/view/browse?page=3", "/view/validation", "/view/errors"]


@pytest.mark.parametrize("path", PAGES)
def test_head_answers_like_get(client: TestClient, path: str) -> None:
    got, head = client.get(path), client.head(path)
    assert head.status_code == got.status_code
    assert head.headers["content-type"] == got.headers["content-type"]
    assert head.headers["content-length"] == got.headers["content-length"]


def test_head_over_http_has_no_body(vw: ViewerWorld) -> None:
    """``curl -I``: the real server answers HEAD with GET's headers and no body."""
    with serve(create_viewer_app(vw.store, Principal.local())) as base:
        for path, status in (("/view/", 200), ("/view/browse?page=abc", 400), ("/", 303)):
            conn = http.client.HTTPConnection(urlsplit(base).netloc, timeout=30)
            conn.request("HEAD", path)
            resp = conn.getresponse()
            assert (resp.status, resp.read()) == (status, b""), path
            conn.close()


@pytest.mark.browser
@pytest.mark.slow
def test_the_refused_page_is_accessible(browser: object, vw: ViewerWorld) -> None:
    """In Chromium: the alert is an ARIA alert with the message, the form is usable, axe-core finds nothing."""
    with serve(create_viewer_app(vw.store, Principal.local())) as base:
        page = browser.new_context().new_page()  # type: ignore[attr-defined]
        page.goto(f"{base}/view/browse?flag=bogus&system=nosuch&lang=en")
        alert = page.get_by_role("alert").inner_text()
        assert "invalid value 'bogus' for flag" in alert and "unknown system 'nosuch'" in alert
        assert not axe_violations(page)
        page.select_option("select[name=system]", "beta")
        page.click("form.filters button[type=submit]")
        page.wait_for_load_state()
        assert page.inner_text("#count").startswith("4 results") and page.get_by_role("alert").count() == 0


# -- random query strings -------------------------------------------------------------------------------------
_NAMES = st.sampled_from([*PARAMETERS, "lang", "x", ""]) | st.text(max_size=8)
_VALUES = st.sampled_from(["", "0", "-1", "1", "2", "nan", "inf", "1e999", "50,5", "alpha", "human", "truncated"])
_QUERIES = st.lists(st.tuples(_NAMES, _VALUES | st.text(max_size=12)), max_size=6).map(urlencode) | st.text(
    alphabet=st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="#"), max_size=40
)


@settings(max_examples=120, deadline=None)
@given(query=_QUERIES)
def test_random_query_strings_never_answer_500(client: TestClient, query: str) -> None:
    resp = client.get("/view/browse?" + query)
    assert resp.status_code in (200, 400), (query, resp.status_code)
    assert (_count(resp.text) is None) == (resp.status_code == 400)


# -- valid values filter as the library does, on the imported release ----------------------------------------
@pytest.fixture(scope="module")
def release(release_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, TestClient]]:
    store = open_store(tmp_path_factory.mktemp("params-release") / "release.db")
    store.import_release(release_dir)
    with TestClient(create_viewer_app(store, Principal.local())) as c:
        yield store, c
    store.close()


@st.composite
def _valid(draw: st.DrawFn, options: dict[str, list[str]]) -> dict[str, str]:
    values = {name: draw(st.sampled_from(["", *options[name]])) for name in ("corpus", "system", "judge", "area")}
    for name in ("min_score", "max_score"):
        score = draw(st.none() | st.integers(0, 200).map(lambda n: n / 2))
        values[name] = "" if score is None else draw(st.sampled_from([f"{score:g}", f"{score:g}".replace(".", ",")]))
    values["flag"] = draw(st.sampled_from(["", *FLAGS]))
    values["q"] = draw(st.sampled_from(["", "BGB", " Anspruch ", "§ 433", "zzzqqq"]))
    values["page"] = str(draw(st.integers(1, 6)))
    return {k: v for k, v in values.items() if v or draw(st.booleans())}  # an empty field, sent or not


def test_valid_values_filter_as_the_library_does(release: tuple[Store, TestClient]) -> None:
    store, client = release
    reader = ResultsReader(Access(store, Principal.local()))
    options = reader.options()
    assert len(options["system"]) > 5 and options["judge"]  # the release's systems and judges

    @settings(max_examples=60, deadline=None)
    @given(values=_valid(options))
    def check(values: dict[str, str]) -> None:
        resp = client.get("/view/browse", params=values)
        assert resp.status_code == 200, (values, _alerts(resp.text))
        f = BrowseFilter(
            **{k: v for k, v in values.items() if v.strip() and k not in ("min_score", "max_score", "page")},
            min_score=float(values["min_score"].replace(",", ".")) if values.get("min_score") else None,
            max_score=float(values["max_score"].replace(",", ".")) if values.get("max_score") else None,
            page=int(values.get("page") or 1),
        )
        if f.q:
            f.q = f.q.strip()
        asked = f.page
        expected = reader.browse(f)
        assert _count(resp.text) == (expected.total, expected.page, expected.pages), values
        assert (_alerts(resp.text) != []) == (asked > expected.page), values

    check()
    assert _count(client.get("/view/browse", params={"system": "human"}).text) == (
        reader.browse(BrowseFilter(system="human")).total,
        1,
        1,
    )
