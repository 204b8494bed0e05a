"""Safe Markdown for solutions shown to graders: markdown-it-py with raw HTML off.

CommonMark without the ``html`` option escapes every tag in the text, and markdown-it's link validation
drops ``javascript:``, ``vbscript:``, ``file:`` and non-image ``data:`` URLs, so the output contains only
the tags the renderer itself emits (paragraphs, headings, lists, emphasis, code, block quotes, tables,
and links shown as text: a link becomes ``<span class="solution-link">text</span>`` followed by its target in
brackets, never a clickable ``<a>`` — a grader who followed a link in a blind solution could reveal
themselves to, or learn something from, whoever wrote it (issue 25). Images are not rendered (the CSP allows
none from elsewhere anyway).

The results viewer renders a Falllösung with the same parser and marks the Gutachten analyser's findings in it:
``render_markdown(text, wrap)`` hands each piece of visible text that stands verbatim in ``text`` to ``wrap``
with its offsets, which returns that piece's (escaped) HTML; without ``wrap`` the output is the graders'.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token
from markupsafe import Markup, escape

#: the HTML of the visible text ``text[start:end]`` (it must escape it)
Wrap = Callable[[int, int], str]


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

    def text(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        where = tokens[idx].meta.get("source")
        return env["wrap"](*where) if where and env.get("wrap") else escapeHtml(tokens[idx].content)

    md.add_render_rule("link_open", link_open)
    md.add_render_rule("link_close", link_close)
    md.add_render_rule("text", text)
    return md


def normalise(text: str) -> str:
    """``text`` as the parser reads it (its line ends ``\\n``, NUL replaced): the text whose offsets ``wrap`` gets."""
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "\ufffd")


def _locate(text: str, tokens: list[Token]) -> None:
    """Mark each text token with its offsets in ``text`` (``meta["source"]``) where it stands there verbatim: searched
    in document order within its block's lines (a text with escapes or entities is left unmarked)."""
    starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def line(n: int) -> int:
        return starts[n] if n < len(starts) else len(text)

    cursor = 0
    for block in tokens:
        if block.type != "inline" or not block.children:
            continue
        end = len(text)
        if block.map:
            cursor, end = max(cursor, line(block.map[0])), line(block.map[1])
        for leaf in block.children:
            if leaf.type not in ("text", "code_inline") or not leaf.content:
                continue
            at = text.find(leaf.content, cursor, end)
            if at < 0:
                continue
            if leaf.type == "text":
                leaf.meta["source"] = (at, at + len(leaf.content))
            cursor = at + len(leaf.content)


def render_markdown(text: str, wrap: Wrap | None = None) -> Markup:
    """HTML for ``text`` read as Markdown; raw HTML in the text comes out escaped. ``wrap``: the HTML of each piece of
    visible text found verbatim in ``text`` (``normalise`` it first), called in document order; the other pieces
    (and everything when None) are escaped as they stand."""
    md = _parser()
    env: dict[str, Any] = {}
    tokens = md.parse(text, env)
    if wrap is not None:
        _locate(text, tokens)
        env["wrap"] = wrap
    return Markup(md.renderer.render(tokens, md.options, env))
