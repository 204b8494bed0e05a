"""Corpora: the typed schema of tasks, loaders for the official release layout, user files and the demo corpus."""

from benger.corpora._demo import DEMO_NAMES, load_demo_corpora, load_demo_corpus
from benger.corpora._fields import FIELD_ALIASES, CorpusFileError, Problem
from benger.corpora._readers import CORPUS_READERS, CorpusReader, corpus_reader
from benger.corpora._release import Release, load_release
from benger.corpora._resolve import resolve_corpus_source
from benger.corpora._user import load_corpus_file, write_corpus_file
from benger.corpora._zjs import ZENODO_DOI, load_zjs
from benger.schema import AREAS, Area, Corpus, FalloesungTask, PrincipleItem, Task, normalise_answer, normalise_area

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
