"""Safe Markdown for solutions shown to graders: markdown-it-py with raw HTML off.

CommonMark without the ``html`` option escapes every tag in the text, and markdown-it's link validation
drops ``javascript:``, ``vbscript:``, ``file:`` and non-image ``data:`` URLs, so the output contains only
the tags the renderer itself emits (paragraphs, headings, lists, emphasis, code, block quotes, tables,
and links shown as text: a link becomes ``<span class="solution-link">text</span>`` followed by its target in
brackets, never a clickable ``<a>`` — a grader who followed a link in a blind solution could reveal
themselves to, or learn something from, whoever wrote it (issue 25). Images are not rendered (the CSP allows
none from elsewhere anyway).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup, escape


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.disable("image")

    def link_open(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        env.setdefault("links", []).append("" if tokens[idx].markup == "autolink" else tokens[idx].attrGet("href"))
        return '<span class="solution-link">'

    def link_close(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        href = env["links"].pop() if env.get("links") else ""
        return "</span>" + (f" [{escape(href)}]" if href else "")

    md.add_render_rule("link_open", link_open)
    md.add_render_rule("link_close", link_close)
    return md


def render_markdown(text: str) -> Markup:
    """HTML for ``text`` read as Markdown; raw HTML in the text comes out escaped."""
    return Markup(_parser().render(text, {}))
