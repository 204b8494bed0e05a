"""The model catalog: the paper's systems and judges (plus local models) as SystemConfig data."""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from benger.errors import ConfigError, InputError
from benger.schema import SystemConfig

SECTIONS = ("systems", "judges", "local")
CATALOG_ONLY_FIELDS = ("notes", "role", "aliases")


@dataclass
class Catalog:
    """Systems under test, judges and local models; look-ups accept name, display name, model id or an alias
    (a former name of a renamed entry)."""

    systems: list[SystemConfig]
    judges: list[SystemConfig]
    local: list[SystemConfig] = field(default_factory=list)
    notes: dict[str, str] = field(default_factory=dict)
    roles: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, list[str]] = field(default_factory=dict)  # entry name -> former names that still find it
    source: str = "<builtin>"

    def system(self, name: str) -> SystemConfig:
        """A system (or local model) by name, display name or model id (case-insensitive); a copy."""
        return self._find(name, self.systems + self.local, "system")

    def judge(self, name: str) -> SystemConfig:
        """A judge (or local model) by name, display name or model id (case-insensitive); a copy."""
        return self._find(name, self.judges + self.local, "judge")

    def primary_judge(self) -> SystemConfig:
        """The judge marked ``role: primary`` (the paper's GPT-5.4-mini)."""
        for judge in self.judges:
            if self.roles.get(f"judges:{judge.name}") == "primary":
                return judge.model_copy(deep=True)
        raise ConfigError(f"catalog {self.source} marks no judge with role: primary")

    def _find(self, name: str, entries: list[SystemConfig], kind: str) -> SystemConfig:
        wanted = name.strip().lower()
        for entry in entries:
            names = {entry.name, entry.display_name or "", entry.model, *self.aliases.get(entry.name, ())}
            if wanted in {n.lower() for n in names}:
                return entry.model_copy(deep=True)
        known = ", ".join(e.name for e in entries)
        raise ConfigError(f"unknown {kind} {name!r} in catalog {self.source}; known: {known}")


def _entry(raw: Any, source: str, section: str, index: int, catalog: Catalog) -> SystemConfig:
    where = f"{source}: {section}[{index}]"
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: expected a mapping, got {type(raw).__name__}")
    data = dict(raw)
    extras = {key: data.pop(key) for key in CATALOG_ONLY_FIELDS if key in data}
    try:
        system = SystemConfig.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"field '{'.'.join(str(p) for p in e['loc'])}': {e['msg']}" for e in exc.errors())
        raise ConfigError(f"{where} ({data.get('name', '?')}): {problems}") from exc
    if section == "local" and system.provider != "local":
        raise ConfigError(f"{where} ({system.name}): entries under 'local' need provider: local")
    if "notes" in extras:
        catalog.notes[system.name] = str(extras["notes"]).strip()
    if "aliases" in extras:
        aliases = extras["aliases"]
        if not isinstance(aliases, list) or not all(isinstance(a, str) and a.strip() for a in aliases):
            raise ConfigError(f"{where} ({system.name}): field 'aliases': expected a list of names")
        catalog.aliases[system.name] = [a.strip() for a in aliases]
    if "role" in extras:
        catalog.roles[f"{section}:{system.name}"] = str(extras["role"])
    return system


def parse_catalog(data: Any, source: str) -> Catalog:
    """Validate catalog data (the parsed YAML); ConfigError names the entry and the field."""
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: a catalog is a mapping with the sections {', '.join(SECTIONS)}")
    unknown = set(data) - {*SECTIONS, "version"}
    if unknown:
        raise ConfigError(f"{source}: unknown catalog sections {sorted(unknown)}; expected {', '.join(SECTIONS)}")
    catalog = Catalog(systems=[], judges=[], source=source)
    for section in SECTIONS:
        entries = data.get(section) or []
        if not isinstance(entries, list):
            raise ConfigError(f"{source}: section '{section}' must be a list")
        parsed = [_entry(raw, source, section, i, catalog) for i, raw in enumerate(entries)]
        names = [p.name for p in parsed]
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ConfigError(f"{source}: duplicate names in section '{section}': {', '.join(duplicates)}")
        setattr(catalog, section, parsed)
    return catalog


@functools.lru_cache(maxsize=16)
def _parsed_once(text: str, source: str) -> Any:
    """``load_yaml(text, source)``, parsed once per distinct (text, source): PyYAML's pure-Python scanner and the
    duplicate-key pass took 18 ms CPU per load of the built-in catalog (0.2 ms from the cache), and the CLI, run
    configs, the demo and the leaderboard load it again and again. Keyed by the text itself, so an edited file
    is parsed again however fast it changed; errors are not cached (the same text raises the same error)."""
    from benger._yaml import load_yaml  # here: a caller that only asks builtin_mentions imports no YAML parser

    return load_yaml(text, source)


def _parsed(text: str, source: str) -> Any:
    """The parsed catalog YAML, a deep copy per caller (callers may change what they get)."""
    return copy.deepcopy(_parsed_once(text, source))


#: Where the built-in catalog is named in messages.
BUILTIN_SOURCE = "benger/llm/catalog.yaml"


def builtin_text() -> str:
    """The text of the built-in catalog's YAML (read each time)."""
    return resources.files("benger.llm").joinpath("catalog.yaml").read_text(encoding="utf-8")


def builtin_mentions(names: Iterable[str]) -> bool:
    """Whether any of ``names`` occurs in the text of the built-in catalog. Every name, display name, model id
    and alias of the built-in catalog is written there verbatim (``tests/llm/test_catalog_mentions.py``), so a
    name that does not occur names no entry: a caller that only looks names up in the built-in catalog (the
    leaderboard's display names) may skip loading it (the YAML parser's import, the parse and the entries'
    validation: ~0.025 CPU-s of ``benger leaderboard`` on a store of other systems; issue 26)."""
    text = builtin_text()
    return any(name and name in text for name in names)


def load_catalog(path: str | Path | None = None) -> Catalog:
    """The built-in catalog, or a user's catalog YAML at ``path`` (same format); a new Catalog on every call
    (the file is read each time; its YAML is parsed once per distinct content)."""
    if path is None:
        text = builtin_text()
        source = BUILTIN_SOURCE
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read catalog {path}: {exc.strerror or exc}") from exc
        except UnicodeDecodeError as exc:
            raise ConfigError(f"catalog {path} is not UTF-8 text (byte {exc.start})") from None
        source = str(path)
    try:
        data = _parsed(text, source)
    except InputError as exc:  # a catalog's problems are ConfigErrors; the message names file, line and key
        raise ConfigError(str(exc)) from None
    return parse_catalog(data, source)
