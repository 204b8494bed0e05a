"""The one input-cleaning rule of the statistics stack (issue 14).

A missing value is ``None`` or a float NaN (``float("nan")``, ``np.nan``, a numpy NaN scalar). Every public
statistic either drops missing values explicitly and reports how many it dropped, or raises ``ValueError`` with a
message that says what was wrong. A missing value never reaches a p-value, a verdict or a rank. Infinite values
are never "missing": they are an input error (a score of +inf has no meaning on any benger scale).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

Numbers = Sequence[Any] | np.ndarray


def is_missing(value: object) -> bool:
    """True for ``None`` and for any float NaN (Python or numpy); False for every other value."""
    if value is None:
        return True
    if isinstance(value, float | np.floating):
        return math.isnan(float(value))
    return False


def to_float_array(values: Numbers, what: str = "values") -> np.ndarray:
    """A 1-d float array with NaN for every missing value; ``ValueError`` for non-numbers, infinities, ndim != 1."""
    arr: np.ndarray | None = None
    if isinstance(values, np.ndarray) and values.dtype.kind in "fiub":
        arr = values.astype(float)
    elif isinstance(values, list | tuple):
        # numpy converts None (and any NaN) to NaN itself: no per-value check in Python (issue 26); anything it
        # refuses takes the per-value path below, which words the error
        try:
            arr = np.asarray(values, dtype=float)
        except (TypeError, ValueError, OverflowError):
            arr = None
    if arr is None:
        try:
            arr = np.asarray([math.nan if is_missing(v) else v for v in values], dtype=float)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{what}: expected numbers (or None/NaN for a missing value): {exc}") from None
    if arr.ndim != 1:
        raise ValueError(f"{what}: expected a one-dimensional sequence of numbers, got shape {arr.shape}")
    inf = np.flatnonzero(np.isinf(arr))
    if inf.size:
        raise ValueError(
            f"{what}: {inf.size} infinite value(s), first at position {int(inf[0])}; "
            "use None or NaN to mark a missing value"
        )
    return arr


class Cleaned(NamedTuple):
    """The finite values in input order and how many missing values were dropped."""

    values: np.ndarray
    n_missing: int


def clean(values: Numbers, what: str = "values") -> Cleaned:
    """Drop missing values (None/NaN) from one sample; see :func:`to_float_array` for the errors."""
    arr = to_float_array(values, what)
    keep = ~np.isnan(arr)
    return Cleaned(arr[keep], int(arr.size - keep.sum()))


class CleanedPairs(NamedTuple):
    """Complete pairs (neither side missing) in input order and how many pairs were dropped."""

    a: np.ndarray
    b: np.ndarray
    n_missing: int


def clean_pairs(a: Numbers, b: Numbers, what: str = "pairs") -> CleanedPairs:
    """Drop every pair in which either value is missing; ``ValueError`` when the lengths differ."""
    if len(a) != len(b):
        raise ValueError(f"{what}: paired sequences differ in length ({len(a)} vs {len(b)})")
    x, y = to_float_array(a, f"{what} (first)"), to_float_array(b, f"{what} (second)")
    keep = ~(np.isnan(x) | np.isnan(y))
    return CleanedPairs(x[keep], y[keep], int(x.size - keep.sum()))


def keep_mask(values: Numbers, what: str = "values") -> np.ndarray:
    """Boolean mask of the non-missing positions (to filter aligned labels, e.g. clusters, the same way)."""
    return np.asarray(~np.isnan(to_float_array(values, what)), dtype=bool)


def require_finite(values: Numbers, what: str = "values") -> np.ndarray:
    """A float array that must hold no missing value at all (``ValueError`` naming the first missing position)."""
    arr = to_float_array(values, what)
    missing = np.flatnonzero(np.isnan(arr))
    if missing.size:
        raise ValueError(f"{what}: {missing.size} missing value(s), first at position {int(missing[0])}")
    return arr


def check_resamples(n_resamples: int) -> int:
    """``n_resamples`` as a positive int; ``ValueError`` for 0, negatives, non-integers."""
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int | np.integer) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer, got {n_resamples!r}")
    return int(n_resamples)


def check_confidence(confidence: float) -> float:
    """``confidence`` strictly between 0 and 1; ``ValueError`` otherwise."""
    if not isinstance(confidence, int | float) or not 0.0 < float(confidence) < 1.0:
        raise ValueError(f"confidence must lie strictly between 0 and 1, got {confidence!r}")
    return float(confidence)
