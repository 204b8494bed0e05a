"""The demo corpus shipped with the package: 3 Falllösung cases and 12+ Grundprinzipien items.

The cases were written for benger (no exam or Benchathon text was used). They make every command
runnable offline, e.g. with the small local model.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from benger.corpora._user import load_corpus_file
from benger.errors import InputError
from benger.schema import Corpus

DEMO_FILES: dict[str, tuple[str, str, str]] = {
    "demo-falloesung": (
        "falloesung.jsonl",
        "falloesung",
        "Demo: drei Übungsfälle (Zivilrecht, Strafrecht, Öffentliches Recht) mit Musterlösung im Gutachtenstil",
    ),
    "demo-grundprinzipien": (
        "grundprinzipien.jsonl",
        "grundprinzip",
        "Demo: Kurzfälle zu Grundprinzipien (Zivil- und Strafrecht) mit Ja/Nein-Lösung und Begründung",
    ),
}
DEMO_NAMES: tuple[str, ...] = tuple(DEMO_FILES)


def demo_path(name: str) -> Path:
    """The package-data file of a demo corpus."""
    if name not in DEMO_FILES:
        raise InputError(f"unknown demo corpus {name!r}; available: {', '.join(DEMO_NAMES)}", field="corpus")
    return Path(str(resources.files("benger.corpora.demo").joinpath(DEMO_FILES[name][0])))


def load_demo_corpus(name: str) -> Corpus:
    """Load one demo corpus by name ("demo-falloesung" or "demo-grundprinzipien")."""
    path = demo_path(name)
    _, kind, description = DEMO_FILES[name]
    corpus = load_corpus_file(path, name=name, kind=kind)
    corpus.description = description
    return corpus


def load_demo_corpora() -> list[Corpus]:
    """Both demo corpora, Falllösung first."""
    return [load_demo_corpus(name) for name in DEMO_NAMES]
