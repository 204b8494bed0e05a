"""Corpus readers by scheme (issue 31): ``SCHEME:ARGUMENT`` names a corpus source (``zjs:PATH``, ``release:PATH``).

A reader is a function ``(argument) -> list[Corpus]`` registered under its scheme with :func:`corpus_reader`;
another package registers one through the entry point group ``benger.corpora`` (a module whose import runs
``@corpus_reader``). Wherever a corpus source is accepted (a run config's ``corpora:``, ``--corpus``), ``SCHEME:ARG``
then reads through it. ``requires`` and ``extra`` name what the reader needs installed; they are checked before it
runs (a missing one is a ``MissingDependencyError`` naming the extra).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from benger.errors import InputError
from benger.registry import Entry, Registry
from benger.schema import Corpus

ReadFn = Callable[[str], list[Corpus]]


@dataclass(frozen=True)
class CorpusReader:
    """One reader: the function and how its source is written (``zjs:PATH``)."""

    scheme: str
    read: ReadFn
    usage: str


#: every corpus reader by scheme: the built-ins (``benger.corpora._resolve``), the entry point group
#: ``benger.corpora``, then ``@corpus_reader`` at run time
CORPUS_READERS: Registry[CorpusReader] = Registry(
    "corpus reader", "benger.corpora", builtins="benger.corpora._resolve", normalise=lambda s: s.strip().lower()
)


def corpus_reader(
    scheme: str, *, usage: str = "", description: str = "", requires: tuple[str, ...] = (), extra: str | None = None
) -> Callable[[ReadFn], ReadFn]:
    """Decorator: registers ``fn(argument) -> list[Corpus]`` as the reader of ``SCHEME:ARGUMENT`` sources."""
    if not scheme.strip().isidentifier() or len(scheme.strip()) < 2:
        raise ValueError(f"a corpus reader's scheme is a name of two or more letters (not a drive), got {scheme!r}")

    def wrap(fn: ReadFn) -> ReadFn:
        reader = CorpusReader(scheme.strip().lower(), fn, usage or f"{scheme}:ARG")
        CORPUS_READERS.add(
            scheme, reader, requires=requires, extra=extra, description=description or (fn.__doc__ or ""),
            module=fn.__module__,
        )  # fmt: skip
        return fn

    return wrap


def read_with(entry: Entry[CorpusReader], argument: str) -> list[Corpus]:
    """The corpora ``SCHEME:argument`` names (the reader's requirements checked first)."""
    scheme = entry.value.scheme
    if not argument.strip():
        what = "a path" if "PATH" in entry.value.usage else "an argument"
        raise InputError(f"{scheme}: needs {what}, e.g. {entry.value.usage}", field="corpus")
    entry.check()
    return entry.value.read(argument.strip())


def reader_usages() -> list[str]:
    """How each registered reader's source is written (for help texts and messages)."""
    return [entry.value.usage for entry in CORPUS_READERS.entries()]
