"""Norm-citation parser for German legal text.

A small scanner, not one big regex: it finds an anchor ("§", "§§", "Art.", "Artt.", "Artikel"), then
reads norm specifications (number, then Abs./S./Hs./Nr./lit./Alt./Var. in any of the usual spellings,
Roman Absatz numerals as in "§ 433 II 1 BGB"), connectors ("," "und" "sowie" "oder" "bzw." "i.V.m."),
ranges ("bis", "-", "f.", "ff.") and statute abbreviations. Norms without their own statute take the
next statute of their group ("Art. 2 Abs. 1 i.V.m. Art. 1 Abs. 1 GG"). A group followed by "Rn." is a
literature reference (a commentary), not a norm, and is skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from benger.gutachten._models import Citation, Norm, Problem
from benger.gutachten._rules import Rules, Unit, default_rules

_WS = r"[\s\u00a0\u202f]*"
ANCHOR = re.compile(r"(?<![\w§])(§§|§|Artt\.|Art\.|Artikel)" + _WS)
NUMBER = re.compile(r"(\d{1,4})(?:(?!ff?\b)([a-z]{1,2})(?![a-zäöüß])|\s([a-eg-z])(?![\w.]))?(?![\d])")
_SUB_PATTERNS: tuple[tuple[str, str], ...] = (
    ("absatz", r"(?:Abs\.|Absatz|Abs(?=\s))" + _WS + r"(\d{1,3}[a-z]?)(?![\w])"),
    ("satz", r"(?:S\.|Satz|Sätze)" + _WS + r"(\d{1,2})(?![\w])"),
    ("halbsatz", r"(?:Hs\.|HS\.?|Halbs\.|Halbsatz)" + _WS + r"(\d)(?![\w])"),
    ("nummer", r"(?:Nr\.|Nrn\.|Nummer|Ziff\.|Ziffer)" + _WS + r"(\d{1,3}[a-z]?)(?![\w])"),
    ("gruppe", r"(?:Gr\.|Gruppe)" + _WS + r"(\d)(?![\w])"),
    ("buchstabe", r"(?:[lL]it\.|Buchst\.|Buchstabe)" + _WS + r"([a-z]{1,2})\)?(?![\w])"),
    ("alternative", r"(?:Alt\.|Alternative)" + _WS + r"(\d{1,2})(?![\w])"),
    ("variante", r"(?:Var\.|Variante)" + _WS + r"(\d{1,2})(?![\w])"),
    ("alternative", r"(\d{1,2})\." + _WS + r"(?:Alt\.?|Alternative|Fall)(?![\w])"),
    ("variante", r"(\d{1,2})\." + _WS + r"(?:Var\.?|Variante)(?![\w])"),
    ("halbsatz", r"(\d)\." + _WS + r"(?:Hs\.|Halbs\.|Halbsatz)"),
    ("unterabsatz", r"(?:UAbs\.|Unterabs\.|Unterabsatz)" + _WS + r"(\d{1,2})(?![\w])"),
    ("roman", r"([IVX]{1,5})(?![\w.])"),
    ("letter", r"([a-z])\)?(?![\w.])"),
)
SUBDIVISION = [(name, re.compile(pattern)) for name, pattern in _SUB_PATTERNS]
BARE_SATZ = re.compile(r"(\d{1,2})(?![\w])(?!\." + _WS + r"(?:Alt|Var|Hs|Halbs)\b)")
SMALL_NUMBER = re.compile(r"(\d{1,2})(?![\w])(?!\.\d)")
WHITESPACE = re.compile(_WS)
PLURAL = ("§§", "Artt.")
#: subdivisions a bare number after a list separator may continue ("Nr. 2, 5")
CONTINUABLE = ("absatz", "satz", "halbsatz", "nummer", "alternative", "variante")
MAX_CONTINUED = 12
#: subdivision levels from the top (Absatz) down
LEVELS = ("absatz", "gruppe", "satz", "halbsatz", "nummer", "buchstabe", "alternative", "variante", "unterabsatz")
FOLLOWING = re.compile(_WS + r"(ff?)(?:\.|(?![\w]))")
RANGE = re.compile(_WS + r"(?:bis|-|–)" + _WS + r"(?:§§?|Art\.)?" + _WS + r"(\d{1,4}[a-z]?)(?![\w])")
LIST_SEP = re.compile(r"(?:" + _WS + r"[,/]" + _WS + r"|" + _WS + r"\s(?:und|sowie|oder|bzw\.|u\.)\s" + _WS + r")")
IVM = re.compile(_WS + r"(?:i\.\s?V\.\s?m\.?|[iI]Vm\.?|in Verbindung mit|i\.\s?S\.\s?v\.|iSv\.?)" + _WS)
LITERATURE = re.compile(_WS + r"(?:Rn\.|Rdnr\.|Rz\.|Randnummer)")
MARKUP = re.compile(_WS + r"[*_]{1,3}" + _WS)
STATUTE_PREFIX = re.compile(_WS + r"(?:des|der)\s+")
ABBREV_LIKE = re.compile(r"([A-ZÄÖÜ][A-Za-zÄÖÜäöüß\-]{0,15})(?![\wäöüÄÖÜß])")
ROMAN = {"I": 1, "V": 5, "X": 10}


def roman_to_int(text: str) -> int:
    """The value of a Roman numeral made of I, V, X ("IV" -> 4)."""
    total = 0
    for i, ch in enumerate(text):
        value = ROMAN[ch]
        total += -value if i + 1 < len(text) and ROMAN[text[i + 1]] > value else value
    return total


def _looks_like_abbreviation(word: str) -> bool:
    """An unknown token counts as a statute abbreviation when it has >= 2 capitals ("AVB", "BayXG")."""
    return sum(ch.isupper() for ch in word) >= 2 and len(word) <= 16


@dataclass
class _Spec:
    anchor: str
    number: str
    start: int
    end: int
    parts: dict[str, str] = field(default_factory=dict)
    range_end: str | None = None
    following: str | None = None
    statute: str | None = None
    statute_span: tuple[int, int] | None = None
    continued: bool = False  # the same § as the spec before ("Nr. 2, 5" -> the "5")


@dataclass
class _Group:
    start: int
    end: int
    specs: list[_Spec]
    anchors: list[tuple[str, int, int]]  # (anchor, start offset, number of distinct norms under it)
    linked: bool = False
    literature: bool = False


def _skip_ws(text: str, pos: int) -> int:
    m = WHITESPACE.match(text, pos)
    return m.end() if m else pos


def _read_subdivisions(text: str, spec: _Spec, pos: int) -> int:
    """Read Abs./S./Nr./... (or a Roman Absatz) into ``spec.parts``; returns the position after them."""
    while True:
        at = _skip_ws(text, pos)
        for name, regex in SUBDIVISION:
            sm = regex.match(text, at)
            key = {"roman": "absatz", "letter": "buchstabe"}.get(name, name)
            if sm is None or key in spec.parts or (name == "letter" and "nummer" not in spec.parts):
                continue
            if name == "roman":
                spec.parts["absatz"] = str(roman_to_int(sm.group(1)))
                pos = spec.end = sm.end()
                # "§ 433 II 1 BGB": an Arabic number right after a Roman Absatz is the Satz
                bare = BARE_SATZ.match(text, _skip_ws(text, pos))
                if bare and bare.start() > pos:
                    spec.parts["satz"] = bare.group(1)
                    pos = spec.end = bare.end()
            else:
                spec.parts[key] = sm.group(1)
                pos = spec.end = sm.end()
            break
        else:
            return pos


class CitationParser:
    """Parses every norm citation of a text; ``parse(text)`` returns (citations, problems)."""

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or default_rules()
        names = sorted({*self.rules.units, *self.rules.aliases}, key=len, reverse=True)
        self._known = re.compile(
            r"(" + "|".join(re.escape(n).replace(r"\ ", r"\s") for n in names) + r")(?![\wäöüÄÖÜß\-])"
        )

    # -- scanning ------------------------------------------------------------------------------
    def _spec(self, text: str, pos: int, anchor: str) -> _Spec | None:
        m = NUMBER.match(text, pos)
        if m is None:
            return None
        spec = _Spec(anchor, m.group(1) + (m.group(2) or m.group(3) or ""), m.start(), m.end())
        pos = _read_subdivisions(text, spec, m.end())
        fm = FOLLOWING.match(text, pos)
        rm = RANGE.match(text, pos)
        if fm:
            spec.following, spec.end = fm.group(1) + ".", fm.end()
        elif rm and not spec.parts:
            spec.range_end, spec.end = rm.group(1), rm.end()
        return spec

    @staticmethod
    def _same_norm_continuation(text: str, pos: int, previous: _Spec) -> _Spec | None:
        """The same § again with another subdivision: "Abs. 1, Abs. 2", "Nr. 2, 5", "I 1, II".

        A subdivision keyword (or a Roman Absatz) after a separator replaces that level and the levels
        below it; a small bare number (up to MAX_CONTINUED, larger than before) replaces the last level.
        """
        level: str | None = None
        for name, regex in SUBDIVISION:
            if regex.match(text, pos):
                level = {"roman": "absatz", "letter": "buchstabe"}.get(name, name)
                break
        if level is None:
            m = SMALL_NUMBER.match(text, pos)
            numeric = [k for k in previous.parts if k in CONTINUABLE]
            if m is None or not numeric:
                return None
            old = re.match(r"\d+", previous.parts[numeric[-1]])
            if old is None or not int(old.group()) < int(m.group(1)) <= MAX_CONTINUED:
                return None
            level = numeric[-1]
            after = _skip_ws(text, m.end())
            for name, regex in SUBDIVISION:
                own = {"roman": "absatz", "letter": "buchstabe"}.get(name, name)
                if regex.match(text, after) and LEVELS.index(own) <= LEVELS.index(level):
                    return None  # "§§ 23 Abs. 1, 12 Abs. 1 StGB": a number with its own Absatz is a new §
            kept = {k: v for k, v in previous.parts.items() if LEVELS.index(k) < LEVELS.index(level)}
            spec = _Spec(previous.anchor, previous.number, m.start(), m.end(), kept | {level: m.group(1)})
            spec.continued = True
            spec.end = _read_subdivisions(text, spec, m.end())
            return spec
        kept = {k: v for k, v in previous.parts.items() if LEVELS.index(k) < LEVELS.index(level)}
        spec = _Spec(previous.anchor, previous.number, pos, pos, kept, continued=True)
        spec.end = _read_subdivisions(text, spec, pos)
        return spec if spec.end > pos else None

    def _statute(self, text: str, pos: int) -> tuple[str, int, int, bool] | None:
        """(name as written, start, end, known) of a statute abbreviation at ``pos``, or None."""
        starts = [_skip_ws(text, pos)]
        bold = MARKUP.match(text, pos)  # "§ 310 Abs. 4** BGB"
        if bold:
            starts.append(bold.end())
        pm = STATUTE_PREFIX.match(text, pos)
        if pm:
            starts.append(pm.end())
        for at in starts:
            km = self._known.match(text, at)
            if km:
                return km.group(1), km.start(), km.end(), True
            am = ABBREV_LIKE.match(text, at)
            if am and _looks_like_abbreviation(am.group(1)):
                return am.group(1), am.start(), am.end(), False
        return None

    def _group(self, text: str, first: re.Match[str]) -> tuple[_Group, int]:
        group = _Group(first.start(), first.end(), [], [])
        anchor, anchor_start, under = first.group(1), first.start(), 0
        pos = first.end()
        spec = self._spec(text, pos, anchor)
        if spec is not None:
            spec.start = first.start()
        while spec is not None:
            group.specs.append(spec)
            under += 0 if spec.continued else 1
            pos = group.end = spec.end
            if LITERATURE.match(text, pos):
                group.literature = True
            st = self._statute(text, pos)
            if st is not None:
                name, s_start, s_end, _known = st
                for earlier in group.specs:
                    if earlier.statute is None:
                        earlier.statute, earlier.statute_span = name, (s_start, s_end)
                pos = group.end = s_end
            # what joins the next norm: "i.V.m." or a list separator, then a number or a new anchor
            joiner = IVM.match(text, pos)
            group.linked = group.linked or joiner is not None
            joiner = joiner or LIST_SEP.match(text, pos)
            if joiner is None:
                break
            am = ANCHOR.match(text, joiner.end())
            if am is not None and st is not None and not IVM.match(text, pos):
                break  # "§ 985 BGB und § 1007 BGB": a new citation, not a continuation
            if am is not None:
                plural_goes_on = anchor in PLURAL and am.group(1) in ("§", "Art.") and not IVM.match(text, pos)
                if not plural_goes_on:  # "§§ 327o, § 327p BGB" stays one plural list
                    group.anchors.append((anchor, anchor_start, under))
                    anchor, anchor_start, under = am.group(1), am.start(), 0
                spec = self._spec(text, am.end(), am.group(1))
                if spec is not None:
                    spec.start = am.start()
                continue
            if st is not None and anchor not in PLURAL and not group.linked:
                break  # "§ 14 BGB, 5 Personen": a singular citation ends at its statute
            continued = self._same_norm_continuation(text, joiner.end(), group.specs[-1])
            spec = None if st is not None else continued
            spec = spec or self._spec(text, joiner.end(), anchor)
        group.anchors.append((anchor, anchor_start, under))
        return group, max(pos, first.end())

    # -- building results ----------------------------------------------------------------------
    def _norm(self, spec: _Spec) -> Norm:
        written: Unit = "§" if spec.anchor.startswith("§") else "Art."
        canonical = self.rules.canonical_statute(spec.statute) if spec.statute else None
        unit: Unit = self.rules.units[canonical] if canonical else written
        statute = canonical or spec.statute
        p = spec.parts
        pieces = [spec.number]
        for key, label in (
            ("absatz", "Abs."),
            ("unterabsatz", "UAbs."),
            ("gruppe", "Gr."),
            ("satz", "S."),
            ("halbsatz", "Hs."),
            ("nummer", "Nr."),
            ("buchstabe", "lit."),
            ("alternative", "Alt."),
            ("variante", "Var."),
        ):
            if key in p:
                pieces.append(f"{label} {p[key]}")
        several = spec.following is not None or spec.range_end is not None
        head = ("§§" if unit == "§" else "Art.") if several else unit
        body = " ".join(pieces)
        if spec.range_end:
            body += f"–{spec.range_end}"
        if spec.following:
            body += f" {spec.following}"
        tail = f" {statute}" if statute else ""
        return Norm(
            unit=unit,
            written_unit=written,
            number=spec.number,
            absatz=p.get("absatz"),
            unterabsatz=p.get("unterabsatz"),
            gruppe=p.get("gruppe"),
            satz=p.get("satz"),
            halbsatz=p.get("halbsatz"),
            nummer=p.get("nummer"),
            buchstabe=p.get("buchstabe"),
            alternative=p.get("alternative"),
            variante=p.get("variante"),
            range_end=spec.range_end,
            following=spec.following,
            statute=statute,
            statute_known=canonical is not None,
            start=spec.start,
            end=spec.end,
            standard=f"{head} {body}{tail}",
            key=f"{unit} {spec.number}{tail}",
        )

    def _problems(self, text: str, group: _Group, norms: list[Norm]) -> list[Problem]:
        out: list[Problem] = []

        def add(code: str, message: str, start: int, end: int) -> None:
            out.append(Problem(code=code, message=message, start=start, end=end, text=text[start:end]))

        reported_statutes: set[tuple[int, int]] = set()
        for spec, norm in zip(group.specs, norms, strict=True):
            if norm.statute is None:
                add("missing_statute", f"no statute named for {norm.standard}", spec.start, spec.end)
            elif not norm.statute_known:
                s, e = spec.statute_span or (spec.start, spec.end)
                if (s, e) not in reported_statutes:
                    reported_statutes.add((s, e))
                    add("unknown_statute", f"unknown statute abbreviation {norm.statute!r}", s, e)
            elif norm.unit != norm.written_unit:
                message = f"{norm.statute} numbers its provisions with {norm.unit!r}, not {norm.written_unit!r}"
                add("wrong_unit", message, spec.start, spec.end)
        specs = iter(group.specs)
        for anchor, a_start, distinct in group.anchors:
            under: list[_Spec] = []
            while len([s for s in under if not s.continued]) < distinct:
                under.append(next(specs))
            while (nxt := next(specs, None)) is not None and nxt.continued:
                under.append(nxt)
            if nxt is not None:
                specs = iter([nxt, *specs])
            if not under:
                continue
            end = under[-1].end
            ranged = any(s.following or s.range_end for s in under)
            if anchor in PLURAL and distinct == 1 and not ranged:
                single = "§" if anchor == "§§" else "Art."
                add("plural_single", f"{anchor!r} introduces a single norm; write {single!r}", a_start, end)
            if anchor == "§" and (distinct > 1 or any(s.range_end for s in under)):
                add("singular_multiple", "'§' introduces several norms; write '§§'", a_start, end)
        return out

    def parse(self, text: str) -> tuple[list[Citation], list[Problem]]:
        """All citation groups of ``text`` in order, and their well-formedness problems."""
        citations: list[Citation] = []
        problems: list[Problem] = []
        pos = 0
        while True:
            m = ANCHOR.search(text, pos)
            if m is None:
                break
            group, pos = self._group(text, m)
            if not group.specs or group.literature:
                pos = max(pos, m.end())
                continue
            norms = [self._norm(s) for s in group.specs]
            span = text[group.start : group.end]
            citations.append(Citation(text=span, start=group.start, end=group.end, norms=norms, linked=group.linked))
            problems.extend(self._problems(text, group, norms))
        return citations, problems


_DEFAULT: list[CitationParser] = []


def parse_citations(text: str, rules: Rules | None = None) -> tuple[list[Citation], list[Problem]]:
    """All citations of ``text`` and their problems (default rules: one parser built per process)."""
    if rules is not None:
        return CitationParser(rules).parse(text)
    if not _DEFAULT:
        _DEFAULT.append(CitationParser())
    return _DEFAULT[0].parse(text)
