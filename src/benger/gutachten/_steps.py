"""Gutachtenstil steps: sentences labelled Obersatz / Definition / Subsumtion / Ergebnis by marker rules.

Each sentence gets at most one label: the first step in labelling priority (obersatz, definition,
ergebnis, subsumtion; see ``data/markers.yaml``) with a marker in it. Marker matches that fall inside
a norm citation are ignored. A section is the text under one heading up to the next heading.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from benger.gutachten._models import Citation, Section, StepHit, Structure
from benger.gutachten._rules import GUTACHTEN_ORDER, Rules, default_rules

SENTENCE_END = re.compile(r"[.!?:](?=[\s\u00a0*_\"“”)]*(?:\s|$))|\n\s*\n|\n(?=\s*[#*\-]|\s*\S{1,5}[.)]\s)")
WORD = re.compile(r"\w+")
MIN_SENTENCES = 2


def _spans_inside(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    """Whether ``start..end`` lies inside one of ``spans`` (sorted by start, not overlapping)."""
    i = bisect_right(spans, (start, _FAR)) - 1
    return i >= 0 and spans[i][0] <= start and end <= spans[i][1]


_FAR = 1 << 62


def split_sentences(
    text: str, start: int, end: int, rules: Rules, protected: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Sentence spans of ``text[start:end]``: split after . ! ? : and at blank lines, not after an
    abbreviation ("Abs.", "vgl.") or a single letter/number ("S. 1", "1."), nor inside a protected span."""
    out: list[tuple[int, int]] = []
    begin = start
    for m in SENTENCE_END.finditer(text, start, end):
        cut = m.end()
        if m.group().startswith("."):
            word = re.search(r"([\w.]+)$", text[begin : m.start()])
            token = word.group(1) if word else ""
            if token.rstrip(".") in rules.abbreviations or len(token) <= 1 or token.isdigit():
                continue
        if _spans_inside(protected, m.start(), m.end()):
            continue
        if text[begin:cut].strip():
            out.append((begin, cut))
        begin = cut
    if text[begin:end].strip():
        out.append((begin, end))
    return out


class MarkerHits:
    """Every marker match of a text outside the protected spans, found once per marker (whole text).

    ``hits`` are (start, end, priority, marker index), sorted by start.
    """

    def __init__(self, text: str, rules: Rules, protected: Sequence[tuple[int, int]]) -> None:
        lowered = text.lower()
        fallback = len(lowered) != len(text)  # a character whose lower case is longer: use re.IGNORECASE
        self.rules = rules
        hits: list[tuple[int, int, int, int]] = []
        for index, marker in enumerate(rules.markers):
            regex, haystack = marker.regex, text if marker.case_sensitive else lowered
            if fallback and not marker.case_sensitive:
                regex, haystack = re.compile(regex.pattern, re.IGNORECASE), text
            for m in regex.finditer(haystack):
                start, end = m.start(), m.end()
                if marker.leading_boundary and not _word_boundary(haystack, start):
                    continue
                if _spans_inside(protected, start, end):
                    continue
                hits.append((start, end, marker.priority, index))
        hits.sort()
        self.hits = hits
        self._starts = [h[0] for h in hits]

    def label(self, text: str, start: int, end: int) -> StepHit | None:
        """The step of the sentence ``text[start:end]``: its highest-priority marker, leftmost first."""
        lo = bisect_left(self._starts, start)
        best: tuple[int, int, int, int] | None = None
        for hit in self.hits[lo : bisect_left(self._starts, end, lo)]:
            if hit[1] <= end and (best is None or hit[2] < best[2]):
                best = hit
        if best is None:
            return None
        marker = self.rules.markers[best[3]]
        return StepHit(
            step=marker.step,
            marker=text[best[0] : best[1]],
            start=best[0],
            end=best[1],
            sentence_start=start,
            sentence_end=end,
        )


def _word_boundary(text: str, pos: int) -> bool:
    before = pos > 0 and (text[pos - 1].isalnum() or text[pos - 1] == "_")
    after = pos < len(text) and (text[pos].isalnum() or text[pos] == "_")
    return before != after


def label_sentence(
    text: str, start: int, end: int, rules: Rules, protected: Sequence[tuple[int, int]]
) -> StepHit | None:
    """The step of one sentence and the marker that decided it, or None when no marker matches."""
    return MarkerHits(text[:end], rules, protected).label(text, start, end)


def _in_order(present: list[str]) -> bool:
    positions = [GUTACHTEN_ORDER.index(step) for step in present]
    return positions == sorted(positions)


def analyse_section(
    text: str,
    start: int,
    end: int,
    heading: int | None,
    title: str,
    rules: Rules,
    protected: Sequence[tuple[int, int]],
    hits: MarkerHits | None = None,
) -> Section:
    """Label every sentence of ``text[start:end]`` and summarise the steps of the section."""
    sentences = split_sentences(text, start, end, rules, protected)
    found = hits or MarkerHits(text, rules, protected)
    labelled = [h for s, e in sentences if (h := found.label(text, s, e)) is not None]
    present: list[str] = []
    for h in labelled:
        if h.step not in present:
            present.append(h.step)
    result_first = bool(labelled) and labelled[0].step == "ergebnis" and labelled[0].sentence_end < sentences[-1][1]
    return Section(
        heading=heading,
        title=title,
        start=start,
        end=end,
        words=len(WORD.findall(text, start, end)),
        sentences=len(sentences),
        steps=labelled,
        present=present,
        complete=set(present) == set(GUTACHTEN_ORDER),
        in_order=_in_order(present),
        result_first=result_first,
    )


def analyse_sections(
    text: str, structure: Structure, citations: Sequence[Citation], rules: Rules | None = None
) -> list[Section]:
    """One Section per heading (its own text up to the next heading), plus the text before the first."""
    rules = rules or default_rules()
    protected = [(c.start, c.end) for c in citations]
    bounds: list[tuple[int | None, str, int, int]] = []
    first = structure.headings[0].start if structure.headings else len(text)
    if text[:first].strip():
        bounds.append((None, "", 0, first))
    for i, h in enumerate(structure.headings):
        nxt = structure.headings[i + 1].start if i + 1 < len(structure.headings) else len(text)
        # a heading line is not a sentence of its section; inline (flat text) the title runs into the text
        start = h.start + len(h.marker) if structure.flat_text else h.end
        bounds.append((i, h.title, min(start, nxt), nxt))
    hits = MarkerHits(text, rules, protected)
    return [analyse_section(text, s, e, i, title, rules, protected, hits) for i, title, s, e in bounds if e > s]
