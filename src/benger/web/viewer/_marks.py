"""A Falllösung as HTML with the Gutachten analyser's findings marked in place (docs/gutachten.md).

Headings (Gliederung points) get an anchor and the class ``g-heading``, Obersatz sentences ``g-obersatz``,
norm citations ``g-norm`` (their standard forms in the title), citation problems ``g-problem``. The text is
split at every finding's start and end (character offsets from :func:`benger.gutachten.analyse`), each piece is
HTML-escaped and wrapped in one ``<span>`` carrying the classes of the findings that cover it, so overlapping
findings (a citation inside an Obersatz) never produce crossed tags.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise

from markupsafe import Markup, escape

from benger.gutachten import analyse
from benger.gutachten._models import Analysis


@dataclass
class Outline:
    """One Gliederung point for the outline beside the text."""

    anchor: str
    marker: str
    title: str
    depth: int


@dataclass
class MarkedText:
    """The pieces of a marked text (HTML-escaped, each with its classes and the titles of its findings) and its
    outline; :meth:`html` joins them in a page's language (the model is shared by both languages)."""

    pieces: list[tuple[str, str, tuple[str, ...], str]]  # anchor id before it, classes, titles, escaped text
    outline: list[Outline]
    analysis: Analysis | None

    def html(self, translate: Callable[[str], str] = str) -> Markup:
        out: list[str] = []
        for anchor, classes, titles, piece in self.pieces:
            if anchor:
                out.append(f'<span id="{anchor}"></span>')
            if not classes:
                out.append(piece)
                continue
            title = "; ".join(translate(t) if t in _WORDS else t for t in titles)
            out.append(f'<span class="{classes}" title="{escape(title)}">{piece}</span>')
        return Markup("".join(out))


#: The titles that are the viewer's own words (translated); the others are the analyser's findings.
_WORDS = ("Obersatz",)


def marked(text: str, prefix: str = "h") -> MarkedText:
    """``text`` marked (a ``<div class="falltext">`` body) and its outline; an empty text gives empty."""
    if not text.strip():
        return MarkedText([], [], None)
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
    pieces: list[tuple[str, str, tuple[str, ...], str]] = []
    for lo, hi in pairwise(cuts):
        anchor = f"{prefix}-{starts[lo]}" if lo in starts else ""
        covering = [s for s in spans if s[0] <= lo and hi <= s[1]]
        classes = " ".join(sorted({s[2] for s in covering}))
        titles = tuple(dict.fromkeys(s[3] for s in covering if s[3]))
        pieces.append((anchor, classes, titles, str(escape(text[lo:hi]))))
    outline = [Outline(f"{prefix}-{i}", h.marker, h.title[:120], h.depth) for i, h in enumerate(a.structure.headings)]
    return MarkedText(pieces, outline, a)
