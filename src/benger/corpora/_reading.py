"""The one reader of every importer's files (user JSONL/CSV, ZJS export, release files): text and JSON.

:func:`read_text` decodes every file type the same way: UTF-8, with or without a byte-order mark
(a UTF-16 file with its BOM is decoded too; one without is named as UTF-16, not misread); bad bytes are an
InputError naming the line. The text comes back in Unicode NFC: macOS (and some editors) write umlauts
decomposed (NFD, ``o`` + combining diaeresis), which would make a header ``Musterlösung`` or an area
``Öffentliches Recht`` differ from the names benger knows although a reader cannot tell them apart (issue 33,
item 1). :func:`parse_json` returns every string and key in NFC too (:func:`benger.text.nfc`), so a JSON escape
(``"O\\u0308ffentliches Recht"``, a decomposed ``musterlo\\u0308sung`` key) reads as the composed name.
:func:`check_suffix` refuses a file type benger does not read, a spreadsheet with the hint to save it as CSV UTF-8.

Plain ``json.loads`` accepts things benger must not: ``NaN``/``Infinity`` (not JSON), ``1e999`` (read as
``inf``), an object with the same key twice (the last silently wins), integers of any size (over 4,300
digits Python raises ValueError) and any nesting depth (RecursionError). :func:`parse_json` rejects all of
them with a :class:`JsonProblem` that carries the 1-based line and column; :func:`line_of` finds the line
of a value inside a document (a list index or an object key per step), so validation errors of a record's
field point at the line an editor shows.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import math
import re
import unicodedata
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from benger.errors import InputError
from benger.text import nfc

#: Deepest nesting of lists/objects accepted (the release needs 4; user ``meta`` dicts a few more).
MAX_DEPTH = 64
#: Integers must fit a signed 64-bit column (what SQLite and PostgreSQL store).
INT_MIN, INT_MAX = -(2**63), 2**63 - 1

_STRING = re.compile(r'"[^"\\\n]*(?:\\.[^"\\\n]*)*"')
_BRACKET = re.compile(r"[\[\]{}]")
_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


class JsonProblem(ValueError):
    """Why a text is not acceptable JSON, with its 1-based line and column (None when unknown)."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class _Reject(ValueError):
    def __init__(self, message: str, token: str | None) -> None:
        super().__init__(message)
        self.message = message
        self.token = token


def _blank_strings(text: str) -> str:
    """``text`` with every string literal's content replaced by spaces (offsets and lines are kept)."""
    return _STRING.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _check_depth(blank: str) -> None:
    depth = 0
    for match in _BRACKET.finditer(blank):
        if match.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise JsonProblem(f"nested deeper than {MAX_DEPTH} levels", *_position(blank, match.start()))
        else:
            depth -= 1


def _int(token: str) -> int:
    if len(token) > 20:  # cheaper than int() on 10,000 digits; 2**63 has 19
        raise _Reject(f"integer with {len(token.lstrip('-'))} digits does not fit 64 bits", token)
    value = int(token)
    if not INT_MIN <= value <= INT_MAX:
        raise _Reject(f"integer {token} does not fit 64 bits", token)
    return value


def _float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise _Reject(f"number {token} is out of range", token)
    return value


def _constant(token: str) -> Any:
    raise _Reject(f"{token} is not a JSON number (NaN and Infinity are not allowed)", token)


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    return _object_of(pairs, nfc)


