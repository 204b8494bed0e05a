"""The one YAML reader of every user-editable YAML file (run configs, catalogs, rubrics, Gutachten rules).

``yaml.safe_load`` lets the last of two equal keys in one mapping win silently (``price: 2`` then
``price: 5`` reads as 5); :func:`load_yaml` refuses that, and turns PyYAML's own failures (syntax, nesting
too deep, an integer of more than 4,300 digits) into one :class:`~benger.errors.InputError` naming the file
and the 1-based line. Keys brought in by a YAML merge (``<<: *anchor``) may be overridden, as YAML intends.

Parsed with libyaml (``yaml.CSafeLoader``, ~8x faster than PyYAML's pure-Python scanner: the built-in catalog
and rubric that ``benger leaderboard`` reads took ~35 ms CPU; issue 26) where PyYAML was built with it; a text
it refuses is parsed again by the pure-Python loader, whose message and line are the ones reported.

The text is read in Unicode NFC (as ``benger.corpora._reading.read_text`` returns every file): a key or value
written with decomposed umlauts (NFD, as macOS writes them) means the same as the composed one, and so does one
written as a double-quoted escape (``"O\u0308ffentliches Recht"``: every parsed string goes through
``benger.text.nfc``).
"""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import yaml

from benger.errors import InputError
from benger.text import nfc

#: libyaml's parser under PyYAML's safe constructor (the same values), None where PyYAML lacks libyaml.
_FAST_LOADER: type[yaml.SafeLoader] | None = getattr(yaml, "CSafeLoader", None)


Duplicate = tuple[str, str, int, int, bool]


def duplicate_key(text: str, loader: Any = yaml.SafeLoader) -> Duplicate | None:
    """The first key given twice in one mapping of ``text``: (field, key, its line, line of its first use,
    whether the two are written in different Unicode forms).

    Keys are compared in NFC, the form :func:`load_yaml` returns them in: ``Musterlösung`` and the escaped
    ``"Musterlo\\u0308sung"`` are one key given twice (one value would be lost when both are read as NFC).
    ``field`` is the dotted path of the repeated key (``systems[1].price_in_per_mtok``); lines are 1-based.
    None when every mapping has distinct keys. Raises ``yaml.YAMLError`` on text that is not YAML. ``loader``:
    the PyYAML loader class that composes the node tree (its marks give the lines).
    """
    root = yaml.compose(text, Loader=loader)
    stack: list[tuple[yaml.Node, tuple[int | str, ...]]] = [(root, ())] if root is not None else []
    visited: set[int] = set()  # an alias is the same node again (and may point at its own parent)
    while stack:
        node, loc = stack.pop()
        if id(node) in visited:
            continue
        visited.add(id(node))
        if isinstance(node, yaml.MappingNode):
            seen: dict[tuple[str, str], tuple[int, str]] = {}
            children: list[tuple[yaml.Node, tuple[int | str, ...]]] = []
            for key, value in node.value:
                if not isinstance(key, yaml.ScalarNode) or key.tag == "tag:yaml.org,2002:merge":
                    continue
                line, name = int(key.start_mark.line) + 1, nfc(key.value)
                if (key.tag, name) in seen:  # compared in NFC, as they are read: an escaped NFD twin is the same key
                    first, spelled = seen[(key.tag, name)]
                    field = "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in (*loc, name))
                    return field.lstrip("."), name, line, first, spelled != key.value
                seen[(key.tag, name)] = line, key.value
                children.append((value, (*loc, name)))
            stack.extend(reversed(children))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((item, (*loc, i)) for i, item in reversed(list(enumerate(node.value))))
    return None


def load_yaml(text: str, source: str | Path) -> Any:
    """Parse ``text`` (the content of ``source``) with the safe loader; refuse a key given twice.

    Returns what ``yaml.safe_load`` returns (None for an empty document). Raises InputError naming
    ``source``, the 1-based line and (for a repeated key) its field: not valid YAML, nested too deeply,
    a number Python cannot hold, or a duplicate key. ``text`` is read in NFC (see the module docstring).
    """
    text = unicodedata.normalize("NFC", text)
    if _FAST_LOADER is not None:
        try:
            fast = yaml.load(text, Loader=_FAST_LOADER), duplicate_key(text, _FAST_LOADER)
        except (yaml.YAMLError, RecursionError, ValueError):
            pass  # the pure-Python loader below names the problem as it always did
        else:
            return _checked(*fast, source)
    try:
        data = yaml.safe_load(text)
        duplicate = duplicate_key(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = getattr(mark, "line", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(
            f"not valid YAML: {problem}", file=source, line=line + 1 if line is not None else None
        ) from None
    except RecursionError:
        raise InputError("the YAML is nested too deeply", file=source) from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise InputError(f"not readable YAML: {exc}", file=source) from None
    return _checked(data, duplicate, source)


def _checked(data: Any, duplicate: Duplicate | None, source: str | Path) -> Any:
    """``data``, or the InputError of its ``duplicate`` key (from :func:`duplicate_key`)."""
    if duplicate is not None:
        field, key, line, first, twin = duplicate
        other = ", written there in another Unicode form" if twin else ""
        raise InputError(
            f"duplicate key {key!r} (first on line {first}{other}); give each key once",
            file=source,
            line=line,
            field=field,
        )
    return nfc(data)  # the one NFC rule of every reader (benger.text.nfc): escapes ("O\u0308") too
