"""Gutachtenstil steps: sentences labelled Obersatz / Definition / Subsumtion / Ergebnis by marker rules.

Each sentence gets at most one label: the first step in labelling priority (obersatz, definition,
ergebnis, subsumtion; see ``data/markers.yaml``) with a marker in it. Marker matches that fall inside
a norm citation are ignored. A section is the text under one heading up to the next heading.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from benger.gutachten._models import Citation, Section, StepHit, Structure
from benger.gutachten._rules import GUTACHTEN_ORDER, Rules, default_rules

SENTENCE_END = re.compile(r"[.!?:](?=[\s\u00a0*_\"“”)]*(?:\s|$))|\n\s*\n|\n(?=\s*[#*\-]|\s*\S{1,5}[.)]\s)")
WORD = re.compile(r"\w+")
MIN_SENTENCES = 2


def _spans_inside(spans: Sequence[tuple[int, int]], start: int, end: int) -> bool:
    return any(s <= start and end <= e for s, e in spans)


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


def label_sentence(
    text: str, start: int, end: int, rules: Rules, protected: Sequence[tuple[int, int]]
) -> StepHit | None:
    """The step of one sentence and the marker that decided it, or None when no marker matches."""
    sentence = text[start:end]
    for marker in rules.markers:
        for m in marker.regex.finditer(sentence):
            if _spans_inside(protected, start + m.start(), start + m.end()):
                continue
            return StepHit(
                step=marker.step,
                marker=m.group(),
                start=start + m.start(),
                end=start + m.end(),
                sentence_start=start,
                sentence_end=end,
            )
    return None


def _in_order(present: list[str]) -> bool:
    positions = [GUTACHTEN_ORDER.index(step) for step in present]
    return positions == sorted(positions)


def analyse_section(
    text: str, start: int, end: int, heading: int | None, title: str, rules: Rules, protected: Sequence[tuple[int, int]]
) -> Section:
    """Label every sentence of ``text[start:end]`` and summarise the steps of the section."""
    sentences = split_sentences(text, start, end, rules, protected)
    hits = [h for s, e in sentences if (h := label_sentence(text, s, e, rules, protected)) is not None]
    present: list[str] = []
    for h in hits:
        if h.step not in present:
            present.append(h.step)
    result_first = bool(hits) and hits[0].step == "ergebnis" and hits[0].sentence_end < sentences[-1][1]
    return Section(
        heading=heading,
        title=title,
        start=start,
        end=end,
        words=len(WORD.findall(text, start, end)),
        sentences=len(sentences),
        steps=hits,
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
    return [analyse_section(text, s, e, i, title, rules, protected) for i, title, s, e in bounds if e > s]
