"""A user's own corpus as JSONL or CSV: load with errors that name file, line and field; write JSONL/CSV."""

from __future__ import annotations

import csv
import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benger.corpora._fields import (
    FIELD_ALIASES,
    Kind,
    ProblemLog,
    build_task,
    canonical_record,
    infer_kind,
    normalise_kind,
)
from benger.corpora._reading import CsvProblem, JsonProblem, check_suffix, csv_rows, parse_json, read_text
from benger.errors import InputError, InputWarning
from benger.schema import Corpus, FalloesungTask, PrincipleItem, task_id_key

SUFFIXES = (".jsonl", ".ndjson", ".csv")
_FALLOESUNG_COLUMNS = ("task_id", "kind", "area", "difficulty", "title", "facts", "reference", "meta")
_PRINCIPLE_COLUMNS = (
    "task_id",
    "kind",
    "area",
    "principle",
    "authors",
    "case",
    "question",
    "gold_answer",
    "gold_reasoning",
    "meta",
)


def _jsonl_records(text: str, log: ProblemLog) -> Iterator[tuple[int, dict[str, Any]]]:
    # split at CR LF, LF or a lone CR (old Mac line ends; JSON strings cannot hold a raw CR, so it only ends a line),
    # not with str.splitlines, which would also break at U+2028 etc., which JSON strings may hold raw
    for number, raw_line in enumerate(re.split(r"\r\n|\r|\n", text), start=1):
        if not raw_line.strip():
            continue
        try:
            value = parse_json(raw_line)
        except JsonProblem as exc:
            log.add(f"invalid JSON: {exc.message}" + (f" (column {exc.column})" if exc.column else ""), line=number)
            continue
        if not isinstance(value, dict):
            log.add(f"expected a JSON object per line, got {type(value).__name__}", line=number)
            continue
        yield number, value


def _csv_records(text: str, log: ProblemLog) -> Iterator[tuple[int, dict[str, Any]]]:
    rows = csv_rows(text)
    try:
        first = next(rows, None)
        if first is None:
            return
        header = [h.strip() for h in first[1]]
        for index, name in enumerate(header):
            if not name:
                log.add(f"column {index + 1} of the header has no name", line=1)
            elif header.index(name) != index:
                log.add("column name used twice in the header", line=1, field=name)
        for start, row in rows:
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):  # fewer cells too: a missing comma shifts every later cell
                log.add(f"row has {len(row)} cells but the header has {len(header)} columns", line=start)
                continue
            yield start, {name: row[i] for i, name in enumerate(header) if name}
    except CsvProblem as exc:
        log.add(exc.message, line=exc.line)


def records_to_corpus(
    records: Iterator[tuple[int, dict[str, Any]]],
    *,
    log: ProblemLog,
    name: str,
    kind: Kind | None,
    description: str | None = None,
) -> Corpus:
    """Validate numbered raw records into a Corpus; every problem (up to 20) is reported at once."""
    tasks: list[FalloesungTask | PrincipleItem] = []
    seen: dict[str, tuple[int, str]] = {}
    count = 0
    for number, raw in records:
        count += 1
        record = canonical_record(raw, log, number)
        try:
            record_kind = kind or infer_kind(record)
        except ValueError as exc:
            log.add(str(exc), line=number, field=record["_source_names"].get("kind", "kind"))
            continue
        if record_kind is None:
            fields = ", ".join(sorted({*FIELD_ALIASES["facts"][:2], *FIELD_ALIASES["case"][:2]}))
            log.add(f"cannot tell the task kind: none of the fields {fields} ... is present", line=number)
            continue
        task = build_task(record, kind=record_kind, corpus=name, default_id=f"{name}-{count:04d}", log=log, line=number)
        if task is None:
            continue
        key = task_id_key(task.task_id).lower()  # one id: its NFC form, and case ignored (see _duplicate)
        if key in seen:
            first_line, first_id = seen[key]
            field = record["_source_names"].get("task_id", "task_id")
            log.add(_duplicate(task.task_id, first_id, first_line), line=number, field=field)
            continue
        seen[key] = (number, task.task_id)
        _warn_if_large(task, record["_source_names"], log.file, number)
        tasks.append(task)
    if count == 0 and not log.problems:
        log.add("the file contains no tasks")
    log.raise_if_any()
    return Corpus(name=name, tasks=tasks, description=description)


