"""The analyser's rules as data: statute abbreviations (``data/statutes.yaml``) and Gutachtenstil markers
(``data/markers.yaml``). Users extend either file, or pass their own to :func:`load_rules`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from benger._yaml import load_yaml
from benger.errors import InputError

Unit = Literal["§", "Art."]
STEPS: tuple[str, ...] = ("obersatz", "definition", "ergebnis", "subsumtion")
#: The order of the steps in a Gutachten (the labelling priority is STEPS).
GUTACHTEN_ORDER: tuple[str, ...] = ("obersatz", "definition", "subsumtion", "ergebnis")


@dataclass(frozen=True)
class Marker:
    """One compiled marker of a Gutachtenstil step.

    Case-insensitive markers are lower-cased and searched in the lower-cased text (much faster than
    re.IGNORECASE); a leading ``\\b`` is checked in Python so the regex keeps its literal prefix.
    """

    step: str
    priority: int
    pattern: str
    regex: re.Pattern[str]
    case_sensitive: bool
    leading_boundary: bool


def _lower_pattern(pattern: str) -> str:
    """Lower-case a regex outside its escapes ("\\S", "\\B" keep their meaning)."""
    out, i = [], 0
    while i < len(pattern):
        if pattern[i] == "\\":
            out.append(pattern[i : i + 2])
            i += 2
        else:
            out.append(pattern[i].lower())
            i += 1
    return "".join(out)


def compile_marker(step: str, pattern: str, case_sensitive: bool) -> Marker:
    """A Marker for ``pattern``; raises re.error for an invalid regex."""
    body = pattern if case_sensitive else _lower_pattern(pattern)
    leading = body.startswith("\\b")
    regex = re.compile(body[2:] if leading else body)
    re.compile(pattern)  # report errors against what the user wrote
    return Marker(step, STEPS.index(step), pattern, regex, case_sensitive, leading)


@dataclass(frozen=True)
class Rules:
    """Everything the analyser reads from data.

    ``units`` maps a statute abbreviation (canonical spelling) to "§" or "Art."; ``aliases`` maps other
    spellings to the canonical one; ``markers`` lists the step markers in labelling priority.
    """

    units: dict[str, Unit]
    aliases: dict[str, str]
    markers: tuple[Marker, ...]
    parts: tuple[str, ...]
    claim_words: tuple[str, ...]
    abbreviations: frozenset[str]

    def canonical_statute(self, name: str) -> str | None:
        """The canonical abbreviation of ``name`` (an exact key or alias), or None if unknown."""
        if name in self.units:
            return name
        return self.aliases.get(name)


def _read_yaml(path: Path | None, default: str) -> Any:
    try:
        if path is None:
            text = resources.files("benger.gutachten").joinpath("data", default).read_text(encoding="utf-8")
            where: str | Path = f"benger/gutachten/data/{default}"
        else:
            text, where = path.read_text(encoding="utf-8"), path
    except OSError as exc:
        raise InputError(f"cannot read the rules file: {exc.strerror or exc}", file=path) from exc
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", file=path) from None
    data = load_yaml(text, where)
    if not isinstance(data, dict):
        raise InputError("expected a mapping at the top level", file=where)
    return data


def _string_list(data: dict[str, Any], key: str, where: str) -> list[str]:
    value = data.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise InputError("expected a list of non-empty strings", file=where, field=key)
    return [v.strip() for v in value]


def _statutes(data: dict[str, Any], where: str) -> tuple[dict[str, Unit], dict[str, str]]:
    units: dict[str, Unit] = {}
    for key, unit in (("paragraph", "§"), ("article", "Art.")):
        for name in _string_list(data, key, where):
            if name in units:
                raise InputError(f"statute {name!r} is listed twice", file=where, field=key)
            units[name] = unit  # type: ignore[assignment]
    aliases = data.get("aliases") or {}
    if not isinstance(aliases, dict):
        raise InputError("expected a mapping alias -> abbreviation", file=where, field="aliases")
    for alias, target in aliases.items():
        if target not in units:
            raise InputError(f"alias {alias!r} points to the unknown statute {target!r}", file=where, field="aliases")
    return units, {str(k): str(v) for k, v in aliases.items()}


def _markers(data: dict[str, Any], where: str) -> tuple[Marker, ...]:
    steps = data.get("steps")
    if not isinstance(steps, dict):
        raise InputError("expected a mapping step -> list of markers", file=where, field="steps")
    unknown = set(steps) - set(STEPS)
    if unknown:
        raise InputError(f"unknown step(s) {sorted(unknown)}; expected {list(STEPS)}", file=where, field="steps")
    out: list[Marker] = []
    for step in STEPS:
        for i, entry in enumerate(steps.get(step) or []):
            case_sensitive = False
            pattern = entry
            if isinstance(entry, dict):
                pattern, case_sensitive = entry.get("pattern"), bool(entry.get("case_sensitive", False))
            if not isinstance(pattern, str) or not pattern:
                raise InputError("a marker must be a regex string", file=where, field=f"steps.{step}[{i}]")
            try:
                out.append(compile_marker(step, pattern, case_sensitive))
            except re.error as exc:
                raise InputError(f"invalid regex: {exc}", file=where, field=f"steps.{step}[{i}]") from exc
    return tuple(out)


def load_rules(statutes: Path | None = None, markers: Path | None = None) -> Rules:
    """Read the rules from the given YAML files (default: the bundled ``data/*.yaml``).

    Raises InputError naming the file and field when a file is unreadable or malformed.
    """
    sdata = _read_yaml(statutes, "statutes.yaml")
    mdata = _read_yaml(markers, "markers.yaml")
    swhere = str(statutes or "benger/gutachten/data/statutes.yaml")
    mwhere = str(markers or "benger/gutachten/data/markers.yaml")
    units, aliases = _statutes(sdata, swhere)
    return Rules(
        units=units,
        aliases=aliases,
        markers=_markers(mdata, mwhere),
        parts=tuple(_string_list(mdata, "parts", mwhere)),
        claim_words=tuple(_string_list(mdata, "claim_words", mwhere)),
        abbreviations=frozenset(_string_list(mdata, "abbreviations", mwhere)),
    )


@lru_cache(maxsize=1)
def default_rules() -> Rules:
    """The bundled rules (read once per process)."""
    return load_rules()
