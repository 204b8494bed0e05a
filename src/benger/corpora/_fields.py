"""Field names, aliases and the record-to-task conversion shared by the user-file and ZJS loaders.

A raw record is a flat ``dict`` read from one JSONL line, one CSV row or one ZJS task. Keys are
matched after normalisation (case, umlauts, spaces), so ``Musterlösung``, ``musterloesung`` and
``reference`` all name the reference solution. Problems are collected per file and reported
together by :class:`CorpusFileError` (a :class:`benger.errors.InputError`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from benger.corpora._reading import JsonProblem, parse_json
from benger.errors import InputError
from benger.schema import FalloesungTask, PrincipleItem, check_task_id, normalise_answer, normalise_area

if TYPE_CHECKING:
    from benger.judge import Rubric

Kind = Literal["falloesung", "grundprinzip"]
MAX_PROBLEMS = 20

# canonical field -> accepted spellings (after _norm_key)
FIELD_ALIASES: dict[str, tuple[str, ...]] = {
    "task_id": ("task_id", "id", "taskid", "aufgabe_id"),
    "kind": ("kind", "typ", "art"),
    "area": ("area", "bereich", "rechtsgebiet"),
    "facts": ("facts", "sachverhalt", "angabe"),
    "reference": ("reference", "musterloesung", "loesung", "solution", "reference_solution"),
    "difficulty": ("difficulty", "schwierigkeit", "schwierigkeitsgrad", "niveau", "level"),
    "title": ("title", "titel"),
    "case": ("case", "fall"),
    "question": ("question", "frage", "fragestellung", "task"),
    "gold_answer": ("gold_answer", "antwort", "answer", "binary_solution", "loesung_ja_nein"),
    "gold_reasoning": ("gold_reasoning", "begruendung", "reasoning"),
    "principle": ("principle", "grundprinzip", "prinzip"),
    "authors": ("authors", "autoren", "autor"),
    "rubric": ("rubric", "bewertungsbogen", "rubrik"),
    "meta": ("meta",),
}
_ALIAS_TO_FIELD: dict[str, str] = {alias: canon for canon, aliases in FIELD_ALIASES.items() for alias in aliases}

REQUIRED: dict[Kind, tuple[str, ...]] = {
    "falloesung": ("area", "facts", "reference"),
    "grundprinzip": ("area", "case", "question", "gold_answer", "gold_reasoning"),
}
_KIND_MARKERS: dict[Kind, tuple[str, ...]] = {
    "falloesung": ("facts", "reference"),
    "grundprinzip": ("case", "question", "gold_answer", "gold_reasoning"),
}
_TEXT_FIELDS = ("facts", "reference", "case", "question", "gold_reasoning")
_OPTIONAL_TEXT = ("difficulty", "title", "principle", "authors")
#: The fields a task of each kind has; the other kind's fields on a record are kept in its ``meta``.
_OWN: dict[Kind, tuple[str, ...]] = {
    "falloesung": ("area", "facts", "reference", "difficulty", "title"),
    "grundprinzip": ("area", "case", "question", "gold_answer", "gold_reasoning", "principle", "authors"),
}
_ALL_FIELDS = (*_TEXT_FIELDS, "gold_answer", *_OPTIONAL_TEXT)


def column_key(key: str) -> str:
    """The one matching form of a column or field name (corpus fields, review columns and dimensions): case and
    surrounding space ignored, umlauts written out (``Musterlösung`` = ``musterloesung``), spaces/hyphens as ``_``."""
    return _norm_key(key)


def _norm_key(key: str) -> str:
    key = key.strip().lower()
    for src, dst in (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("ß", "ss"), (" ", "_"), ("-", "_")):
        key = key.replace(src, dst)
    return key


def normalise_kind(value: str) -> Kind:
    """Map "falloesung"/"Falllösung"/"grundprinzip"/"grundprinzipien" to a task kind."""
    key = _norm_key(value)
    if key in ("falloesung", "falllosung", "falllloesung", "fallloesung", "case_solution"):
        return "falloesung"
    if key in ("grundprinzip", "grundprinzipien", "principle", "principles", "gp"):
        return "grundprinzip"
    raise ValueError(f"unknown task kind {value!r}; expected 'falloesung' or 'grundprinzip'")


@dataclass
class Problem:
    """One problem found in a file: line (1-based, as an editor counts) and field may be unknown."""

    message: str
    line: int | None = None
    field: str | None = None
    unit: str = "line"

    def where(self) -> str:
        parts = [f"{self.unit} {self.line}" if self.line is not None else "file"]
        if self.field is not None:
            parts.append(f"field '{self.field}'")
        return ", ".join(parts)


#: For files whose problems are numbered by record (``unit`` other than "line"): the editor line of
#: record N's field (or of the record), or None.
Locate = Callable[[int, str | None], int | None]


class CorpusFileError(InputError):
    """All problems found in one corpus file (up to MAX_PROBLEMS), the first one as file/line/field.

    In files numbered by record (the ZJS export: ``unit="task"``) the first problem's number is its
    ``record`` and ``line`` is the line an editor shows (from ``locate``), never the record number.
    """

    def __init__(
        self, file: str | Path, problems: list[Problem], *, more: int = 0, locate: Locate | None = None
    ) -> None:
        self.problems = problems
        first = problems[0]
        message = first.message
        line, record = first.line, None
        if first.unit != "line":
            record, line = first.line, None
            if record is not None and locate is not None:
                line = locate(record, first.field)
        total = len(problems) + more
        if total > 1:
            listing = "\n".join(f"  - {p.where()}: {p.message}" for p in problems)
            tail = f"\n  ... and {more} more" if more else ""
            message = f"{first.message}\n{total} problems in {file}:\n{listing}{tail}"
        super().__init__(message, file=file, line=line, field=first.field, record=record)


@dataclass
class ProblemLog:
    """Collects problems of one file; ``raise_if_any`` raises them as one CorpusFileError."""

    file: str | Path
    unit: str = "line"
    problems: list[Problem] = field(default_factory=list)
    more: int = 0
    locate: Locate | None = None

    def add(self, message: str, *, line: int | None = None, field: str | None = None) -> None:
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(message, line, field, self.unit))
        else:
            self.more += 1

    def raise_if_any(self) -> None:
        if self.problems:
            raise CorpusFileError(self.file, self.problems, more=self.more, locate=self.locate)


def canonical_record(raw: dict[str, Any], log: ProblemLog, line: int | None) -> dict[str, Any]:
    """Rename aliased keys to canonical field names; unknown keys go to ``meta``; clashes are problems."""
    out: dict[str, Any] = {}
    source: dict[str, str] = {}
    extra: dict[str, Any] = {}
    for key, value in raw.items():
        canon = _ALIAS_TO_FIELD.get(_norm_key(str(key)))
        if canon is None:
            if value not in (None, ""):
                extra[str(key)] = value
            continue
        if canon in out and value not in (None, "") and out[canon] not in (None, ""):
            log.add(f"given twice, as '{source[canon]}' and as '{key}'", line=line, field=str(key))
            continue
        if canon not in out or out[canon] in (None, ""):
            out[canon] = value
            source[canon] = str(key)
    out["_source_names"] = source
    if extra:
        out["_extra"] = extra
    return out


def infer_kind(record: dict[str, Any]) -> Kind | None:
    """The kind a record's fields point to, or None when they name neither kind; ValueError when the record holds
    the texts of a whole task of each kind (not guessed to be one of them)."""
    if record.get("kind") not in (None, ""):
        return normalise_kind(str(record["kind"]))
    hits = {kind: sum(1 for f in markers if record.get(f) not in (None, "")) for kind, markers in _KIND_MARKERS.items()}
    if hits["falloesung"] == hits["grundprinzip"] == 0:
        hits = {kind: sum(1 for f in markers if f in record) for kind, markers in _KIND_MARKERS.items()}
    if hits["falloesung"] == hits["grundprinzip"] == 0:
        return None
    if all(hits[kind] == len(markers) for kind, markers in _KIND_MARKERS.items()):  # a whole task of each kind:
        # never guessed (one of the two would be lost in meta); a stray field of the other kind stays in meta
        names = record.get("_source_names", {})
        given = {
            kind: ", ".join(names.get(f, f) for f in markers if f in record) for kind, markers in _KIND_MARKERS.items()
        }
        raise ValueError(
            f"fields of both task kinds: {given['falloesung']} (falloesung) and {given['grundprinzip']} "
            "(grundprinzip); give 'kind' (or --kind) or split the record"
        )
    return "falloesung" if hits["falloesung"] >= hits["grundprinzip"] else "grundprinzip"


#: Fields where a JSON integer is read as its text (an id ``7``, a level ``3``); every other field needs text.
_NUMBER_OK = ("task_id", "difficulty")


def _text(value: Any, canon: str) -> str | None:
    """``value`` as text; ValueError for a non-text value or a lone surrogate (``"\\ud800"`` in JSON)."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and canon in _NUMBER_OK:
        return str(value)
    if not isinstance(value, str):
        shown = repr(value) if len(repr(value)) <= 40 else type(value).__name__
        raise ValueError(f"expected text, got {type(value).__name__} {shown} (write it in quotes)")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(
            f"text holds a lone surrogate (\\u{ord(value[exc.start]):04x} at character {exc.start + 1}), "
            "which is not valid Unicode; fix the \\u escape in the file"
        ) from None
    return value


