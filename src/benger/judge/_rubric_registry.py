"""Rubrics by name (issue 31): the paper's two, the entry point group ``benger.rubrics``, and ``@register_rubric``.

A registered rubric is a name for a rubric file anywhere a rubric file is accepted (a run config's ``rubrics:``,
``import-reviews --rubric``, a corpus record's ``bewertungsbogen``). Its value is a :class:`Rubric`, a path to a
rubric YAML file, or a zero-argument function returning either; it is loaded and validated when first used::

    @register_rubric("kurz3", description="three dimensions, 30 points")
    def kurz3() -> Path:
        return Path(__file__).with_name("kurz3.yaml")

From another package: ``[project.entry-points."benger.rubrics"] kurz3 = "my_pkg.rubrics:kurz3"``.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from benger.errors import InputError
from benger.judge._rubric import BUILTIN_RUBRICS, Rubric, builtin_rubric, load_rubric_file, rubric_from_data
from benger.registry import Registry

RubricSource = Rubric | str | Path | Callable[[], "Rubric | str | Path"]


def _register_builtins() -> None:
    for name in BUILTIN_RUBRICS:
        RUBRICS.add(name, partial(builtin_rubric, name), description=f"the paper's {name} rubric")


def _adopt(registry: Registry[RubricSource], name: str, value: Any) -> None:
    if type(value).__name__ == "module":
        raise TypeError("a benger.rubrics entry point names a Rubric, a path or a function, not a module")
    registry.add(name, value)


#: every rubric by name: the paper's two, the entry point group ``benger.rubrics``, then ``@register_rubric``
RUBRICS: Registry[RubricSource] = Registry("rubric", "benger.rubrics", builtins=_register_builtins, adopt=_adopt)


def register_rubric(name: str, *, description: str = "") -> Callable[[Callable[[], Any]], Callable[[], Any]]:
    """Decorator: registers a zero-argument function returning a :class:`Rubric` or a rubric file's path."""

    def wrap(fn: Callable[[], Any]) -> Callable[[], Any]:
        RUBRICS.add(name, fn, description=description or (fn.__doc__ or ""), module=fn.__module__)
        return fn

    return wrap


def registered_rubric(name: str) -> Rubric | None:
    """The rubric registered as ``name``, validated, or None when no rubric has that name."""
    entry = RUBRICS.find(name)
    if entry is None:
        return None
    value: Any = entry.value
    if callable(value) and not isinstance(value, Rubric):
        value = value()
    if isinstance(value, Rubric):
        return rubric_from_data(value, f"rubric {name!r} ({entry.source})")
    if isinstance(value, str | Path):
        return load_rubric_file(value)
    raise InputError(f"rubric {name!r} ({entry.source}) is a {type(value).__name__}, not a Rubric or a path")


def load_rubric(name_or_path: str | Path) -> Rubric:
    """A registered rubric by name (the built-ins "falloesung", "grundprinzipien", a plugin's; see
    :func:`registered_rubrics`) or a YAML file by path.

    Raises InputError (file and field named) for a missing file, bad YAML or an inconsistent rubric.
    """
    if isinstance(name_or_path, str) and name_or_path.strip():
        found = registered_rubric(name_or_path)
        if found is not None:
            return found
    return load_rubric_file(name_or_path)


def registered_rubrics() -> tuple[str, ...]:
    """The names of every registered rubric (built-ins first)."""
    return RUBRICS.names()
