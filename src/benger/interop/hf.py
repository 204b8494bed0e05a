"""Hugging Face ``datasets`` folders in and out of a benger store (``benger export hf``, ``benger import hf``).

``export_hf(store, DIR)`` writes every table as parquet (one split per corpus) with a dataset card;
``import_hf(store, DIR)`` reads such a folder back (every table, one transaction), or, for any other datasets
folder, one corpus whose columns map to benger's corpus fields (``mapping``: column -> field). Both need
pyarrow (``pip install 'benger[hf]'``); a ``save_to_disk`` folder also needs ``datasets``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from benger.errors import InputError
from benger.interop._hf_corpus import parse_map, read_corpus_folder
from benger.interop._hf_export import HFExport, export_hf
from benger.interop._hf_import import is_benger_export, read_export
from benger.store import RecordBundle, Store


def read_hf(
    folder: str | Path,
    *,
    name: str | None = None,
    mapping: Mapping[str, str] | None = None,
    split: str | None = None,
) -> RecordBundle:
    """The records of the datasets folder ``folder``, validated: every table of a benger export, or one corpus
    (named ``name``, default the folder's name) from any other folder. InputError naming file/record/field."""
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("not a folder (a datasets folder holds parquet files or a save_to_disk dataset)", file=folder)
    if is_benger_export(folder):
        if mapping or split or name:
            raise InputError(
                "a benger export is read whole: --map, --split and --as are for other datasets folders", file=folder
            )
        return read_export(folder)
    corpus = read_corpus_folder(folder, name=name or folder.resolve().name, mapping=mapping, split=split)
    return RecordBundle(corpora=[corpus])


def import_hf(store: Store, folder: str | Path, *, replace: bool = False, **options: object) -> dict[str, int]:
    """``read_hf(folder, **options)`` written into ``store`` in one transaction; counts per kind."""
    bundle = read_hf(folder, **options)  # type: ignore[arg-type]
    return store.import_records(bundle, replace=replace)


__all__ = ["HFExport", "export_hf", "import_hf", "parse_map", "read_hf"]
