"""``benger import hf DIR``: a benger export folder (every table) back into records, validated whole first.

Every parquet file is read with pyarrow; every row is validated into benger's pydantic records before anything
is written (:meth:`benger.store.Store.import_records`, one transaction). A problem is one
:class:`~benger.errors.InputError` naming the file, the row (``record N``, 1-based) and the column:
an unreadable file, a missing column, a value of the wrong type, bad JSON in a ``meta`` cell, a duplicate id,
a record naming a task that is not in the export, a system whose ``config_hash`` does not match its config,
a file whose sha256 is not the manifest's or that the manifest does not list, a table file the manifest counts
rows for that is missing, a judgement or review whose total is not the sum of its dimensions or whose dimension
lies outside ``[0, rubric maximum]`` (:func:`benger.schema.score_problem`, the release reader's rule).
Folders that are not benger exports are read by :mod:`benger.interop._hf_corpus`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, TypeAdapter, ValidationError

from benger.corpora._reading import JsonProblem, parse_json, read_json_file
from benger.errors import InputError
from benger.interop import _hf_tables as t
from benger.schema import (
    Corpus,
    FalloesungTask,
    Generation,
    HumanReview,
    HumanSolution,
    Judgement,
    PrincipleItem,
    SystemConfig,
    Task,
    score_problem,
)
from benger.store import RecordBundle, StoredRubric

_TASK: TypeAdapter[FalloesungTask | PrincipleItem] = TypeAdapter(Task)
_M = TypeVar("_M", bound=BaseModel)


def is_benger_export(folder: Path) -> bool:
    """Whether ``folder`` is a benger export (it holds ``benger_export.json``)."""
    return (folder / t.MANIFEST).is_file()


def read_parquet_rows(path: Path, required: list[str]) -> list[dict[str, Any]]:
    """The rows of one parquet file as dicts; InputError naming the file (and column) when it is unreadable or
    lacks a ``required`` column."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises ArrowInvalid, OSError, ... for a file that is not parquet
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"not a readable parquet file: {reason}", file=path) from None
    missing = [c for c in required if c not in table.column_names]
    if missing:
        raise InputError(f"column missing (the file has {', '.join(table.column_names)})", file=path, field=missing[0])
    rows: list[dict[str, Any]] = table.to_pylist()
    return rows


class _Rows:
    """The rows of one table of the export: (file, 1-based row number, row) in file order."""

    def __init__(self, folder: Path, table: t.Table) -> None:
        self.table = table
        self.files = sorted((folder / table.name).glob("*.parquet")) if (folder / table.name).is_dir() else []

    def __iter__(self) -> Iterator[tuple[Path, int, dict[str, Any]]]:
        for path in self.files:
            for number, row in enumerate(read_parquet_rows(path, self.table.names()), start=1):
                yield path, number, row


def _json_cell(row: dict[str, Any], column: str, path: Path, number: int, *, nullable: bool = True) -> Any:
    value = row.get(column)
    if value is None:
        if nullable:
            return None
        raise InputError("empty cell, expected JSON text", file=path, record=number, field=column)
    if not isinstance(value, str):
        raise InputError(f"expected JSON text, got {type(value).__name__}", file=path, record=number, field=column)
    try:
        return parse_json(value, as_written=True)  # the exported cell as it was stored
    except JsonProblem as exc:
        raise InputError(f"not valid JSON: {exc.message}", file=path, record=number, field=column) from None


