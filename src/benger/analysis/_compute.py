"""compute_all: every registered statistic (``benger.analysis.results``) as one JSON-serialisable dict: results.json."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from benger.analysis._data import POOLS, StudyData
from benger.analysis.results import Context, all_statistics, put, validate_results

_PLAIN = (str, int, bool, type(None))


def _jsonable(value: Any) -> Any:
    """Plain JSON types: numpy scalars to Python, tuples to lists, non-finite floats to None."""
    if type(value) in _PLAIN:  # most of a large study's nodes
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return _jsonable(value.tolist())
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, float | np.floating):
        f = float(value)
        return f if math.isfinite(f) else None
    return value


def with_superseded(data: StudyData) -> StudyData:
    """The same data with the superseded generations (and their metric values, where the data hold them) counted
    as final: the numbers the paper prints for Benchathon (Table 1 GPT-5.4 n = 30, Table 12 n = 208, ...)."""
    every = getattr(data, "metrics_all", None) or data.metrics
    gens = [replace(g, superseded=False) for g in data.generations]
    return replace(data, generations=gens, metrics={k: dict(v) for k, v in every.items()})


def compute_all(
    data: StudyData, *, seed: int = 0, n_boot: int = 2000, n_stacked: int = 500, include_superseded: bool = False
) -> dict[str, Any]:
    """All registered statistics (docs/results-schema.md), in registry order, each validated against its model.

    Seeded: equal inputs and seed give equal output. Raises ``pydantic.ValidationError`` if a compute function
    returns a block that does not fit its model.

    ``include_superseded`` counts the superseded generations as final (:func:`with_superseded`), as the paper prints.
    """
    from benger import __version__

    if include_superseded:
        data = with_superseded(data)

    ctx = Context(data, seed, n_boot, n_stacked, include_superseded)
    ctx.results["meta"] = {
        "benger_version": __version__,
        "seed": seed,
        "include_superseded": include_superseded,
        "n_boot": n_boot,
        "n_stacked": n_stacked,
        "primary_judge": data.primary_judge,
        "judges": data.judges(),
        "judge_labels": data.judge_labels,
        "judge_status": data.judge_status,
        "pools": list(POOLS),
        "inputs": data.inputs,
    }
    defs = all_statistics()
    for defn in defs:
        put(ctx.results, defn.path, defn.stamp(defn.compute(ctx)))
    results = dict(_jsonable(ctx.results))
    validate_results(results, defs)
    return results
