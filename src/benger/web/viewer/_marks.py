"""A Falllösung as HTML, its Markdown rendered, with the Gutachten analyser's findings marked in place
(docs/gutachten.md).

Headings (Gliederung points) get an anchor and the class ``g-heading``, Obersatz sentences ``g-obersatz``,
norm citations ``g-norm`` (their standard forms in the title), citation problems ``g-problem``. The text is
split at every finding's start and end (character offsets from :func:`benger.gutachten.analyse`); the Markdown is
rendered by the study platform's safe renderer (:func:`benger.web._markdown.render_markdown`: raw HTML escaped),
which hands every piece of visible text back with its offsets, and each part of it is HTML-escaped and wrapped in
one ``<span>`` carrying the classes of the findings that cover it, so overlapping findings (a citation inside an
Obersatz) and findings across Markdown elements (an Obersatz with a bold word) never produce crossed tags.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from markupsafe import Markup, escape

from benger.gutachten import analyse
from benger.gutachten._models import Analysis
from benger.web._markdown import normalise, render_markdown


@dataclass
class Outline:
    """One Gliederung point for the outline beside the text."""

    anchor: str
    marker: str
    title: str
    depth: int


@dataclass
class MarkedText:
    """A text and its pieces (offsets, the anchor id at its start, its classes and the titles of its findings) and
    its outline; :meth:`html` renders it in a page's language (the model is shared by both languages)."""

    text: str
    pieces: list[tuple[int, int, str, str, tuple[str, ...]]]  # start, end, anchor id at start, classes, titles
    outline: list[Outline]
    analysis: Analysis | None

    def html(self, translate: Callable[[str], str] = str, top: int = 3) -> Markup:
        """The rendered Markdown with the findings marked; an anchor the rendering hides (in a heading's ``#``)
        goes before the next visible text. ``top``: the level of the text's highest headings, one below the
        page heading the text stands under (:func:`nest_headings`)."""
        pieces, starts = self.pieces, [p[0] for p in self.pieces]
        anchors = [(p[0], p[2]) for p in pieces if p[2]]
        shown = 0

        def wrap(start: int, end: int) -> str:
            nonlocal shown
            out: list[str] = []
            i = max(bisect_right(starts, start) - 1, 0)
            while i < len(pieces) and pieces[i][0] < end:
                lo, hi, _, classes, titles = pieces[i]
                i += 1
                a, b = max(lo, start), min(hi, end)
                if a >= b:
                    continue
                while shown < len(anchors) and anchors[shown][0] < b:
                    out.append(f'<span id="{anchors[shown][1]}"></span>')
                    shown += 1
                piece = str(escape(self.text[a:b]))
                if not classes:
                    out.append(piece)
                    continue
                title = "; ".join(translate(t) if t in _WORDS else t for t in titles)
                out.append(f'<span class="{classes}" title="{escape(title)}">{piece}</span>')
            return "".join(out)

        body = nest_headings(str(render_markdown(self.text, wrap)) if self.text else "", top)
        return Markup(body + "".join(f'<span id="{anchor}"></span>' for _, anchor in anchors[shown:]))


_HEADING = re.compile(r"<(/?)h([1-6])>")


def nest_headings(html: str, top: int) -> str:
    """``html`` (the renderer's own ``<hN>`` tags) with its headings under the page's, one level at a time
    (WCAG 1.3.1, axe ``heading-order``: a solution's "### A." after the page's h2 was an h5): a heading is a level
    below the nearest heading before it of a higher Markdown level (``top`` when there is none), a sibling of one
    of its own Markdown level; never deeper than h6. The text's own skips ("#" then "###") close up the same way."""
    outer: list[tuple[int, int]] = []  # (Markdown level, level shown) of the headings the next one may stand under
    opened = top

    def level(m: re.Match[str]) -> str:
        nonlocal opened
        if not m[1]:
            depth = int(m[2])
            while outer and outer[-1][0] > depth:
                outer.pop()
            sibling = outer.pop() if outer and outer[-1][0] == depth else None
            opened = sibling[1] if sibling else min(outer[-1][1] + 1, 6) if outer else top
            outer.append((depth, opened))
        return f"<{m[1]}h{opened}>"

    return _HEADING.sub(level, html)


#: Markdown syntax in a one-line excerpt (its line breaks gone): link targets, heading marks, rules, emphasis and
#: code marks; a star inside a word ("Gutachter*innen") and a dash stay
_SYNTAX = (
    (re.compile(r"\\(?=[!-/:-@\[-`{-~])"), ""),  # a backslash escape's backslash
    (re.compile(r"!?\[([^\]]*)\]\([^)\s]*\)"), r"\1"),  # [text](target): the text
    # **, __, `, *em*, _em_
    (re.compile(r"\*{2,3}|_{2,3}|`+|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)|(?<=\S)_(?!\w)"), ""),
    (re.compile(r"(?:^|(?<=\s))(?:#{1,6}|(?:[-*_] ?){3,}|[*>])(?=\s|$)"), ""),  # ## , ---, * item, > quote
)


def plain(text: str | None) -> str:
    """``text`` (a solution's excerpt, a heading) on one line without its Markdown syntax."""
    out = str(text or "")
    for pattern, by in _SYNTAX:
        out = pattern.sub(by, out)
    return " ".join(out.split())


#: The titles that are the viewer's own words (translated); the others are the analyser's findings.
_WORDS = ("Obersatz",)


def marked(text: str, prefix: str = "h") -> MarkedText:
    """``text`` marked (a ``<div class="falltext">`` body) and its outline; an empty text gives empty."""
    if not text.strip():
        return MarkedText("", [], [], None)
    text = normalise(text)  # the offsets of the analyser and of the Markdown renderer are into the same text
    a = analyse(text)
    spans: list[tuple[int, int, str, str]] = []  # start, end, class, title
    for h in a.structure.headings:
        spans.append((h.start, h.end, "g-heading", f"{h.marker} ({h.kind})"))
    for s in a.sections:
        for hit in s.steps:
            if hit.step == "obersatz":
                spans.append((hit.sentence_start, hit.sentence_end, "g-obersatz", "Obersatz"))
    for c in a.citations:
        spans.append((c.start, c.end, "g-norm", "; ".join(n.standard for n in c.norms)))
    for p in a.citation_problems:
        spans.append((p.start, p.end, "g-problem", p.message))
    cuts = sorted({0, len(text), *(x for s in spans for x in s[:2] if 0 <= x <= len(text))})
    starts = {h.start: i for i, h in enumerate(a.structure.headings)}
    pieces: list[tuple[int, int, str, str, tuple[str, ...]]] = []
    for lo, hi in pairwise(cuts):
        anchor = f"{prefix}-{starts[lo]}" if lo in starts else ""
        covering = [s for s in spans if s[0] <= lo and hi <= s[1]]
        classes = " ".join(sorted({s[2] for s in covering}))
        titles = tuple(dict.fromkeys(s[3] for s in covering if s[3]))
        pieces.append((lo, hi, anchor, classes, titles))
    outline = [
        Outline(f"{prefix}-{i}", plain(h.marker), plain(h.title)[:120], h.depth)
        for i, h in enumerate(a.structure.headings)
    ]
    return MarkedText(text, pieces, outline, a)
