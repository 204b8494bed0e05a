"""The viewer shows a Falllösung as rendered Markdown (the study platform's safe renderer, benger.web._markdown)
with the Gutachten analyser's marks in place (benger.web.viewer._marks), and excerpts without Markdown syntax.

Before: the text was shown as it stands (``# Gutachten``, ``**…**``, ``---``) in a pre-wrapped box.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from test_markdown import ATTRS, PIECES, TAGS
from viewer_helpers import ViewerWorld, build

from benger.web.access import Principal
from benger.web.viewer import create_viewer_app
from benger.web.viewer._marks import marked, nest_headings, plain

HOSTILE = """# Gutachten

## A. Anspruch des K gegen V aus § 433 Abs. 1 S. 1 BGB

**K** könnte gegen V einen Anspruch auf Übereignung aus § 433 Abs. 1 S. 1 BGB haben.<script>alert(1)</script>

<img src=x onerror=alert(1)>

---

- Dazu müsste ein *Kaufvertrag* vorliegen, [klick](javascript:alert(1)).

## B. Ergebnis

K hat gegen V einen Anspruch aus § 433 I 1 BGB."""


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parsed(html: str) -> _Collect:
    parser = _Collect()
    parser.feed(html)
    return parser


@pytest.fixture(scope="module")
def vw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ViewerWorld]:
    world = build(tmp_path_factory.mktemp("viewer-md"))
    g = next(g for g in world.store.generations(corpus="vcase") if g.generation_id == "g-alpha-c2")
    world.store.save_generation(g.model_copy(update={"generation_id": "g-hostile", "text": HOSTILE, "run_index": 1}))
    yield world
    world.store.close()


@pytest.fixture(scope="module")
def solution_text(vw: ViewerWorld) -> str:
    with TestClient(create_viewer_app(vw.store, Principal.local())) as c:
        page = c.get("/view/solution", params={"kind": "generation", "id": "g-hostile"})
    assert page.status_code == 200
    found = re.search(r'<div class="text falltext" id="solution-text">(.*?)</div>\n</div>', page.text, re.S)
    assert found is not None
    return found.group(1)


def test_the_solution_is_rendered_markdown_below_the_pages_headings(solution_text: str) -> None:
    html = solution_text
    assert re.search(r"<h3><span id=\"h-0\"></span><span class=\"g-heading\"[^>]*>Gutachten</span></h3>", html)
    assert "<h4>" in html and "<h1>" not in html and "<h2>" not in html  # below the page's h1 and h2
    assert re.search(r"<strong><span [^>]*>K</span></strong>", html) and "<hr />" in html and "<li>" in html
    assert re.search(r"<em><span [^>]*>Kaufvertrag</span></em>", html)
    shown = "".join(_parsed(html).text)
    for syntax in ("# ", "**", "---", "- Dazu", "*Kauf"):
        assert syntax not in shown, syntax


def test_the_marks_stay_on_the_rendered_text(solution_text: str) -> None:
    html = solution_text
    assert re.search(r'<span class="g-norm[^"]*" title="[^"]*§ 433 Abs. 1 S. 1 BGB">§ 433 Abs. 1 S. 1 BGB</span>', html)
    assert re.search(r'<span class="g-heading" title="B. \(upper\)">B. Ergebnis</span>', html)
    assert 'class="g-obersatz' in html
    # every Gliederung point's anchor is in the rendered text, once; the outline names it without its "#"
    outline = marked(HOSTILE).outline
    for i in range(len(outline)):
        assert html.count(f'id="h-{i}"') == 1
    assert [(o.marker, o.title) for o in outline][:2] == [
        ("", "Gutachten"),
        ("A.", "Anspruch des K gegen V aus § 433 Abs. 1 S. 1 BGB"),
    ]


def test_no_raw_html_of_the_text_passes(solution_text: str) -> None:
    html = solution_text
    assert "<script" not in html and "<img" not in html and "href" not in html  # the javascript: link is text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    for tag, attrs in _parsed(html).tags:
        assert tag in TAGS, tag
        assert set(attrs) <= ATTRS | {"id"}, attrs


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([*PIECES, "§ 433 Abs. 1 BGB", "\nA. ", "\n## I. "]) | st.text(max_size=20), max_size=9))
def test_a_marked_text_holds_only_safe_tags(pieces: list[str]) -> None:
    text = "".join(pieces)
    found = marked(text)
    html = str(found.html())
    for tag, attrs in _parsed(html).tags:
        assert tag in TAGS, tag
        assert set(attrs) <= ATTRS | {"id"}, attrs
        assert "href" not in attrs, attrs
    for i in range(len(found.outline)):
        assert html.count(f'id="h-{i}"') == 1


@pytest.mark.parametrize(
    ("excerpt", "shown"),
    [
        ("**# Gutachten – Fall 4** \\--- **## A. Anspruch**", "Gutachten – Fall 4 A. Anspruch"),
        ("# Gutachten ## A. Kann K --- ### I. Vertrag", "Gutachten A. Kann K I. Vertrag"),
        ("* Punkt aus [§ 433](https://x.example) *kursiv* _auch_ `code`", "Punkt aus § 433 kursiv auch code"),
        ("Gutachter*innen prüfen 40,- € a - b snake_case", "Gutachter*innen prüfen 40,- € a - b snake_case"),
    ],
)
def test_an_excerpt_shows_no_markdown_syntax(excerpt: str, shown: str) -> None:
    assert plain(excerpt) == shown


def test_browse_shows_the_excerpt_without_syntax(vw: ViewerWorld) -> None:
    with TestClient(create_viewer_app(vw.store, Principal.local())) as c:
        page = c.get("/view/browse", params={"system": "alpha", "corpus": "vcase"}).text
    assert "Gutachten A. Anspruch des K" in page and "# Gutachten" not in page


@pytest.mark.parametrize(
    ("levels", "top", "expected"),
    [
        ((1, 2, 3), 3, (3, 4, 5)),  # a whole outline: below the page's h2
        ((3, 3, 4), 3, (3, 3, 4)),  # a text that starts at "###": its highest level is the top
        ((1, 3, 3, 2), 3, (3, 4, 4, 4)),  # "#" then "###": one level at a time
        ((2, 5, 6, 1), 4, (4, 5, 6, 4)),  # the first heading is not the text's highest
        ((1, 2, 3, 4, 5, 6), 3, (3, 4, 5, 6, 6, 6)),  # nothing deeper than h6
        ((), 3, ()),
    ],
)
def test_headings_nest_one_level_at_a_time(levels: tuple[int, ...], top: int, expected: tuple[int, ...]) -> None:
    html = "".join(f"<h{n}>T{i}</h{n}><p>x</p>" for i, n in enumerate(levels))
    assert nest_headings(html, top) == "".join(f"<h{n}>T{i}</h{n}><p>x</p>" for i, n in enumerate(expected))


@given(st.lists(st.integers(1, 6), max_size=12), st.integers(2, 6))
def test_nested_headings_never_skip_a_level(levels: list[int], top: int) -> None:
    html = "".join(f"<h{n}>t</h{n}>" for n in levels)
    out = [int(n) for n in re.findall(r"<h(\d)>", nest_headings(html, top))]
    assert len(out) == len(levels) and all(top <= n <= 6 for n in out)
    assert all(b <= a + 1 for a, b in zip([top - 1, *out], out, strict=False))
    assert re.findall(r"</h(\d)>", nest_headings(html, top)) == [str(n) for n in out]  # each closes as it opened
