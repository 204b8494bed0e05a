"""Solutions are shown to graders as Markdown, rendered safely: only the renderer's own tags and attributes."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.web._markdown import render_markdown

TAGS = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "ul", "ol", "li", "span", "code", "pre",
    "blockquote", "hr", "br", "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
ATTRS = {"href", "rel", "start", "class", "style", "title"}
PIECES = [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[a](javascript:alert(1))",
    "[b](JaVaScRiPt:alert(1))", "[c](data:text/html;base64,PHNjcmlwdD4=)", "[d](vbscript:x)",
    "<a href='javascript:x'>e</a>", '"><svg onload=alert(1)>', "![i](javascript:alert(1))",
    "# Titel", "**fett**", "- Punkt", "1. Eins", "> Zitat", "`code`", "```\\n<b>x</b>\\n```", "| a |\\n|---|\\n| 1 |",
    "[ok](https://example.org)", "&lt;", "\\n\\n", " ", "§ 433 II BGB",
]  # fmt: skip


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, {k: v or "" for k, v in attrs}))


def test_markdown_renders_structure_and_escapes_html() -> None:
    html = str(render_markdown("# Lösung\n\n**Ergebnis:** A hat einen Anspruch.\n\n<b>roh</b>"))
    assert "<h1>Lösung</h1>" in html and "<strong>Ergebnis:</strong>" in html
    assert "&lt;b&gt;roh&lt;/b&gt;" in html


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=20), max_size=12).map("".join))
def test_rendered_markdown_holds_only_safe_tags_and_attributes(text: str) -> None:
    parser = _Collect()
    parser.feed(str(render_markdown(text)))
    for tag, attrs in parser.tags:
        assert tag in TAGS, tag
        assert set(attrs) <= ATTRS, attrs
        href = attrs.get("href", "").strip().lower()
        assert not href.startswith(("javascript:", "vbscript:", "data:", "file:")), href
        assert "style" not in attrs or attrs["style"].startswith("text-align:"), attrs


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "[Quelle](https://beck-online.example/x)",
            '<span class="solution-link">Quelle</span> [https://beck-online.example/x]',
        ),
        ("<https://dejure.example/433>", '<span class="solution-link">https://dejure.example/433</span>'),
    ],
)
def test_links_in_a_solution_are_text_not_clickable(text: str, shown: str) -> None:
    """Issue 25, observation 9: https: links in a solution were clickable for blind graders."""
    html = str(render_markdown(text))
    assert "<a" not in html and shown in html