#: A text field longer than this many characters is read with a warning (InputWarning): 5x the longest text of
#: the release (a Musterlösung of 36,511 characters), ~63,000 tokens at 3.16 characters per token, more than a
#: local model's window (8,192 tokens) and half of most API models'. Whether a prompt fits a given model is
#: checked per model by ``benger estimate`` and the run (``benger.pipeline._fit``: too long, never sent).
LARGE_TEXT_CHARS = 200_000
_PROMPT_FIELDS = ("facts", "reference", "case", "question", "gold_reasoning", "title", "principle", "difficulty")


def _warn_if_large(task: FalloesungTask | PrincipleItem, names: dict[str, str], file: str | Path, line: int) -> None:
    """Warn of each text of ``task`` over :data:`LARGE_TEXT_CHARS` (a pasted document, a cell that swallowed
    more than it should), naming file, line and the field as the file spells it."""
    for name in _PROMPT_FIELDS:
        text = getattr(task, name, None)
        if isinstance(text, str) and len(text) > LARGE_TEXT_CHARS:
            warnings.warn(
                InputWarning(
                    f"a text of {len(text):,} characters (over {LARGE_TEXT_CHARS:,}): longer than the context "
                    "window of many models, whose runs will skip it as too long (`benger estimate` counts them "
                    "per model); check that the field holds only what it should",
                    file=file,
                    line=line,
                    field=names.get(name, name),
                ),
                stacklevel=2,
            )


def _duplicate(task_id: str, first_id: str, first_line: int) -> str:
    """Why ``task_id`` is refused when ``first_id`` (on ``first_line``) has the same NFC form, or differs from it
    only in case: ``Fall1`` and ``fall1`` would be one task in a spreadsheet lookup, on a case-insensitive file
    system and to a reader (docs/corpora.md)."""
    if task_id_key(task_id) == task_id_key(first_id):
        twin = "" if first_id == task_id else f" {first_id!r} in another Unicode form,"
        return f"duplicate task_id {task_id!r} (first used{twin} on line {first_line})"
    return (
        f"task_id {task_id!r} differs from {first_id!r} (line {first_line}) only in case; ids that differ only in "
        "case are one id in spreadsheets and on case-insensitive file systems: give each task a distinct id"
    )


def load_corpus_file(path: str | Path, *, name: str | None = None, kind: str | None = None) -> Corpus:
    """Load a user corpus from ``.jsonl`` (one JSON object per line) or ``.csv`` (UTF-8, header row).

    ``name`` defaults to the file stem; ``kind`` ("falloesung"/"grundprinzip") is inferred per record
    from its fields when not given. Raises one InputError listing every problem with line and field.
    """
    path = Path(path)
    suffix = check_suffix(path, SUFFIXES)
    text = read_text(path)
    try:
        fixed_kind = normalise_kind(kind) if kind is not None else None
    except ValueError as exc:
        raise InputError(str(exc), field="kind") from None
    log = ProblemLog(path)
    records = _csv_records(text, log) if suffix == ".csv" else _jsonl_records(text, log)
    return records_to_corpus(records, log=log, name=name or path.stem, kind=fixed_kind)


def _row(task: FalloesungTask | PrincipleItem) -> dict[str, Any]:
    data = task.model_dump(exclude={"corpus"}, exclude_none=True)
    if not data.get("meta"):
        data.pop("meta", None)
    return data


def write_corpus_file(corpus: Corpus, path: str | Path) -> Path:
    """Write a corpus as JSONL (one task per line) or CSV (by the suffix); ``load_corpus_file`` reads it back."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise InputError(f"unsupported file type {suffix or '(none)'!r}; expected .jsonl or .csv", file=path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [_row(task) for task in corpus.tasks]
    if suffix != ".csv":
        lines = [json.dumps(row, ensure_ascii=False) for row in rows]
        path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        return path
    kinds = {task.kind for task in corpus.tasks}
    columns: list[str] = []
    for column in (*_FALLOESUNG_COLUMNS, *_PRINCIPLE_COLUMNS):
        wanted = ("falloesung" in kinds and column in _FALLOESUNG_COLUMNS) or (
            "grundprinzip" in kinds and column in _PRINCIPLE_COLUMNS
        )
        if wanted and column not in columns:
            columns.append(column)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            if "meta" in row:
                row["meta"] = json.dumps(row["meta"], ensure_ascii=False)
            writer.writerow({column: row.get(column, "") for column in columns})
    return path
