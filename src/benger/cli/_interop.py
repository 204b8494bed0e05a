"""``benger export hf STORE DIR``, and the ``hf`` / ``inspect`` sources of ``benger import`` (issue 29).

``benger import hf DIR`` and ``benger import inspect LOG`` (also written ``hf:DIR``, ``inspect:LOG``) are
dispatched here from ``benger import`` (``cli._core.import_``): the source is read and validated whole before
the store is opened, then written in one transaction.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benger.cli._execute import _open, _out
from benger.errors import InputError

#: ``benger import`` sources handled here, with the kind of path each takes.
SOURCES = {"hf": "DIR (a datasets folder)", "inspect": "LOG (an inspect .eval or .json log)"}


def split_source(source: str, path: str | None) -> tuple[str, str] | None:
    """``("hf", DIR)`` for ``hf DIR`` or ``hf:DIR`` (likewise ``inspect``); None for every other source.

    A second argument after any other source is a usage error (it would be silently ignored)."""
    kind, sep, rest = source.partition(":")
    if kind in SOURCES and (sep or path is not None):
        given = rest.strip() if sep else (path or "")
        if sep and path is not None:
            raise typer.BadParameter(f"give the path once: '{kind}:PATH' or '{kind} PATH'", param_hint="'PATH'")
        if not given:
            raise InputError(f"{kind} needs a path: benger import {kind} {SOURCES[kind]}", field="source")
        return kind, given
    if source in SOURCES:
        raise InputError(f"{source} needs a path: benger import {source} {SOURCES[source]}", field="source")
    if path is not None:
        raise typer.BadParameter(f"only 'hf' and 'inspect' take a second argument, not {source!r}", param_hint="'PATH'")
    return None


def import_interop(
    kind: str,
    path: str,
    db: str | None,
    *,
    replace: bool,
    as_name: str | None,
    mapping: list[str] | None,
    split: str | None,
) -> None:
    """Read ``path`` (validated whole), then write it into the store at ``db`` in one transaction."""
    if kind == "hf":
        from benger.interop.hf import parse_map, read_hf

        bundle = read_hf(path, name=as_name, mapping=parse_map(mapping or []), split=split)
    else:
        if mapping or split:
            raise InputError("--map and --split are for 'benger import hf'", field="--map" if mapping else "--split")
        from benger.interop.inspect_log import read_inspect_log

        bundle = read_inspect_log(path, system_name=as_name)
    store = _open(db)
    try:
        if kind == "inspect":  # the logged tasks must be the stored ones (or form a new corpus)
            from benger.interop.inspect_log import against_store

            bundle = against_store(bundle, store, path)
        counts = store.import_records(bundle, replace=replace)
    finally:
        store.close()
    print_import_counts(counts, "these records")


def print_import_counts(counts: dict[str, int], what: str) -> None:
    """One line per kind of an import's counts (``Store.import_release`` / ``import_records``): how many it read
    and how many of them it wrote (new or changed) or found in the store already; a last line when it wrote
    nothing (``what``: "this release", "these records")."""
    for kind, total in counts.items():
        if kind.startswith("written_"):
            continue
        written = counts.get(f"written_{kind}")
        if written is None or not total:
            _out().print(f"{kind}: {total}")
        elif written >= total:
            _out().print(f"{kind}: {total} ({written} written)")
        else:
            _out().print(f"{kind}: {total} ({written} written, {total - written} already in the store)")
    if not any(n for k, n in counts.items() if k.startswith(("written_", "removed_"))):
        _out().print(f"nothing new: the store already holds {what} (nothing was written)")


export_app = typer.Typer(
    help="Export a store for other tools (hf: a Hugging Face datasets folder).", no_args_is_help=True
)


@export_app.command("hf")
def export_hf_cmd(
    store_path: Annotated[str, typer.Argument(metavar="STORE", help="The store: an SQLite path or a database URL.")],
    folder: Annotated[Path, typer.Argument(metavar="DIR", help="The folder to write (a rerun replaces the export).")],
    license_id: Annotated[
        str | None,
        typer.Option(
            "--license", help="Licence id of the card (default cc-by-4.0 for the paper's release, else other)."
        ),
    ] = None,
) -> None:
    """Write corpora, generations, judgements, metric values, human reviews and the leaderboard as a Hugging
    Face datasets folder: parquet per table (one split per corpus) and a dataset card (README.md).

    The folder is written beside DIR and moved into place: a failed export leaves nothing behind; a file of DIR
    benger did not write is never overwritten (docs/report.md, output folders).
    """
    from benger.interop.hf import export_hf
    from benger.store import open_store

    store = open_store(store_path, create=False)
    try:
        result = export_hf(store, folder, license_id=license_id)
    finally:
        store.close()
    for table, splits in result.counts.items():
        shown = ", ".join(f"{split} {n}" for split, n in splits.items()) or "0"
        _out().print(f"{table}: {shown}")
    _out().print(f"wrote {result.folder} (README.md, benger_export.json, parquet per table and split)")


def register(app: typer.Typer) -> None:
    app.add_typer(export_app, name="export")
