"""The Browse page's query parameters, read and checked in one place (:func:`parse_query`).

A value that cannot be a filter is a :class:`Problem` (the page answers 400 with it, in the page's language,
naming the parameter and what it accepts) instead of being dropped silently:

- a parameter Browse does not have, or one given twice;
- ``flag`` outside :data:`~benger.web.viewer._browse.FLAGS`;
- ``corpus``, ``system``, ``judge``, ``area`` naming none the principal can see (the known ones are listed:
  those of :meth:`~benger.web.viewer._reader.ResultsReader.options`, so another organisation's names stay unknown);
- ``min_score`` / ``max_score`` that are not a finite decimal number (``72.5`` or ``72,5``; no ``nan``/``inf``);
- ``page`` that is not a whole number from 1 (a page beyond the last is not a problem: Browse shows the last);
- a control character in any value.

An empty value means "no filter" (the form sends every field); ``lang`` is the page's language, read elsewhere.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from benger.web.viewer._browse import FLAGS, BrowseFilter

NAMED = ("corpus", "system", "judge", "area")
PARAMETERS = (*NAMED, "min_score", "max_score", "flag", "q", "page")
ACCEPTED = (*PARAMETERS, "lang")
_SHOWN = 80  # characters of a refused value repeated in its message
_PAGE_DIGITS = 4000  # a page number is cut to these digits (int() refuses over 4300)
_DECIMAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")

#: every message, (German, English), with its values as ``str.format`` fields
_SAY = {
    "invalid": (
        "ungültiger Wert „{value}“ für {name}; erlaubt: {accepts}",
        "invalid value '{value}' for {name}; accepted: {accepts}",
    ),
    "unknown": (
        "{noun} „{value}“ (Parameter {name}); bekannt: {known}",
        "{noun} '{value}' (parameter {name}); known: {known}",
    ),
    "parameter": (
        "unbekannter Parameter „{name}“; erlaubt: {accepts}",
        "unknown parameter '{name}'; accepted: {accepts}",
    ),
    "twice": ("Parameter {name} ist mehrfach angegeben", "parameter {name} is given twice"),
    "control": ("Wert für {name} enthält ein Steuerzeichen", "the value of {name} has a control character"),
    "beyond": (
        "Seite {page} gibt es nicht; gezeigt wird die letzte Seite ({last})",
        "there is no page {page}; the last page ({last}) is shown",
    ),
    "title": ("Nichts gezeigt: diese Filter sind ungültig", "Nothing is shown: these filters are invalid"),
    "none": ("keine", "none"),
    "score": ("eine endliche Zahl, z. B. 50 oder 72,5", "a finite number, e.g. 50 or 72.5"),
    "page": ("eine ganze Zahl ab 1", "a whole number from 1"),
    "corpus": ("unbekanntes Korpus", "unknown corpus"),
    "system": ("unbekanntes System", "unknown system"),
    "judge": ("unbekannter Judge", "unknown judge"),
    "area": ("unbekannter Bereich", "unknown area"),
}


@dataclass(frozen=True)
class Problem:
    """Why one parameter is refused, in German and English."""

    parameter: str
    de: str
    en: str

    def text(self, lang: str) -> str:
        return self.en if lang == "en" else self.de


def _say(key: str, lang: str, **values: str) -> str:
    return _SAY[key][lang == "en"].format(**values)


def _problem(
    key: str, name: str, value: str = "", accepts: tuple[str, str] = ("", ""), known: Sequence[str] = ()
) -> Problem:
    """The message ``key`` about parameter ``name`` and its ``value``; ``accepts``: what it takes, (German,
    English); ``known``: the names a named filter knows."""
    de, en = (
        _say(
            key,
            lang,
            name=_shown(name),
            value=_shown(value),
            accepts=accepts[lang == "en"],
            noun=_say(name, lang) if name in NAMED else "",
            known=", ".join(known) or _say("none", lang),
        )
        for lang in ("de", "en")
    )
    return Problem(name, de, en)


def _shown(value: str) -> str:
    return value if len(value) <= _SHOWN else value[:_SHOWN] + "…"


def _score(name: str, value: str) -> tuple[float | None, Problem | None]:
    text = value.strip().replace(",", ".")
    number = float(text) if _DECIMAL.fullmatch(text) else math.nan
    if not math.isfinite(number):
        return None, _problem("invalid", name, value, _SAY["score"])
    return number, None


def _page(value: str) -> tuple[int, Problem | None]:
    text = value.strip()
    digits = text.lstrip("0")
    if not (text.isascii() and text.isdigit()) or not digits:
        return 1, _problem("invalid", "page", value, _SAY["page"])
    return int(digits[:_PAGE_DIGITS]), None  # cut: still past the last page, and its notice shows 80 digits


def parse_query(
    pairs: Iterable[tuple[str, str]], known: Mapping[str, Sequence[str]]
) -> tuple[BrowseFilter, list[Problem]]:
    """The Browse filter of the query ``pairs`` (name, value; repeated names as repeated pairs) and what in it
    cannot be a filter (empty: the filter is the query); ``known``: the values each of :data:`NAMED` may take
    (:meth:`~benger.web.viewer._reader.ResultsReader.options`). The filter holds the valid parts only."""
    problems: list[Problem] = []
    values: dict[str, str] = {}
    for name, value in pairs:
        if name == "lang":
            continue
        if name not in PARAMETERS:
            problems.append(_problem("parameter", name, accepts=(", ".join(ACCEPTED),) * 2))
        elif name in values:
            problems.append(_problem("twice", name))
        elif _CONTROL.search(value):
            problems.append(_problem("control", name))
        else:
            values[name] = value
    f = BrowseFilter()
    for name in NAMED:
        value = values.get(name, "")
        if value and value not in known.get(name, ()):
            problems.append(_problem("unknown", name, value, known=known.get(name, ())))
        elif value:
            setattr(f, name, value)
    for name in ("min_score", "max_score"):
        if values.get(name, "").strip():
            score, problem = _score(name, values[name])
            setattr(f, name, score)
            problems += [problem] if problem else []
    flag = values.get("flag", "")
    if flag and flag not in FLAGS:
        problems.append(_problem("invalid", "flag", flag, (", ".join(FLAGS),) * 2))
    f.flag = flag if flag in FLAGS else None
    f.q = values.get("q", "").strip() or None
    if values.get("page", "").strip():
        f.page, problem = _page(values["page"])
        problems += [problem] if problem else []
    return f, problems


def beyond_notice(asked: int, last: int, lang: str) -> str:
    """The notice of a page number past the last page (Browse shows the last one)."""
    return _say("beyond", lang, page=_shown(str(asked)), last=str(last))


def problems_title(lang: str) -> str:
    """The line above the refused parameters' messages."""
    return _say("title", lang)