def _validate(model: Callable[[Any], _M], data: dict[str, Any], path: Path, number: int) -> _M:
    try:
        return model(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        loc = [str(p) for p in error["loc"]]
        if loc and loc[0] in ("falloesung", "grundprinzip"):  # the tag of the task union, not a column
            loc = loc[1:]
        message = str(error["msg"]).removeprefix("Value error, ")
        raise InputError(message, file=path, record=number, field=".".join(loc) or None) from None


def _pairs(value: Any, key: str, path: Path, number: int, column: str) -> dict[str, Any] | None:
    if value is None:
        return None
    out: dict[str, Any] = {}
    for item in value:
        name = item.get("dimension") if isinstance(item, dict) else None
        if not isinstance(name, str) or name in out:
            what = "a dimension without a name" if not isinstance(name, str) else f"dimension {name!r} twice"
            raise InputError(what, file=path, record=number, field=column)
        out[name] = item.get(key)
    return out


def _unique(seen: dict[str, tuple[Path, int]], key: str, path: Path, number: int, column: str) -> None:
    if key in seen:
        first, at = seen[key]
        raise InputError(
            f"duplicate {column} {key!r} (first in {first}, record {at})", file=path, record=number, field=column
        )
    seen[key] = (path, number)


def _corpora(folder: Path) -> list[Corpus]:
    descriptions: dict[str, str | None] = {}
    for _path, _number, row in _Rows(folder, t.TABLE["corpora"]):
        descriptions[str(row["name"])] = row.get("description")
    tasks: dict[str, list[tuple[int, FalloesungTask | PrincipleItem]]] = {}
    seen: dict[str, tuple[Path, int]] = {}
    for path, number, row in _Rows(folder, t.TABLE["tasks"]):
        data = {k: v for k, v in row.items() if v is not None and k not in ("position", "meta")}
        data["meta"] = _json_cell(row, "meta", path, number) or {}
        task = _validate(_TASK.validate_python, data, path, number)
        _unique(seen, f"{task.corpus}\x00{task.task_id}", path, number, "task_id")
        position = row.get("position")
        tasks.setdefault(task.corpus, []).append((position if isinstance(position, int) else number, task))
    names = list(dict.fromkeys([*descriptions, *tasks]))
    return [
        Corpus(
            name=n,
            description=descriptions.get(n),
            tasks=[task for _, task in sorted(tasks.get(n, []), key=lambda p: p[0])],
        )
        for n in names
    ]


def _system(row: dict[str, Any], path: Path, number: int) -> SystemConfig:
    config = _json_cell(row, "config", path, number, nullable=False)
    if not isinstance(config, dict):
        raise InputError("expected a JSON object", file=path, record=number, field="config")
    system = _validate(SystemConfig.model_validate, config, path, number)
    if row.get("config_hash") not in (None, system.config_hash()):
        raise InputError(
            f"config_hash {row['config_hash']!r} is not the hash of the config ({system.config_hash()!r}): the "
            "config was changed after the export",
            file=path,
            record=number,
            field="config_hash",
        )
    return system


def read_export(folder: str | Path) -> RecordBundle:
    """Every record of the benger export at ``folder``, validated (InputError at the first problem)."""
    folder = Path(folder)
    manifest, _ = read_json_file(folder / t.MANIFEST)
    version = manifest.get("format") if isinstance(manifest, dict) else None
    if not isinstance(version, str) or version.split("/")[0] != t.EXPORT_FORMAT.split("/")[0]:
        raise InputError(
            f"not a benger export (format {version!r}, expected {t.EXPORT_FORMAT!r})",
            file=folder / t.MANIFEST,
            field="format",
        )
    if version != t.EXPORT_FORMAT:
        raise InputError(
            f"written in format {version!r}; this benger reads {t.EXPORT_FORMAT!r}",
            file=folder / t.MANIFEST,
            field="format",
        )
    _check_files(folder, manifest)
    corpora = _corpora(folder)
    known = {(c.name, task.task_id) for c in corpora for task in c.tasks}
    bundle = RecordBundle(corpora=corpora)
    bundle.systems = [_system(row, p, n) for p, n, row in _Rows(folder, t.TABLE["systems"])]
    bundle.rubrics = _rubrics(folder)
    exported = {r.rubric_id: r.payload for r in bundle.rubrics}
    seen: dict[str, tuple[Path, int]] = {}
    for path, number, row in _Rows(folder, t.TABLE["generations"]):
        gen = _validate(
            Generation.model_validate, row | {"meta": _json_cell(row, "meta", path, number) or {}}, path, number
        )
        _check_task(known, gen.corpus, gen.task_id, path, number)
        _unique(seen, gen.generation_id, path, number, "generation_id")
        bundle.generations.append(gen)
    seen = {}
    for path, number, row in _Rows(folder, t.TABLE["human_solutions"]):
        sol = _validate(
            HumanSolution.model_validate, row | {"meta": _json_cell(row, "meta", path, number) or {}}, path, number
        )
        _check_task(known, sol.corpus, sol.task_id, path, number)
        _unique(seen, sol.solution_id, path, number, "solution_id")
        bundle.human_solutions.append(sol)
    seen = {}
    for path, number, row in _Rows(folder, t.TABLE["judgements"]):
        data = {k: v for k, v in row.items() if k != "corpus"}
        data["dimensions"] = _pairs(row.get("dimensions"), "score", path, number, "dimensions")
        data["justifications"] = (
            _pairs(row.get("justifications"), "justification", path, number, "justifications") or {}
        )
        data["meta"] = _json_cell(row, "meta", path, number) or {}
        judgement = _validate(Judgement.model_validate, data, path, number)
        if judgement.dimensions is not None:
            maxima = _exported_maxima(exported.get(judgement.rubric_id)) or _maxima(judgement.rubric_id)
            _check_scores(judgement.dimensions, judgement.total, maxima, path, number)
        _unique(seen, judgement.judgement_id, path, number, "judgement_id")
        bundle.judgements.append(judgement)
    seen = {}
    for path, number, row in _Rows(folder, t.TABLE["human_reviews"]):
        data = {k: v for k, v in row.items() if k != "corpus"}
        data["dimensions"] = _pairs(row.get("dimensions"), "score", path, number, "dimensions")
        data["meta"] = _json_cell(row, "meta", path, number) or {}
        review = _validate(HumanReview.model_validate, data, path, number)
        _check_scores(review.dimensions, review.raw_score, None, path, number, total_field="raw_score")
        _unique(seen, review.review_id, path, number, "review_id")
        bundle.human_reviews.append(review)
    bundle.human_reviews.sort(key=lambda r: (r.position is None, r.position or 0))  # the store's order, stable
    for path, number, row in _Rows(folder, t.TABLE["metric_values"]):
        from benger.store import MetricValue

        data = {k: v for k, v in row.items() if k != "corpus"} | {"details": _json_cell(row, "details", path, number)}
        bundle.metric_values.append(_validate(MetricValue.model_validate, data, path, number).model_dump())
    return bundle


def _rubrics(folder: Path) -> list[StoredRubric]:
    """The stored rubrics of the export, each checked: its content must read as a rubric with its id and content
    hash (as ``benger.judge.stored_rubric`` checks a store's), so a changed payload is refused, never kept."""
    from benger.judge import rubric_from_data

    out: list[StoredRubric] = []
    seen: dict[str, tuple[Path, int]] = {}
    for path, number, row in _Rows(folder, t.TABLE["rubrics"]):
        payload = _json_cell(row, "payload", path, number, nullable=False)
        try:
            rubric = rubric_from_data(payload, path)
        except InputError as exc:
            inner = f"payload.{exc.field}" if exc.field else "payload"
            raise InputError(exc.reason, file=path, record=number, field=inner) from None
        for column, value in (("rubric_id", rubric.id), ("content_hash", rubric.content_hash)):
            if row.get(column) != value:
                raise InputError(
                    f"{column} {row.get(column)!r} is not the one of the payload ({value!r}): the rubric was changed "
                    "after the export",
                    file=path,
                    record=number,
                    field=column,
                )
        _unique(seen, rubric.content_hash, path, number, "content_hash")
        out.append(StoredRubric(rubric_id=rubric.id, content_hash=rubric.content_hash, payload=payload))
    return out


def _check_task(known: set[tuple[str, str]], corpus: str | None, task_id: str, path: Path, number: int) -> None:
    if (corpus, task_id) not in known:
        raise InputError(
            f"task {task_id!r} of corpus {corpus!r} is not in the export's tasks",
            file=path,
            record=number,
            field="task_id",
        )


def _sha256(path: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _check_files(folder: Path, manifest: dict[str, Any]) -> None:
    """Every file the manifest lists is there with its sha256, every table file there is listed, and every
    table split the manifest counts rows for has its file. InputError naming the file otherwise."""
    where = folder / t.MANIFEST
    files = manifest.get("files")
    counts = manifest.get("counts")
    if not isinstance(files, dict) or not isinstance(counts, dict):
        field = "files" if not isinstance(files, dict) else "counts"
        raise InputError(
            "expected an object (the export's manifest lists its files and counts)", file=where, field=field
        )
    for split_counts in (counts.get(table.name) or {} for table in t.TABLES):
        if not isinstance(split_counts, dict):
            raise InputError("expected an object of rows per split", file=where, field="counts")
    for table in t.TABLES:
        for split, n in (counts.get(table.name) or {}).items():
            path = folder / table.name / f"{split}.parquet"
            if n and not path.is_file():
                raise InputError(f"file missing: the manifest counts {n} rows of {table.name} here", file=path)
    for name, wanted in files.items():
        path = folder / str(name)
        if not path.is_file():
            raise InputError("file missing: the manifest lists it", file=path)
        if _sha256(path) != wanted:
            raise InputError(
                "sha256 differs from the manifest's: the file was changed after the export", file=path, field="sha256"
            )
    for table in t.TABLES:
        for path in sorted((folder / table.name).glob("*.parquet")):
            if path.relative_to(folder).as_posix() not in files:
                raise InputError("file not listed in the export's manifest (added after the export)", file=path)


def _exported_maxima(payload: dict[str, Any] | None) -> dict[str, float] | None:
    """The dimension maxima of a rubric the export carries (its payload was checked by ``_rubrics``)."""
    from benger.judge import rubric_from_data

    return None if payload is None else rubric_from_data(payload).maxima()


def _maxima(rubric_id: str) -> dict[str, float] | None:
    """The dimension maxima of a registered rubric (the paper's two, a plugin's) named ``rubric_id``; None for a
    rubric benger does not hold (or holds in another version)."""
    from benger.errors import BengerError
    from benger.judge import RUBRICS
    from benger.pipeline._units import resolve_rubric

    if rubric_id.partition("@")[0] not in RUBRICS:
        return None
    try:
        return resolve_rubric(rubric_id).maxima()
    except (BengerError, OSError, ValueError):
        return None


def _check_scores(
    dimensions: dict[str, float],
    total: float | None,
    maxima: dict[str, float] | None,
    path: Path,
    number: int,
    *,
    total_field: str = "total",
) -> None:
    problem = score_problem(dimensions, total, maxima)
    if problem:
        field, message = problem
        raise InputError(
            message.replace("total", total_field, 1) if field == "total" else message,
            file=path,
            record=number,
            field=total_field if field == "total" else field,
        )
