"""Safe Markdown for solutions shown to graders: markdown-it-py with raw HTML off.

CommonMark without the ``html`` option escapes every tag in the text, and markdown-it's link validation
drops ``javascript:``, ``vbscript:``, ``file:`` and non-image ``data:`` URLs, so the output contains only
the tags the renderer itself emits (paragraphs, headings, lists, emphasis, code, block quotes, tables,
links). Links get ``rel="noopener noreferrer nofollow"``; images are not rendered (the CSP allows none
from elsewhere anyway).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")
    md.disable("image")

    def link_open(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        tokens[idx].attrSet("rel", "noopener noreferrer nofollow")
        return str(renderer.renderToken(tokens, idx, options, env))

    md.add_render_rule("link_open", link_open)
    return md


def render_markdown(text: str) -> Markup:
    """HTML for ``text`` read as Markdown; raw HTML in the text comes out escaped."""
    return Markup(_parser().render(text))
