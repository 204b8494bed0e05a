"""The Gliederung of a Falllösung: headings, their tree, depth and consistency problems.

A heading is a line that starts with a Gliederung marker (after markdown "#", "**" or "_" decoration)
or a markdown heading without a marker. The German order of marker kinds, from the top, is
part ("Teil 1", "Tatkomplex 2") > A. > I. > 1. > a) > aa) > (1) > (a) > (aa); markdown headings
without a marker rank above all of them by their "#" count. Texts with (almost) no line breaks, as
the released reference solutions are, are scanned for markers inline after a sentence end instead.
"""

from __future__ import annotations

import itertools
import re

from benger.gutachten._citations import roman_to_int
from benger.gutachten._models import Heading, Problem, Structure
from benger.gutachten._rules import Rules, default_rules

#: marker kind -> rank (smaller = higher in the tree)
RANKS: dict[str, int] = {
    "part": 0,
    "upper": 1,
    "roman": 2,
    "arabic": 3,
    "lower": 4,
    "double": 5,
    "paren_arabic": 6,
    "paren_lower": 7,
    "paren_double": 8,
}
_MARKER = (
    r"(?P<marker>"
    r"(?P<roman>[IVX]{1,5})\.(?!\d)"
    r"|(?P<upper>[A-HJ-UWYZ])\.(?!\d)"
    r"|(?P<arabic>\d{1,2})(?:\.\)?|\))(?!\d)"
    r"|(?P<double>(?P<d1>[a-z])(?P=d1))[.)]"
    r"|(?P<lower>[a-z])[.)]"
    r"|\((?P<paren_arabic>\d{1,2})\)"
    r"|\((?P<paren_double>(?P<d2>[a-z])(?P=d2))\)"
    r"|\((?P<paren_lower>[a-z])\)"
    r")"
)
_DECORATION = r"[ \t\u00a0>*_#]*"
LINE_MARKER = re.compile(r"^(?P<deco>" + _DECORATION + r")" + _MARKER + r"[ \t\u00a0*_]+(?=\S)", re.MULTILINE)
MD_HEADING = re.compile(r"^[ \t]*[*_]*[ \t]*(?P<hashes>#{1,6})[ \t]+(?P<title>\S[^\n]*)$", re.MULTILINE)
INLINE_MARKER = re.compile(r"(?:(?<=^)|(?<=[.:!?)]\s)|(?<=[.:!?)]\s\s))" + _MARKER + r"\s+(?=[A-ZÄÖÜ§„\"(])")
#: inline, a first point ("A.", "I.", "1.", "a)") right after a heading title needs no sentence end before it
LOOSE_MARKER = re.compile(r"(?<=\s)" + _MARKER + r"\s+(?=[A-ZÄÖÜ§„\"(])")
LOOSE_DISTANCE = 100
FLAT_CHARS_PER_LINE = 500
TITLE_MAX = 160


def _part_regex(rules: Rules, inline: bool) -> re.Pattern[str]:
    words = "|".join(re.escape(w) for w in rules.parts)
    body = (
        r"(?P<part>(?:(?:"
        + words
        + r")\s+\d{1,2}|\d{1,2}\.\s+(?:"
        + words
        + r")|(?:erster|zweiter|dritter|vierter)\s+(?:"
        + words
        + r"))\b:?)"
    )
    if inline:  # after a sentence end, or anywhere when a colon follows ("… Partynacht Tatkomplex 1: …")
        return re.compile(r"(?:(?<=^)|(?<=[.:!?)]\s)|(?<=\s)(?=\w+\s+\d{1,2}:))" + body, re.IGNORECASE)
    return re.compile(r"^" + _DECORATION + body, re.MULTILINE | re.IGNORECASE)


def _ordinal(kind: str, value: str) -> int | None:
    if kind in ("arabic", "paren_arabic"):
        return int(value)
    if kind == "roman":
        return roman_to_int(value)
    if kind in ("upper", "lower", "paren_lower"):
        return ord(value.lower()) - ord("a") + 1
    if kind in ("double", "paren_double"):
        return ord(value[0]) - ord("a") + 1
    return None


def _title(text: str, start: int, inline: bool, next_heading: int) -> tuple[str, int]:
    """The heading title from ``start``: the rest of the line, or (inline) up to the first sentence end;
    never beyond the next heading."""
    line_end = text.find("\n", start)
    line_end = len(text) if line_end < 0 else line_end
    end = max(start, min(line_end, start + TITLE_MAX, next_heading))
    if inline:
        m = re.search(r"[.:?!](?=\s+[A-ZÄÖÜ])", text[start:end])
        if m:
            end = start + m.end()
    return text[start:end].strip(" \t*_#"), end


