"""``benger extensions``: every registered metric, provider, statistic, rubric and corpus reader, and its source.

Each kind is a :class:`benger.registry.Registry` (docs/extending.md); an installed plugin's entries (entry point
groups ``benger.metrics``, ``benger.providers``, ``benger.statistics``, ``benger.rubrics``, ``benger.corpora``)
appear here with the entry point and distribution they came from.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer

from benger.errors import InputError

#: the module that creates each kind's registry (importing it registers the kind)
REGISTRY_MODULES: dict[str, str] = {
    "metric": "benger.metrics._registry",
    "provider": "benger.llm._registry",
    "statistic": "benger.analysis.results._base",
    "rubric": "benger.judge._rubric_registry",
    "corpus reader": "benger.corpora._readers",
}


def all_registries() -> dict[str, Any]:
    """Every kind's registry by kind, in the order of docs/extending.md."""
    from benger.registry import registries

    for module in REGISTRY_MODULES.values():
        importlib.import_module(module)
    found = registries()
    return {kind: found[kind] for kind in REGISTRY_MODULES}


def register(app: typer.Typer) -> None:
    @app.command("extensions")
    def extensions_cmd(
        kind: Annotated[
            str | None,
            typer.Option("--kind", help="Only this kind: metric, provider, statistic, rubric or 'corpus reader'."),
        ] = None,
    ) -> None:
        """List every registered extension (built-in, from an installed plugin's entry points, or at run time)."""
        registries = all_registries()
        if kind is not None and kind not in registries:
            raise InputError(f"unknown kind {kind!r}; use one of {', '.join(registries)}", field="--kind")
        for name, registry in registries.items():
            if kind is not None and name != kind:
                continue
            entries = registry.entries()
            typer.echo(f"{name}s ({len(entries)}, entry point group {registry.group}):")
            for entry in entries:
                extra = f" [extra: {entry.extra}]" if entry.extra else ""
                about = f" - {entry.description}" if entry.description else ""
                typer.echo(f"  {entry.name}  ({entry.source}){extra}{about}")
