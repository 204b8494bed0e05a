"""Text safety: the one place that makes text and JSON values storable on every backend, losslessly.

PostgreSQL cannot store the NUL character (U+0000) in ``TEXT``/``VARCHAR`` nor ``\\u0000`` in ``JSONB``;
SQLite can. So that a model reply or a corpus text with NUL is neither lost nor a traceback, every row
the store writes passes :func:`storable`: when a free-text (``Text``) or JSON column holds a NUL, every
string of those columns is escaped (backslash -> ``\\\\``, NUL -> ``\\0``) and the row is flagged with
``ESCAPED_KEY: True`` in its JSON flag column (``meta``, ``details``, ``payload`` or ``config``). Reading
(:func:`restored`) reverses this only for flagged rows, so rows written before (or without a NUL) read
unchanged. The same escaping runs on SQLite, so both backends hold the same bytes.

Tables written through the ORM (the study platform's drafts, submissions, justifications, margin notes,
skip reasons, AI tools, problem reports) use the column types :class:`StorableText`, :class:`StorableString`
and :class:`StorableJSON` instead of a flag column: the same :func:`escape` runs per string, and a string that
needed it is written with the prefix :data:`ESCAPED_PREFIX` (a private-use character and a tag), which reading
removes before :func:`unescape`. A string that happens to start with the prefix is escaped too, so every
string reads back as written, and rows written before read unchanged.

A NUL in a key or short label column (``String``: ids, names, hashes) is refused with an ``InputError``
naming the column: such a value is never a legitimate id. So is a value longer than the column's declared
length (``String(200)``): PostgreSQL refuses it (``value too long``), SQLite would keep it, so a store would
hold what its PostgreSQL twin cannot; both refuse it here, before anything is written.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, String, Text
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

from benger.errors import InputError

if TYPE_CHECKING:  # the ORM is imported by the models, never by a Core-only reader (issue 26)
    from sqlalchemy.orm import DeclarativeBase

#: The flag a row carries in its JSON flag column when its text was escaped.
ESCAPED_KEY = "_benger_escaped"
NUL = "\x00"
_FLAG_COLUMNS = ("meta", "details", "payload", "config")
_UNESCAPE = re.compile(r"\\(\\|0)")


def escape(text: str) -> str:
    """``text`` with backslashes doubled and NUL written as ``\\0`` (reversed by :func:`unescape`)."""
    return text.replace("\\", "\\\\").replace(NUL, "\\0")


def unescape(text: str) -> str:
    """The inverse of :func:`escape`."""
    return _UNESCAPE.sub(lambda m: "\\" if m.group(1) == "\\" else NUL, text)


def has_nul(value: Any) -> bool:
    """True when ``value`` (a string or any JSON-like structure, keys included) contains a NUL."""
    if isinstance(value, str):
        return NUL in value
    if isinstance(value, dict):
        return any(has_nul(k) or has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(has_nul(v) for v in value)
    return False


def _walk(value: Any, fn: Any) -> Any:
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, dict):
        return {fn(k) if isinstance(k, str) else k: _walk(v, fn) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_walk(v, fn) for v in value]
    return value


def _table_name(model: type[DeclarativeBase]) -> str:
    return str(getattr(model.__table__, "name", model.__table__))


@cache
def layout(model: type[DeclarativeBase]) -> tuple[tuple[str, ...], tuple[tuple[str, int | None], ...], str | None]:
    """(free-text and JSON columns, key/label string columns with their declared length, flag column) of
    ``model``'s table."""
    free: list[str] = []
    short: list[tuple[str, int | None]] = []
    for column in model.__table__.columns:
        if isinstance(column.type, Text | JSON):
            free.append(column.name)
        elif isinstance(column.type, String):
            short.append((column.name, column.type.length))
    flag = next((name for name in _FLAG_COLUMNS if name in free), None)
    return tuple(free), tuple(short), flag


