"""Reading and whole-file validation of the release files: every failure is one InputError naming the file,
the line an editor shows (found by :func:`benger.corpora._reading.line_of`), the 1-based record and the field.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

from benger.corpora._reading import csv_records, line_of, read_json_file
from benger.errors import InputError

T = TypeVar("T")


class JsonFile:
    """One release JSON file: its path, text (for line numbers) and parsed value."""

    def __init__(self, path: Path) -> None:
        if not path.exists():
            raise InputError("release file is missing", file=path)
        self.path = path
        self.data, self.text = read_json_file(path)

    def validate(
        self, kind: Any, *, context: dict[str, Any] | None = None, unique: str | tuple[str, ...] | None = None
    ) -> Any:
        """The data validated as ``kind`` (a model or e.g. ``list[Model]``), or one InputError.

        ``unique`` names the id field (or the fields of the key) of a list of records: a second record with
        the same key is an InputError at the second record (its line, record number and the key's last
        field), naming the first.
        """
        try:
            value = TypeAdapter(kind).validate_python(self.data, context=context)
        except ValidationError as exc:
            raise validation_error(exc, self.path, self.text) from None
        if unique is not None:
            duplicate = first_duplicate(value, unique)
            if duplicate is not None:
                idx, message, field = duplicate
                raise self.error(f"{message} (first in record {idx[0] + 1})", (idx[1], field), field)
        return value

    def error(self, message: str, path: tuple[int | str, ...], field: str | None = None) -> InputError:
        """An InputError about the value at ``path`` (record index first) of this file."""
        record = path[0] + 1 if path and isinstance(path[0], int) else None
        return InputError(message, file=self.path, line=line_of(self.text, list(path)), record=record, field=field)


def first_duplicate(records: Any, unique: str | tuple[str, ...]) -> tuple[tuple[int, int], str, str] | None:
    """The first record whose key (the ``unique`` field or fields) an earlier record has:
    ``((first index, its index), "duplicate <fields> <key>", the key's last field)``, or None.

    A released record twice (a review, an anchor score) would silently count twice or replace the first.
    """
    fields = (unique,) if isinstance(unique, str) else unique
    seen: dict[Any, int] = {}
    for idx, record in enumerate(records):
        key = tuple(getattr(record, f) for f in fields)
        if key in seen:
            shown = repr(key[0]) if len(key) == 1 else repr(key)
            return (seen[key], idx), f"duplicate {' + '.join(fields)} {shown}", fields[-1]
        seen[key] = idx
    return None


def _field(loc: tuple[int | str, ...]) -> str | None:
    out = ""
    for step in loc:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or None


def _message(error: Any) -> str:
    message = str(error["msg"]).removeprefix("Value error, ")
    if error["type"] not in ("missing", "value_error") and "input" in error:
        shown = repr(error["input"])
        message += f", got {shown if len(shown) <= 60 else shown[:57] + '...'}"
    return message


def validation_error(exc: ValidationError, path: Path, text: str) -> InputError:
    """The first problem of a pydantic ValidationError as file:line, record and field (plus how many more)."""
    errors = exc.errors()
    first = errors[0]
    loc = tuple(step for step in first["loc"] if isinstance(step, int | str))
    record = loc[0] + 1 if loc and isinstance(loc[0], int) else None
    field = _field(loc[1:] if record is not None else loc)
    message = _message(first)
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem(s) in this file)"
    return InputError(message, file=path, line=line_of(text, list(loc)), record=record, field=field)


def read_csv(path: Path, model: type[T], *, unique: tuple[str, ...] | None = None) -> list[T]:
    """A release CSV file validated row by row as ``model``; problems name file, line and column.

    ``unique``: the columns of the rows' key; a row that repeats an earlier row's key is an InputError at its
    line, naming the first row's line."""
    if not path.exists():
        raise InputError("release file is missing", file=path)
    fields = getattr(model, "model_fields", {})
    required = [name for name, info in fields.items() if info.is_required()]
    adapter = TypeAdapter(model)
    out: list[T] = []
    lines: list[int] = []
    for line, cells in csv_records(path, required, "required column missing from the header"):
        try:
            out.append(adapter.validate_python(cells))
        except ValidationError as exc:
            first = exc.errors()[0]
            raise InputError(_message(first), file=path, line=line, field=_field(first["loc"])) from None
        lines.append(line)
    if not out:
        raise InputError("no data rows below the header (truncated?)", file=path)
    duplicate = first_duplicate(out, unique) if unique else None
    if duplicate is not None:
        (earlier, later), message, field = duplicate
        raise InputError(f"{message} (first on line {lines[earlier]})", file=path, line=lines[later], field=field)
    return out