def _object_as_written(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    return _object_of(pairs, lambda key: key)


def _object_of(pairs: list[tuple[str, Any]], key_form: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for raw, value in pairs:
        key = key_form(raw)  # NFC keys: "musterlo\u0308sung" and "musterlösung" are one key, twice is an error
        if key in out:
            raise _Reject(f"key {key!r} appears twice in one object (one value would be lost)", None)
        out[key] = value
    return out


def _token_offset(blank: str, token: str) -> int | None:
    match = re.search(r"(?<![\w.+-])" + re.escape(token) + r"(?![\w.])", blank)
    return match.start() if match else None


def parse_json(text: str, *, as_written: bool = False) -> Any:
    """Parse ``text`` as strict JSON; raises :class:`JsonProblem` (with line/column) on anything else.

    Every string and key comes back in NFC (:func:`nfc`), as every corpus reader must see them; ``as_written``
    keeps them as the text has them (a benger export's JSON cells, which must round-trip byte for byte)."""
    blank = _blank_strings(text)
    if blank.count("[") + blank.count("{") > MAX_DEPTH:
        _check_depth(blank)
    hook = _object_as_written if as_written else _object
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant, object_pairs_hook=hook)
        return value if as_written else nfc(value)
    except json.JSONDecodeError as exc:
        raise JsonProblem(exc.msg, exc.lineno, exc.colno) from None
    except _Reject as exc:
        offset = _token_offset(blank, exc.token) if exc.token else None
        line, column = _position(text, offset) if offset is not None else (None, None)
        raise JsonProblem(exc.message, line, column) from None
    except RecursionError:  # not reached after the depth check; kept as the last guard
        raise JsonProblem(f"nested deeper than {MAX_DEPTH} levels") from None


#: files a spreadsheet program writes that benger does not read, with what to save them as instead
SPREADSHEET_FILES = {
    ".xlsx": "an Excel workbook",
    ".xlsm": "an Excel workbook",
    ".xls": "an Excel workbook",
    ".ods": "an OpenDocument spreadsheet",
    ".numbers": "a Numbers spreadsheet",
    ".tsv": "tab-separated text",
    ".tab": "tab-separated text",
}


def check_suffix(path: Path, suffixes: Sequence[str]) -> str:
    """The lower-case suffix of ``path`` when it is one of ``suffixes``; else an InputError naming the file and
    the types read (a spreadsheet or tab-separated file gets the hint to save it as 'CSV UTF-8')."""
    suffix = path.suffix.lower()
    if suffix in suffixes:
        return suffix
    expected = " or ".join(dict.fromkeys(s for s in suffixes if s != ".ndjson"))
    what = SPREADSHEET_FILES.get(suffix)
    if what is not None:
        raise InputError(
            f"{what} ({suffix}): benger reads {expected} files; in the spreadsheet program save it as "
            "'CSV UTF-8 (comma-delimited)' and import the .csv",
            file=path,
        )
    raise InputError(f"unsupported file type {suffix or '(none)'!r}; expected {expected}", file=path)


def read_text(path: Path) -> str:
    """The file as NFC text: UTF-8 (a BOM is dropped) or UTF-16 with its BOM; problems are InputErrors."""
    return unicodedata.normalize("NFC", _decoded(path))


def _decoded(path: Path) -> str:
    if not path.exists():
        raise InputError("file not found", file=path)
    if path.is_dir():
        raise InputError("is a directory, expected a file", file=path)
    if not path.is_file():  # a FIFO, socket or device: reading it could wait forever
        raise InputError("not a regular file (a FIFO, socket or device); benger reads regular files only", file=path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read the file: {exc.strerror or exc}", file=path) from None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise InputError("not valid UTF-16 text (after a UTF-16 byte-order mark)", file=path) from None
    if _looks_like_utf16(data):
        raise InputError(
            "looks like UTF-16 text without a byte-order mark (every other byte is 0); benger reads UTF-8: "
            "save the file as UTF-8 (in a spreadsheet: 'CSV UTF-8 (comma-delimited)')",
            file=path,
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); save the file as UTF-8",
            file=path,
            line=line,
        ) from None


def _looks_like_utf16(data: bytes) -> bool:
    """True when the start of ``data`` has NUL bytes at alternate positions, as UTF-16 text of mostly Latin
    letters has (``t\\0a\\0`` little-endian, ``\\0t\\0a`` big-endian); UTF-8 text holds no NUL bytes at all."""
    head = data[:4096]
    if len(head) < 2 or b"\0" not in head:
        return False
    halves = head[0::2], head[1::2]
    return any(
        half.count(0) >= 0.3 * len(half) and other.count(0) <= 0.05 * len(other)
        for half, other in (halves, halves[::-1])
    )


def read_json_file(path: Path) -> tuple[Any, str]:
    """The parsed value and the text of a JSON file.

    Raises :class:`InputError` naming ``path`` and the line for a missing/unreadable file, bad bytes or bad JSON.
    """
    text = read_text(path)
    try:
        return parse_json(text), text
    except JsonProblem as exc:
        where = f" (column {exc.column})" if exc.column is not None else ""
        raise InputError(f"not valid JSON: {exc.message}{where}", file=path, line=exc.line) from None


def line_of(text: str, path: Sequence[str | int]) -> int | None:
    """The 1-based line where the value at ``path`` (list indexes / object keys) starts in the JSON ``text``.

    Walks as far along ``path`` as the document goes: a key that is missing gives the line of the object
    that lacks it. None when ``text`` is not a JSON document at all.
    """
    try:
        pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
        for step in path:
            if pos >= len(text):
                break
            opener = text[pos]
            if opener == "[" and isinstance(step, int):
                found = _list_item(text, pos, step)
            elif opener == "{" and isinstance(step, str):
                found = _object_value(text, pos, step)
            else:
                break
            if found is None:
                break
            pos = found
    except (ValueError, IndexError):
        return None
    return text.count("\n", 0, pos) + 1


def _skip(text: str, pos: int) -> int:
    return _WS.match(text, pos).end()  # type: ignore[union-attr]


def _list_item(text: str, pos: int, index: int) -> int | None:
    pos = _skip(text, pos + 1)
    for _ in range(index):
        if text[pos] == "]":
            return None
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if text[pos] != ",":
            return None
        pos = _skip(text, pos + 1)
    return None if text[pos] == "]" else pos


def _object_value(text: str, pos: int, key: str) -> int | None:
    pos = _skip(text, pos + 1)
    while text[pos] != "}":
        name, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if text[pos] != ":":
            return None
        pos = _skip(text, pos + 1)
        if name == key:
            return pos
        _, pos = _DECODER.raw_decode(text, pos)
        pos = _skip(text, pos)
        if text[pos] == ",":
            pos = _skip(text, pos + 1)
    return None


def csv_rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """The rows of comma-separated ``text`` with the line each starts on (header first, line 1).

    Dialect problems raise a :class:`CsvProblem` that names them: a quote that is
    never closed (it would swallow every later row), text after a closing quote, and a header that is
    separated by ``;`` or tabs instead of commas.

    A cell may be as long as the text (a whole Falllösung of 200,000 characters): the csv module's field limit
    (131,072 characters by default, process-wide) is raised to the text's length, never lowered, so a long
    legitimate cell is read and an unclosed quote is still reported as such (it runs to the end of the text).
    """
    if csv.field_size_limit() <= len(text):
        csv.field_size_limit(len(text) + 1)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    end = 0
    first = True
    while True:
        start = end + 1  # a quoted cell may span lines: a row is reported at its first line
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise CsvProblem(_csv_message(str(exc), start), start) from None
        end = reader.line_num
        if first:
            first = False
            _check_delimiter(row)
        yield start, row


def csv_records(path: Path, required: Sequence[str], missing: str) -> Iterator[tuple[int, dict[str, str]]]:
    """The data rows of the CSV file at ``path`` as (line, column name -> cell), header names stripped and blank
    rows skipped. The first problem is an InputError naming file and line: a column of ``required`` absent from
    the header (``missing`` says what was expected; the columns found are listed), a row whose cell count differs
    from the header's, or a CSV dialect problem (:class:`CsvProblem`)."""
    rows = csv_rows(read_text(path))
    try:
        _, header = next(rows, (1, []))
        header = [name.strip() for name in header]
        absent = [name for name in required if name not in header]
        if absent:
            found = ", ".join(header) or "nothing"
            raise InputError(f"{missing} (found: {found})", file=path, line=1, field=absent[0])
        for line, row in rows:
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise InputError(f"row has {len(row)} cells, the header {len(header)} columns", file=path, line=line)
            yield line, dict(zip(header, row, strict=True))
    except CsvProblem as exc:
        raise InputError(exc.message, file=path, line=exc.line) from None


class CsvProblem(ValueError):
    """A CSV dialect problem (unclosed quote, wrong delimiter) at a 1-based line."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def _csv_message(error: str, start: int) -> str:
    if "unexpected end of data" in error:
        return (
            f"unclosed quote: a quoted cell of the row starting on line {start} is never closed, so every later "
            'line would be read into it; close the quote (write a quote inside a cell as "")'
        )
    if "expected after" in error:
        return f'text after a closing quote ({error}); a quote inside a cell must be written as ""'
    return f"malformed CSV: {error}"


def _check_delimiter(header: list[str]) -> None:
    if len(header) != 1:
        return
    for delimiter, name in ((";", "semicolons"), ("\t", "tabs")):
        if header[0].count(delimiter) >= 1:
            raise CsvProblem(
                f"the header is separated by {name}, not commas: benger reads comma-separated CSV "
                "(in a spreadsheet: save as 'CSV UTF-8 (comma-delimited)')",
                1,
            )
