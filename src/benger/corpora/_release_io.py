"""Small validated readers for the release files: every failure is an InputError naming file, record and field."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

from benger.errors import InputError


def read_json(path: Path) -> Any:
    if not path.is_file():
        raise InputError("release file is missing", file=path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON (truncated or corrupt?): {exc.msg}", file=path, line=exc.lineno) from exc
    except UnicodeDecodeError as exc:
        raise InputError("not UTF-8 text", file=path) from exc


def read_csv(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        raise InputError("release file is missing", file=path)
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def as_list(data: Any, path: Path, n: int | None = None) -> list[Any]:
    if not isinstance(data, list):
        raise InputError(f"expected a JSON list, got {type(data).__name__}", file=path)
    if n is not None and len(data) != n:
        raise InputError(f"expected {n} records, found {len(data)} (truncated?)", file=path)
    return data


def get_field(
    rec: Any, key: str, kind: type | tuple[type, ...], path: Path, idx: int, *, nullable: bool = False
) -> Any:
    if not isinstance(rec, dict):
        raise InputError("record is not a JSON object", file=path, line=idx)
    if key not in rec:
        raise InputError("required field is missing", file=path, line=idx, field=key)
    value = rec[key]
    if value is None and nullable:
        return None
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise InputError(f"expected {getattr(kind, '__name__', kind)}, got {value!r}", file=path, line=idx, field=key)
    return value


def parse_float(text: str, path: Path, idx: int, key: str) -> float:
    try:
        return float(text)
    except (TypeError, ValueError) as exc:
        raise InputError(f"expected a number, got {text!r}", file=path, line=idx, field=key) from exc
