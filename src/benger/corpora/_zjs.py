"""The ZJS corpus: exam cases from the Zeitschrift für das Juristische Studium in the platform's task format.

The case texts are not in the public git release (IP clearance); they come from the Zenodo deposit
(10.5281/zenodo.20489788) as ``data/interim/zjs.json``. This loader reads that file, or any JSON
export of platform tasks: a list of task objects (or ``{"tasks": [...]}``) whose fields sit either at
the top level or nested under ``"data"`` (the platform stores a task's content in a free JSON ``data``
dict next to ``id``, ``inner_id`` and ``meta``).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benger.corpora._fields import ProblemLog
from benger.corpora._reading import line_of, read_json_file
from benger.corpora._user import records_to_corpus
from benger.errors import InputError
from benger.schema import Corpus

ZENODO_DOI = "10.5281/zenodo.20489788"
RELEASE_PATH = Path("data") / "interim" / "zjs.json"
_TOP_LEVEL_KEYS = ("id", "task_id", "inner_id", "difficulty", "schwierigkeit", "title", "titel")


def _missing_message() -> str:
    return (
        f"ZJS case texts not found. They are not part of the public BenGER release on GitHub "
        f"(the exam texts are copyright-protected and distributed after IP clearance), so they must be "
        f"fetched separately: download zjs.json from the Zenodo deposit https://doi.org/{ZENODO_DOI} and "
        f"place it at <release>/{RELEASE_PATH.as_posix()} (or anywhere, then pass zjs:PATH)."
    )


def locate_zjs(path: str | Path) -> Path:
    """The ZJS file for ``path``: the file itself, or ``zjs.json`` / ``data/interim/zjs.json`` in a folder."""
    path = Path(path)
    if path.is_dir():
        for candidate in (path / RELEASE_PATH, path / "zjs.json"):
            if candidate.is_file():
                return candidate
        raise InputError(_missing_message(), file=path / RELEASE_PATH)
    if not path.exists():
        raise InputError(_missing_message(), file=path)
    return path


def _task_records(value: Any, log: ProblemLog) -> Iterator[tuple[int, dict[str, Any]]]:
    if isinstance(value, dict) and isinstance(value.get("tasks"), list):
        value = value["tasks"]
    if not isinstance(value, list):
        log.add(f'expected a JSON list of task objects (or {{"tasks": [...]}}), got {type(value).__name__}')
        return
    for number, item in enumerate(value, start=1):
        if not isinstance(item, dict):
            log.add(f"expected a task object, got {type(item).__name__}", line=number)
            continue
        data = item.get("data")
        if data is None:
            yield number, item
            continue
        if not isinstance(data, dict):
            log.add(f"expected a JSON object, got {type(data).__name__}", line=number, field="data")
            continue
        record: dict[str, Any] = {k: item[k] for k in _TOP_LEVEL_KEYS if k in item and k not in data}
        record.update(data)
        top_meta = item.get("meta")
        if isinstance(top_meta, dict) and top_meta:
            data_meta = data.get("meta")
            record["meta"] = {**top_meta, **data_meta} if isinstance(data_meta, dict) else data_meta or top_meta
        yield number, record


def _with_ids(records: Iterator[tuple[int, dict[str, Any]]]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Tasks without an id get ``zjs-NNNN`` from their ``inner_id`` (else their 1-based position)."""
    for number, record in records:
        if not any(record.get(k) not in (None, "") for k in ("id", "task_id")):
            inner = record.pop("inner_id", None)
            record["task_id"] = f"zjs-{int(inner) if isinstance(inner, int) else number:04d}"
        else:
            inner = record.pop("inner_id", None)
            if inner is not None:
                record.setdefault("meta", {})
                if isinstance(record["meta"], dict):
                    record["meta"] = {**record["meta"], "inner_id": inner}
        yield number, record


def load_zjs(path: str | Path) -> Corpus:
    """Load the ZJS corpus (name "zjs") from the platform task export; see docs/corpora.md for the fields."""
    file = locate_zjs(path)
    value, text = read_json_file(file)

    def locate(number: int, name: str | None) -> int | None:
        """The line of task ``number``'s field ``name`` (in ``data`` or at the top), else of the task."""
        prefix: list[str | int] = ["tasks"] if isinstance(value, dict) else []
        items = value.get("tasks") if isinstance(value, dict) else value
        path: list[str | int] = [*prefix, number - 1]
        item = items[number - 1] if isinstance(items, list) and 0 < number <= len(items) else None
        if isinstance(item, dict) and name is not None:
            data = item.get("data")
            if isinstance(data, dict) and name in data:
                path += ["data", name]
            elif name in item:
                path.append(name)
        return line_of(text, path)

    log = ProblemLog(file, unit="task", locate=locate)
    return records_to_corpus(
        _with_ids(_task_records(value, log)),
        log=log,
        name="zjs",
        kind="falloesung",
        description="ZJS exam cases (Zeitschrift für das Juristische Studium), fetched from Zenodo",
    )
