"""``benger export hf STORE DIR``: a store as a Hugging Face ``datasets`` folder (parquet per table and split).

The folder (written through :func:`benger.outputs.output_folder` as ``export hf``: staged beside DIR, then moved
into place, so a failed export leaves nothing; a rerun replaces its own files, files benger did not write are kept)::

    DIR/README.md                  dataset card: YAML configs (one per table, one split per corpus), licence,
                                   provenance, counts, the rubrics, how to cite
    DIR/benger_export.json         manifest: format, benger version, source store, tables, splits, sha256 of files
    DIR/<table>/<split>.parquet    tasks, generations, human_solutions, judgements, human_reviews, metric_values
                                   (split per corpus); corpora, systems, rubrics (split ``all``)
    DIR/leaderboard/all.parquet    the leaderboard rows with their provenance (also results/leaderboard.csv/.json)

``datasets.load_dataset("parquet", data_files=...)`` or ``load_dataset(DIR, "judgements")`` reads it offline;
``benger import hf DIR`` reads it back into a store (:mod:`benger.interop._hf_import`).
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benger.interop import _hf_tables as t
from benger.interop._hf_card import dataset_card
from benger.outputs import output_folder
from benger.store import Store


@dataclass
class HFExport:
    """What ``export_hf`` wrote: the folder, rows per table and split, and the split name of each corpus."""

    folder: Path
    counts: dict[str, dict[str, int]] = field(default_factory=dict)
    splits: dict[str, str] = field(default_factory=dict)


def arrow_schema(table: t.Table) -> Any:
    """The pyarrow schema of ``table`` (strings, int64, float64, bool, lists of structs)."""
    import pyarrow as pa

    scalar = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_()}

    def arrow_type(kind: str | tuple[str, str, str]) -> Any:
        if isinstance(kind, str):
            return scalar[kind]
        item_type = pa.float64() if kind[0] == "scores" else pa.string()
        return pa.list_(pa.struct([(kind[1], pa.string()), (kind[2], item_type)]))

    return pa.schema([(name, arrow_type(kind)) for name, kind in table.columns])


def storage_order(store: Store, table: str, key: tuple[str, ...]) -> dict[tuple[Any, ...], int]:
    """Key -> position of each row of ``table`` in the order the store holds them (SQLite ``rowid``, PostgreSQL
    ``ctid``). An import writes the rows in this order, so SQL aggregates (``AVG`` of metric values) add the same
    floating-point numbers in the same order and the leaderboard of the copy is identical to the last digit."""
    from sqlalchemy import text

    order = "ctid" if store.engine.dialect.name == "postgresql" else "rowid"
    with store.engine.connect() as connection:
        rows = connection.execute(text(f"SELECT {', '.join(key)} FROM {table} ORDER BY {order}"))
        return {tuple(row): n for n, row in enumerate(rows)}


def _in_storage_order(store: Store, table: str, key: tuple[str, ...], records: list[Any]) -> list[Any]:
    order = storage_order(store, table, key)
    return sorted(records, key=lambda r: order.get(tuple(getattr(r, k) for k in key), len(order)))


def store_rows(store: Store) -> tuple[dict[str, dict[str, list[dict[str, Any]]]], dict[str, str]]:
    """table -> split -> rows of everything in ``store`` (in the store's order); and corpus -> split name."""
    names = store.corpus_names()
    splits = t.split_names(names)
    out: dict[str, dict[str, list[dict[str, Any]]]] = {table.name: defaultdict(list) for table in t.TABLES}
    target_corpus: dict[tuple[str, str], str] = {}
    for name in names:
        corpus = store.load_corpus(name)
        out["corpora"][t.ALL_SPLIT].append(
            {"name": name, "description": corpus.description, "n_tasks": len(corpus.tasks)}
        )
        out["tasks"][splits[name]].extend(t.task_rows(corpus))
    for system in store.systems():
        out["systems"][t.ALL_SPLIT].append(t.system_row(system))
    for gen in _in_storage_order(store, "generations", ("generation_id",), store.generations()):
        corpus_name = str(gen.corpus)
        target_corpus[("generation", gen.generation_id)] = corpus_name
        out["generations"][splits[corpus_name]].append(t.generation_row(gen))
    for sol in _in_storage_order(store, "human_solutions", ("solution_id",), store.human_solutions()):
        corpus_name = str(sol.corpus)
        target_corpus[("human_solution", sol.solution_id)] = corpus_name
        out["human_solutions"][splits[corpus_name]].append(t.solution_row(sol))

    def split_of(kind: str, target: str) -> tuple[str | None, str]:
        found = target_corpus.get((kind, target))
        return found, splits[found] if found is not None else t.UNLINKED_SPLIT

    for j in _in_storage_order(store, "judgements", ("judgement_id",), store.judgements()):
        linked, split = split_of(j.target_kind, j.target_id)
        out["judgements"][split].append(t.judgement_row(j, linked))
    for r in store.human_reviews():
        linked, split = split_of(r.target_kind, r.target_id)
        out["human_reviews"][split].append(t.review_row(r, linked))
    metric_key = ("target_kind", "target_id", "metric", "signature")
    for m in _in_storage_order(store, "metric_values", metric_key, store.metric_values()):
        linked, split = split_of(m.target_kind, m.target_id)
        out["metric_values"][split].append(t.metric_row(m, linked))
    out["rubrics"][t.ALL_SPLIT].extend(t.rubric_row(r) for r in store.stored_rubrics())
    return {k: dict(v) for k, v in out.items()}, splits


def _write_parquet(path: Path, rows: list[dict[str, Any]], schema: Any) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist([{name: row.get(name) for name in schema.names} for row in rows], schema=schema)
    pq.write_table(table, path)


def _leaderboard(store: Store, folder: Path) -> tuple[int, str]:
    """results/leaderboard.csv/.json (as ``benger leaderboard --out``) and leaderboard/all.parquet; the number
    of rows and the benger version the board names."""
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    from benger.analysis import leaderboard_from_store

    board = leaderboard_from_store(store)
    results = folder / "results"
    results.mkdir()
    (results / "leaderboard.csv").write_text(board.to_csv(), encoding="utf-8")
    (results / "leaderboard.json").write_text(board.to_json(), encoding="utf-8")
    if board.rows:
        (folder / "leaderboard").mkdir()
        pq.write_table(pcsv.read_csv(results / "leaderboard.csv"), folder / "leaderboard" / "all.parquet")
    return len(board.rows), board.benger_version


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def export_hf(store: Store, folder: str | Path, *, license_id: str | None = None) -> HFExport:
    """Write everything in ``store`` as a ``datasets`` folder at ``folder``.

    ``license_id``: the card's ``license`` (an SPDX-style id as the Hub uses, e.g. ``cc-by-4.0``); default
    ``cc-by-4.0`` when the store holds the paper's release (its data is CC BY 4.0), else ``other``.
    InputError when ``folder`` is a file or holds a file of an export's name that benger did not write
    (:mod:`benger.outputs`: the rule of every output folder); nothing is left behind on any error.
    """
    target = Path(folder)
    with output_folder(target, "export hf") as out:
        tmp = out.staging
        rows, splits = store_rows(store)
        counts: dict[str, dict[str, int]] = {}
        files: dict[str, str] = {}
        for table in t.TABLES:
            schema = arrow_schema(table)
            counts[table.name] = {}
            for split, split_rows in rows[table.name].items():
                path = tmp / table.name / f"{split}.parquet"
                _write_parquet(path, split_rows, schema)
                counts[table.name][split] = len(split_rows)
                files[path.relative_to(tmp).as_posix()] = _sha256(path)
        n_board, version = _leaderboard(store, tmp)
        if n_board:
            counts["leaderboard"] = {t.ALL_SPLIT: n_board}
            files["leaderboard/all.parquet"] = _sha256(tmp / "leaderboard" / "all.parquet")
        licence = license_id or ("cc-by-4.0" if _holds_release(rows) else "other")
        manifest = _manifest(store, version, counts, splits, files, licence)
        (tmp / t.MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        (tmp / "README.md").write_text(dataset_card(manifest, rows), encoding="utf-8")
    return HFExport(folder=target, counts=counts, splits=splits)


def _holds_release(rows: Mapping[str, Mapping[str, list[dict[str, Any]]]]) -> bool:
    return any('"source": "release"' in (g.get("meta") or "") for split in rows["generations"].values() for g in split)


def _manifest(
    store: Store,
    version: str,
    counts: dict[str, dict[str, int]],
    splits: dict[str, str],
    files: dict[str, str],
    licence: str,
) -> dict[str, Any]:
    return {
        "format": t.EXPORT_FORMAT,
        "benger_version": version,
        "source_store": store.url,
        "license": licence,
        "splits": splits,
        "tables": {table.name: table.names() for table in t.TABLES},
        "counts": counts,
        "files": files,
    }
