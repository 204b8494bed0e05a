"""One string names a corpus source: used by the CLI and by run configurations."""

from __future__ import annotations

from pathlib import Path

from benger.corpora._demo import DEMO_NAMES, load_demo_corpora, load_demo_corpus
from benger.corpora._user import SUFFIXES, load_corpus_file
from benger.corpora._zjs import load_zjs
from benger.errors import InputError
from benger.schema import Corpus

SPEC_HELP = "'demo', 'demo-falloesung', 'demo-grundprinzipien', a .jsonl/.csv file, 'zjs:PATH' or 'release:PATH'"


def _release_corpora(path: str) -> list[Corpus]:
    from benger.corpora._release import load_release  # lazy: reads many files, needs benger.judge

    release = load_release(path)
    return [release.benchathon, release.grundprinzipien]


def resolve_corpus_source(spec: str) -> list[Corpus]:
    """The corpora a source spec names.

    ``demo`` (both demo corpora), a demo corpus name, a path to a ``.jsonl``/``.csv`` user file,
    ``zjs:PATH`` (ZJS export file or a release folder) or ``release:PATH`` (the Benchathon and
    Grundprinzipien corpora of the official release).
    """
    spec = spec.strip()
    if spec == "demo":
        return load_demo_corpora()
    if spec in DEMO_NAMES:
        return [load_demo_corpus(spec)]
    prefix, sep, rest = spec.partition(":")
    if sep and prefix in ("zjs", "release") and len(prefix) > 1:
        if not rest.strip():
            raise InputError(f"{prefix}: needs a path, e.g. {prefix}:../benger-release", field="corpus")
        if prefix == "zjs":
            return [load_zjs(rest.strip())]
        return _release_corpora(rest.strip())
    if Path(spec).suffix.lower() in SUFFIXES:
        return [load_corpus_file(spec)]
    raise InputError(f"unknown corpus source {spec!r}; expected {SPEC_HELP}", field="corpus")
