"""Confidence intervals for a mean: seeded, vectorised percentile bootstrap and the analytic normal interval."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from scipy import stats as sps

DEFAULT_RESAMPLES = 2000
DEFAULT_SEED = 0


class Interval(NamedTuple):
    """A point estimate with the ends of its confidence interval."""

    estimate: float
    low: float
    high: float

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2.0


def _as_array(values: Sequence[float] | np.ndarray) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 1:
        raise ValueError("expected a one-dimensional sequence of numbers")
    return arr


def bootstrap_mean_ci(
    values: Sequence[float] | np.ndarray,
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int | np.random.Generator | None = DEFAULT_SEED,
) -> Interval:
    """Percentile bootstrap interval for the mean (iid resampling, all resamples drawn in one matrix).

    With fewer than 2 values the interval collapses to the estimate (or NaN for no values).
    """
    arr = _as_array(values)
    if arr.size == 0:
        return Interval(float("nan"), float("nan"), float("nan"))
    estimate = float(arr.mean())
    if arr.size == 1:
        return Interval(estimate, estimate, estimate)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    idx = rng.integers(0, arr.size, size=(n_resamples, arr.size))
    means = arr[idx].mean(axis=1)
    alpha = (1.0 - confidence) / 2.0
    low, high = np.percentile(means, [100 * alpha, 100 * (1 - alpha)])
    return Interval(estimate, float(low), float(high))


def normal_mean_ci(values: Sequence[float] | np.ndarray, *, confidence: float = 0.95) -> Interval:
    """Analytic normal interval mean ± z·sd/sqrt(n) with the sample sd (n-1), z = Φ⁻¹((1+confidence)/2)."""
    arr = _as_array(values)
    if arr.size == 0:
        return Interval(float("nan"), float("nan"), float("nan"))
    estimate = float(arr.mean())
    if arr.size == 1:
        return Interval(estimate, estimate, estimate)
    z = float(sps.norm.ppf(0.5 + confidence / 2.0))
    half = z * float(arr.std(ddof=1)) / float(np.sqrt(arr.size))
    return Interval(estimate, estimate - half, estimate + half)