def storable(model: type[DeclarativeBase], values: dict[str, Any]) -> dict[str, Any]:
    """``values`` ready to write into ``model``'s table: escaped and flagged when it holds a NUL.

    Raises InputError when a key or label column holds a NUL or more characters than the column's declared
    length, or when a table without a flag column (``corpora``) would need escaping.
    """
    free, short, flag = layout(model)
    for name, length in short:
        value = values.get(name)
        if not isinstance(value, str):
            continue
        if NUL in value:
            raise InputError(f"the {_table_name(model)} value {value!r} contains a NUL character (U+0000)", field=name)
        if length is not None and len(value) > length:
            raise InputError(
                f"the {_table_name(model)} value {value[:40]!r}... has {len(value)} characters; the store holds at "
                f"most {length}",
                field=name,
            )
    if not any(has_nul(values.get(name)) for name in free):
        return values
    if flag is None:
        bad = next(name for name in free if has_nul(values.get(name)))
        raise InputError(f"the {_table_name(model)} text contains a NUL character (U+0000)", field=bad)
    out = dict(values)
    for name in free:
        if out.get(name) is not None:
            out[name] = _walk(out[name], escape)
    out[flag] = {**(out.get(flag) or {}), ESCAPED_KEY: True}
    return out


def restored(model: type[DeclarativeBase], values: dict[str, Any]) -> dict[str, Any]:
    """Column values of a ``model`` row as read back: unescaped when the row carries the flag."""
    free, _short, flag = layout(model)
    marker = values.get(flag) if flag is not None else None
    if flag is None or not isinstance(marker, dict) or not marker.get(ESCAPED_KEY):
        return values
    out = dict(values)
    out[flag] = {k: v for k, v in marker.items() if k != ESCAPED_KEY}
    for name in free:
        if out.get(name) is not None:
            out[name] = _walk(out[name], unescape)
    return out


def restored_json(value: Any) -> Any:
    """A JSON value that carries its own flag (a task ``payload``, metric ``details``, system ``config``)."""
    if not isinstance(value, dict) or not value.get(ESCAPED_KEY):
        return value
    return _walk({k: v for k, v in value.items() if k != ESCAPED_KEY}, unescape)


#: Written before a string stored escaped by the column types below (U+E000 is a private-use character).
ESCAPED_PREFIX = "\ue000benger-escaped:"


def to_column(text: str) -> str:
    """``text`` as a column value every backend stores: unchanged unless it holds a NUL (or starts with
    ESCAPED_PREFIX), then ESCAPED_PREFIX + :func:`escape`. Reversed by :func:`from_column`."""
    if NUL in text or text.startswith(ESCAPED_PREFIX):
        return ESCAPED_PREFIX + escape(text)
    return text


def from_column(text: str) -> str:
    """The inverse of :func:`to_column`."""
    return unescape(text[len(ESCAPED_PREFIX) :]) if text.startswith(ESCAPED_PREFIX) else text


class StorableText(TypeDecorator[str]):
    """``Text`` that stores any string, NUL included, on SQLite and PostgreSQL (see :func:`to_column`)."""

    impl = Text
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        return None if value is None else to_column(value)

    def process_result_value(self, value: str | None, dialect: Dialect) -> str | None:
        return None if value is None else from_column(value)


class StorableString(TypeDecorator[str]):
    """``String(length)`` for free text (a reason, a note): NUL stored as in :class:`StorableText`.

    Callers cut free text to the column's length; when escaping makes the stored form longer than that, the
    text's end is cut until it fits (PostgreSQL would refuse it, SQLite keep it)."""

    impl = String
    cache_ok = True

    def process_bind_param(self, value: str | None, dialect: Dialect) -> str | None:
        if value is None:
            return None
        stored, length = to_column(value), getattr(self.impl, "length", None)
        while length is not None and len(stored) > length:  # escaping made it longer: cut the text's end
            value = value[: len(value) - (len(stored) - length)]
            stored = to_column(value)
        return stored

    def process_result_value(self, value: str | None, dialect: Dialect) -> str | None:
        return None if value is None else from_column(value)


class StorableJSON(TypeDecorator[Any]):
    """The store's JSON (JSONB on PostgreSQL) with every string, keys included, passed through :func:`to_column`."""

    impl = JSON
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name != "postgresql":
            return dialect.type_descriptor(JSON())
        from sqlalchemy.dialects.postgresql import JSONB  # here: an SQLite store never loads the dialect

        return dialect.type_descriptor(JSONB())

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        return None if value is None else _walk(value, to_column)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        return None if value is None else _walk(value, from_column)