def _lone_surrogate(value: Any) -> str | None:
    """The first lone surrogate (U+D800..U+DFFF, from a ``\\ud800`` JSON escape) in the strings, keys and
    items of ``value`` (nested dicts and lists), or None. Such a text cannot be written as UTF-8 or stored."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            for char in item:
                if 0xD800 <= ord(char) <= 0xDFFF:
                    return char
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return None


def build_task(
    record: dict[str, Any],
    *,
    kind: Kind,
    corpus: str,
    default_id: str,
    log: ProblemLog,
    line: int | None,
) -> FalloesungTask | PrincipleItem | None:
    """Validate one canonical record and build its task; problems go to ``log`` (then None is returned)."""
    names: dict[str, str] = record.get("_source_names", {})
    before = len(log.problems) + log.more

    def name(canon: str) -> str:
        return names.get(canon, canon)

    values: dict[str, Any] = {}
    for canon in REQUIRED[kind]:
        if record.get(canon) is None:
            aliases = "/".join(FIELD_ALIASES[canon][:3])
            log.add(f"required field missing ({aliases})", line=line, field=canon)
    for canon in (*_TEXT_FIELDS, *_OPTIONAL_TEXT, "task_id", "area", "gold_answer"):
        if record.get(canon) is None:
            continue
        try:
            text = _text(record[canon], canon)
        except ValueError as exc:
            log.add(str(exc), line=line, field=name(canon))
            continue
        if text is not None and not text.strip():
            if canon in REQUIRED[kind] or canon == "task_id":
                log.add("empty text", line=line, field=name(canon))
            continue
        values[canon] = text.strip() if canon in ("task_id", *_OPTIONAL_TEXT) and text else text
    if "area" in values:
        try:
            values["area"] = normalise_area(values["area"])
        except ValueError as exc:
            log.add(str(exc).replace("legal area", "area"), line=line, field=name("area"))
    if "gold_answer" in values and kind == "grundprinzip":
        try:
            values["gold_answer"] = normalise_answer(values["gold_answer"])
        except ValueError as exc:
            log.add(str(exc), line=line, field=name("gold_answer"))
    meta = record.get("meta")
    if isinstance(meta, str):  # a CSV cell holds the JSON text
        try:
            meta = parse_json(meta) if meta.strip() else None
        except JsonProblem as exc:
            log.add(f"not a JSON object: {exc.message}", line=line, field=name("meta"))
            meta = None
    if meta is not None and not isinstance(meta, dict):
        log.add("expected a JSON object", line=line, field=name("meta"))
        meta = None
    rubric = _task_rubric(record.get("rubric"), log, line, name("rubric"))
    extra: dict[str, Any] = record.get("_extra", {})
    for key, value in [*(((name("meta"), meta),) if meta else ()), *extra.items()]:
        bad = _lone_surrogate([key, value])
        if bad is not None:
            shown = key.encode("utf-8", "backslashreplace").decode("utf-8")
            log.add(
                f"holds a lone surrogate (\\u{ord(bad):04x}), which is not valid Unicode; "
                "fix the \\u escape in the file",
                line=line,
                field=shown,
            )
    merged_meta: dict[str, Any] = {**(meta or {}), **extra}
    foreign = [canon for canon in _ALL_FIELDS if canon not in _OWN[kind]]
    merged_meta.update({name(k): values[k] for k in foreign if values.get(k)})  # kept, not dropped
    if len(log.problems) + log.more > before:
        return None
    task_id = values.pop("task_id", None) or default_id
    try:
        check_task_id(task_id)  # a newline, an ANSI escape: the id would print as something else
    except ValueError as exc:
        log.add(str(exc), line=line, field=name("task_id"))
        return None
    own = {k: values[k] for k in _OWN[kind] if values.get(k)}
    if rubric is not None and rubric.task_kind != kind:
        log.add(f"the Bewertungsbogen scores {rubric.task_kind} tasks, this is a {kind} (set its 'kind')",
                line=line, field=name("rubric"))  # fmt: skip
        return None
    data = rubric.model_dump(mode="json", exclude_none=True) if rubric is not None else None
    if kind == "falloesung":
        return FalloesungTask(task_id=task_id, corpus=corpus, meta=merged_meta, rubric=data, **own)
    return PrincipleItem(task_id=task_id, corpus=corpus, meta=merged_meta, rubric=data, **own)


def _task_rubric(value: Any, log: ProblemLog, line: int | None, field_name: str) -> Rubric | None:
    """A record's own Bewertungsbogen: a JSON object, JSON text (a CSV cell) or a YAML/JSON file path relative
    to the corpus file; validated as a rubric (problems go to ``log``)."""
    from benger.judge import load_rubric
    from benger.judge._rubric import rubric_from_data

    if value in (None, ""):
        return None
    try:
        if isinstance(value, str) and value.strip().startswith("{"):
            try:
                value = parse_json(value)
            except JsonProblem as exc:
                log.add(f"not a JSON object: {exc.message}", line=line, field=field_name)
                return None
        if isinstance(value, str):
            path = Path(value.strip())
            return load_rubric(path if path.is_absolute() else Path(log.file).parent / path)
        return rubric_from_data(value, f"{log.file}:{line}" if line is not None else log.file)
    except InputError as exc:  # its own message names the rubric's file (or this record) and field
        log.add(f"Bewertungsbogen: {exc}", line=line, field=field_name)
        return None
