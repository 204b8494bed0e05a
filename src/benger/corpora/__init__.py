"""Corpora: the typed schema of tasks, loaders for the official release layout, user files and the demo corpus.

Each name loads its module on first use (PEP 562 ``__getattr__``), so that importing one submodule does
not import the whole stage (issue 26: ``benger leaderboard`` imported every stage through package imports).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.corpora._demo import DEMO_NAMES, load_demo_corpora, load_demo_corpus
    from benger.corpora._fields import FIELD_ALIASES, CorpusFileError, Problem
    from benger.corpora._readers import CORPUS_READERS, CorpusReader, corpus_reader
    from benger.corpora._release import Release, load_release
    from benger.corpora._resolve import resolve_corpus_source
    from benger.corpora._user import load_corpus_file, write_corpus_file
    from benger.corpora._zjs import ZENODO_DOI, load_zjs
    from benger.schema import AREAS, Area, Corpus, FalloesungTask, PrincipleItem, Task, normalise_answer, normalise_area

_HOMES: dict[str, tuple[str, ...]] = {
    "benger.corpora._demo": (
        "DEMO_NAMES",
        "load_demo_corpora",
        "load_demo_corpus",
    ),
    "benger.corpora._fields": (
        "FIELD_ALIASES",
        "CorpusFileError",
        "Problem",
    ),
    "benger.corpora._readers": (
        "CORPUS_READERS",
        "CorpusReader",
        "corpus_reader",
    ),
    "benger.corpora._release": (
        "Release",
        "load_release",
    ),
    "benger.corpora._resolve": ("resolve_corpus_source",),
    "benger.corpora._user": (
        "load_corpus_file",
        "write_corpus_file",
    ),
    "benger.corpora._zjs": (
        "ZENODO_DOI",
        "load_zjs",
    ),
    "benger.schema": (
        "AREAS",
        "Area",
        "Corpus",
        "FalloesungTask",
        "PrincipleItem",
        "Task",
        "normalise_answer",
        "normalise_area",
    ),
}
_LAZY = {name: module for module, names in _HOMES.items() for name in names}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'benger.corpora' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "AREAS",
    "CORPUS_READERS",
    "DEMO_NAMES",
    "FIELD_ALIASES",
    "ZENODO_DOI",
    "Area",
    "Corpus",
    "CorpusFileError",
    "CorpusReader",
    "FalloesungTask",
    "PrincipleItem",
    "Problem",
    "Release",
    "Task",
    "corpus_reader",
    "load_corpus_file",
    "load_demo_corpora",
    "load_demo_corpus",
    "load_release",
    "load_zjs",
    "normalise_answer",
    "normalise_area",
    "resolve_corpus_source",
    "write_corpus_file",
]