def _add_loose(text: str, found: dict[int, tuple[int, int, str, str, int | None, int]]) -> None:
    """Flat text: "Tatkomplex 1: Bootsfahrt A. § 223 StGB" or "I. Tatbestand 1. Objektiver Tatbestand":
    accept a first point (ordinal 1) within LOOSE_DISTANCE characters after the heading before it."""
    loose = {}
    for m in LOOSE_MARKER.finditer(text):
        kind = next(k for k in RANKS if k != "part" and m.group(k))
        ordinal = _ordinal(kind, m.group(kind))
        if ordinal == 1 and m.start("marker") not in found:
            loose[m.start("marker")] = (m.start("marker"), m.end(), m.group("marker"), kind, ordinal, RANKS[kind])
    last: int | None = None
    for pos in sorted({*found, *loose}):
        if pos in loose:
            if last is None or pos - last > LOOSE_DISTANCE:
                continue
            found[pos] = loose[pos]
        last = pos


def _raw_headings(text: str, rules: Rules, flat: bool) -> list[tuple[int, int, str, str, int | None, int]]:
    """(start, body_start, marker, kind, ordinal, rank) for every heading, in text order."""
    found: dict[int, tuple[int, int, str, str, int | None, int]] = {}
    regex = INLINE_MARKER if flat else LINE_MARKER
    for m in regex.finditer(text):
        kind = next(k for k in RANKS if k != "part" and m.group(k))
        marker = m.group("marker")
        found[m.start("marker")] = (
            m.start("marker"),
            m.end(),
            marker,
            kind,
            _ordinal(kind, m.group(kind)),
            RANKS[kind],
        )
    for m in _part_regex(rules, flat).finditer(text):
        number = re.search(r"\d+", m.group("part"))
        found[m.start("part")] = (
            m.start("part"),
            m.end(),
            m.group("part"),
            "part",
            int(number.group()) if number else None,
            0,
        )
    if flat:
        _add_loose(text, found)
    else:
        for m in MD_HEADING.finditer(text):
            title_start = m.start("title")
            if any(title_start <= s <= title_start + 6 for s in found):
                continue  # "## A. Zulässigkeit": the marker decides the level
            level = len(m.group("hashes"))
            found[m.start("hashes")] = (m.start("hashes"), title_start, "#" * level, f"md{level}", None, level - 7)
    return [found[k] for k in sorted(found)]


def _problems(text: str, headings: list[Heading]) -> list[Problem]:
    out: list[Problem] = []

    def add(code: str, message: str, h: Heading) -> None:
        out.append(Problem(code=code, message=message, start=h.start, end=h.end, text=text[h.start : h.end]))

    parents: dict[int | None, list[int]] = {}
    for i, h in enumerate(headings):
        parents.setdefault(h.parent, []).append(i)
        parent = headings[h.parent] if h.parent is not None else None
        if parent is not None and parent.rank >= 1 and h.rank >= 1 and h.rank - parent.rank > 1:
            add("skipped_level", f"{h.marker!r} follows {parent.marker!r}: a level is skipped", h)
    for children in parents.values():
        by_kind: dict[str, list[Heading]] = {}
        for i in children:
            if headings[i].ordinal is not None and headings[i].kind != "part":
                by_kind.setdefault(headings[i].kind, []).append(headings[i])
        for kind, group in by_kind.items():
            if group[0].ordinal != 1:
                add("sequence_start", f"the first {kind} point is {group[0].marker!r}, not the first one", group[0])
            for prev, cur in itertools.pairwise(group):
                if cur.ordinal == prev.ordinal:
                    add("sequence_repeat", f"{cur.marker!r} repeats the point before", cur)
                elif (cur.ordinal or 0) > (prev.ordinal or 0) + 1:
                    add("sequence_gap", f"{cur.marker!r} follows {prev.marker!r}: a point is missing", cur)
            if len(group) == 1 and group[0].ordinal == 1:
                add("single_child", f"{group[0].marker!r} has no sibling (a level with a single point)", group[0])
    return sorted(out, key=lambda p: (p.start, p.code))


def parse_structure(text: str, rules: Rules | None = None) -> Structure:
    """The Gliederung of ``text``: headings in order with parent/children links, depth and problems."""
    rules = rules or default_rules()
    flat = text.count("\n") < len(text) / FLAT_CHARS_PER_LINE
    headings: list[Heading] = []
    stack: list[int] = []
    raw = _raw_headings(text, rules, flat)
    for n, (start, body, marker, kind, ordinal, rank) in enumerate(raw):
        title, end = _title(text, body, flat, raw[n + 1][0] if n + 1 < len(raw) else len(text))
        while stack and headings[stack[-1]].rank >= rank:
            stack.pop()
        parent = stack[-1] if stack else None
        h = Heading(
            marker=marker,
            kind=kind,
            ordinal=ordinal,
            rank=rank,
            depth=len(stack) + 1,
            title=title,
            start=start,
            end=end,
            parent=parent,
        )
        headings.append(h)
        if parent is not None:
            headings[parent].children.append(len(headings) - 1)
        stack.append(len(headings) - 1)
    depth = max((h.depth for h in headings), default=0)
    return Structure(headings=headings, depth=depth, flat_text=flat, problems=_problems(text, headings))
