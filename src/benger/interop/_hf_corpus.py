"""A corpus from any ``datasets`` folder whose columns map to benger's corpus fields (``benger import hf DIR``).

Two layouts are read: parquet files (the Hub's ``data/<split>-00000-of-00001.parquet``, or ``<split>.parquet``
anywhere below the folder; read with pyarrow) and a ``Dataset.save_to_disk`` folder (``dataset_info.json`` /
``dataset_dict.json``; read with ``datasets.load_from_disk``). Every row goes through the same record reader as a
JSONL/CSV corpus (:func:`benger.corpora._user.records_to_corpus`): the same field names and aliases
(docs/corpora.md), the same checks and messages, numbered ``record N`` (the 1-based row of the file).
``mapping`` renames columns first (``--map Frage=question``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from benger.corpora import FIELD_ALIASES
from benger.corpora._fields import ProblemLog
from benger.corpora._user import records_to_corpus
from benger.errors import ConfigError, InputError
from benger.interop._hf_import import read_parquet_rows
from benger.schema import Corpus


def parse_map(items: list[str]) -> dict[str, str]:
    """``["Frage=question", ...]`` -> ``{"Frage": "question"}``; ConfigError for a malformed item, an unknown
    benger field or a column named twice."""
    out: dict[str, str] = {}
    for item in items:
        column, sep, target = item.partition("=")
        column, target = column.strip(), target.strip()
        if not sep or not column or not target:
            raise ConfigError(f"--map takes COLUMN=FIELD, not {item!r}")
        if target not in FIELD_ALIASES:
            raise ConfigError(f"--map {item!r}: {target!r} is not a benger corpus field ({', '.join(FIELD_ALIASES)})")
        if column in out:
            raise ConfigError(f"--map names the column {column!r} twice")
        out[column] = target
    return out


def _split_of(path: Path, folder: Path) -> str:
    """The split of a parquet file: ``data/train-00000-of-00001.parquet`` -> ``train``, ``test.parquet`` ->
    ``test``, ``train/0000.parquet`` -> ``train``."""
    stem = path.stem.split("-")[0]
    parent = path.parent.relative_to(folder).parts
    return parent[-1] if parent and parent[-1] not in ("data",) and stem.isdigit() else stem


def _renamed(row: Mapping[str, Any], mapping: Mapping[str, str], where: Path, number: int) -> dict[str, Any]:
    out = {mapping.get(k, k): v for k, v in row.items()}
    if len(out) < len(row):  # a mapped column landed on a column of the file
        clash = next(v for k, v in mapping.items() if k in row and v in row)
        raise InputError(f"--map gives {clash!r} a second column", file=where, record=number, field=clash)
    return out


def _disk_rows(folder: Path, split: str | None) -> Iterator[tuple[Path, list[dict[str, Any]]]]:
    from datasets import Dataset, DatasetDict, load_from_disk  # a ModuleNotFoundError names the benger[hf] extra

    try:
        loaded = load_from_disk(str(folder))
    except Exception as exc:
        raise InputError(f"not a readable datasets folder: {str(exc).splitlines()[0]}", file=folder) from None
    parts = dict(loaded) if isinstance(loaded, DatasetDict) else {"train": loaded}
    for name, part in parts.items():
        if split is None or name == split:
            assert isinstance(part, Dataset)
            yield folder / name, part.to_list()


def read_corpus_folder(
    folder: str | Path, *, name: str, mapping: Mapping[str, str] | None = None, split: str | None = None
) -> Corpus:
    """One corpus ``name`` from the rows of every split (or only ``split``) of the datasets folder."""
    folder = Path(folder)
    mapping = dict(mapping or {})
    if (folder / "dataset_info.json").is_file() or (folder / "dataset_dict.json").is_file():
        sources = list(_disk_rows(folder, split))
    else:
        files = sorted(p for p in folder.rglob("*.parquet") if split is None or _split_of(p, folder) == split)
        sources = [(p, read_parquet_rows(p, [])) for p in files]
    if not sources:
        what = f"no split {split!r}" if split else "no parquet files and no save_to_disk dataset"
        raise InputError(f"{what} in this folder", file=folder)
    for where, rows in sources:
        missing = [column for column in mapping if rows and column not in rows[0]]
        if missing:
            raise InputError(
                f"--map names a column the file does not have ({', '.join(rows[0])})", file=where, field=missing[0]
            )
    tasks = []
    first: dict[str, Path] = {}
    for where, rows in sources:
        log = ProblemLog(where, unit="record")
        records = ((n, _renamed(row, mapping, where, n)) for n, row in enumerate(rows, start=1))
        corpus = records_to_corpus(records, log=log, name=name, kind=None)
        for task in corpus.tasks:
            if task.task_id in first:
                raise InputError(
                    f"duplicate task_id {task.task_id!r} (also in {first[task.task_id]}); give each row "
                    "an id or import one split (--split)",
                    file=where,
                    field="task_id",
                )
            first[task.task_id] = where
        tasks.extend(corpus.tasks)
    return Corpus(name=name, tasks=tasks)
