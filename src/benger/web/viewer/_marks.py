"""A Falllösung as HTML with the Gutachten analyser's findings marked in place (docs/gutachten.md).

Headings (Gliederung points) get an anchor and the class ``g-heading``, Obersatz sentences ``g-obersatz``,
norm citations ``g-norm`` (their standard forms in the title), citation problems ``g-problem``. The text is
split at every finding's start and end (character offsets from :func:`benger.gutachten.analyse`), each piece is
HTML-escaped and wrapped in one ``<span>`` carrying the classes of the findings that cover it, so overlapping
findings (a citation inside an Obersatz) never produce crossed tags.
"""

from __future__ import annotations

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
    html: Markup
    outline: list[Outline]
    analysis: Analysis | None


def marked(text: str, prefix: str = "h") -> MarkedText:
    """``text`` as marked HTML (a ``<div class="falltext">`` body) and its outline; an empty text gives empty."""
    if not text.strip():
        return MarkedText(Markup(""), [], None)
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
    out: list[str] = []
    for lo, hi in pairwise(cuts):
        if lo in starts:
            out.append(f'<span id="{prefix}-{starts[lo]}"></span>')
        covering = [s for s in spans if s[0] <= lo and hi <= s[1]]
        piece = str(escape(text[lo:hi]))
        if not covering:
            out.append(piece)
            continue
        classes = " ".join(sorted({s[2] for s in covering}))
        titles = "; ".join(dict.fromkeys(s[3] for s in covering if s[3]))
        out.append(f'<span class="{classes}" title="{escape(titles)}">{piece}</span>')
    outline = [Outline(f"{prefix}-{i}", h.marker, h.title[:120], h.depth) for i, h in enumerate(a.structure.headings)]
    return MarkedText(Markup("".join(out)), outline, a)
