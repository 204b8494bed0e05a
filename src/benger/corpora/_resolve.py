"""One string names a corpus source: used by the CLI and by run configurations."""

from __future__ import annotations

from pathlib import Path

from benger.corpora._demo import DEMO_NAMES, load_demo_corpora, load_demo_corpus
from benger.corpora._readers import CORPUS_READERS, corpus_reader, read_with, reader_usages
from benger.corpora._reading import SPREADSHEET_FILES
from benger.corpora._user import SUFFIXES, load_corpus_file
from benger.corpora._zjs import load_zjs
from benger.errors import InputError
from benger.schema import Corpus


@corpus_reader("zjs", usage="zjs:PATH", description="a ZJS export file or a release folder's ZJS tasks")
def _zjs(path: str) -> list[Corpus]:
    return [load_zjs(path)]


@corpus_reader("release", usage="release:PATH", description="the official release's Benchathon and Grundprinzipien")
def _release_corpora(path: str) -> list[Corpus]:
    from benger.corpora._release import load_release  # lazy: reads many files, needs benger.judge

    release = load_release(path)
    return [release.benchathon, release.grundprinzipien]


def resolve_corpus_source(spec: str) -> list[Corpus]:
    """The corpora a source spec names.

    ``demo`` (both demo corpora), a demo corpus name, a path to a ``.jsonl``/``.csv`` user file, or
    ``SCHEME:ARG`` of a registered corpus reader: ``zjs:PATH`` (ZJS export file or a release folder),
    ``release:PATH`` (the Benchathon and Grundprinzipien corpora of the official release), a plugin's.
    """
    spec = spec.strip()
    if spec == "demo":
        return load_demo_corpora()
    if spec in DEMO_NAMES:
        return [load_demo_corpus(spec)]
    prefix, sep, rest = spec.partition(":")
    if sep and len(prefix) > 1:
        entry = CORPUS_READERS.find(prefix)
        if entry is not None:
            return read_with(entry, rest)
    path = Path(spec)
    if path.suffix.lower() in (*SUFFIXES, *SPREADSHEET_FILES) or path.is_file():
        return [load_corpus_file(spec)]  # a file: its own error names it (and a spreadsheet's hint)
    usages = ", ".join(f"'{u}'" for u in reader_usages())
    raise InputError(
        f"unknown corpus source {spec!r}; expected 'demo', 'demo-falloesung', 'demo-grundprinzipien', "
        f"a .jsonl/.csv file or {usages}",
        field="corpus",
    )
