"""The typed results.json (issue 14) and the statistics registry (issue 17).

``Results`` is the whole file; each block is a :class:`Block` subclass with ``method``, ``inputs``, an optional
``unit``, ``paper_ref`` and ``source``. A statistic is one model, one compute function and one registration
(:func:`statistic`); ``compute_all`` runs the registry. ``docs/results-schema.md`` is generated from the registry
and the models (:func:`benger.analysis.results.docs.render_schema`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from benger.analysis.results._base import (
    STATISTICS,
    Block,
    Container,
    Context,
    StatisticDef,
    all_statistics,
    get_statistic,
    put,
    register,
    statistic,
    unregister,
)
from benger.analysis.results._top import Results


def value_at(results: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path of a results dict (``KeyError`` if absent)."""
    node: Any = results
    for part in path.split("."):
        node = node[part]
    return node


def validate_results(results: Mapping[str, Any], defs: Sequence[StatisticDef] | None = None) -> Results:
    """Validates a results dict: the top-level model and each registered statistic against its own model (so a
    plugin's block is checked too). Raises ``pydantic.ValidationError``; returns the typed ``Results``."""
    typed = Results.model_validate(results)
    for defn in all_statistics() if defs is None else defs:
        defn.validate(value_at(results, defn.path))
    return typed


__all__ = [
    "STATISTICS",
    "Block",
    "Container",
    "Context",
    "Results",
    "StatisticDef",
    "all_statistics",
    "get_statistic",
    "put",
    "register",
    "statistic",
    "unregister",
    "validate_results",
    "value_at",
]
