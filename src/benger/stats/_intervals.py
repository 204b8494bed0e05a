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


def _rng(seed: int | np.random.Generator | None) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _percentiles(samples: np.ndarray, confidence: float) -> tuple[float, float]:
    alpha = (1.0 - confidence) / 2.0
    low, high = np.percentile(samples, [100 * alpha, 100 * (1 - alpha)])
    return float(low), float(high)


def bootstrap_means(values: Sequence[float] | np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """``n_resamples`` iid bootstrap means of ``values`` (one index matrix ``(B, n)``)."""
    arr = _as_array(values)
    idx = rng.integers(0, arr.size, size=(n_resamples, arr.size))
    return np.asarray(arr[idx].mean(axis=1))


def bootstrap_diff_ci(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int | np.random.Generator | None = DEFAULT_SEED,
) -> Interval:
    """Two-sample iid percentile bootstrap of mean(a) - mean(b); each arm is resampled on its own."""
    xa, xb = _as_array(a), _as_array(b)
    if xa.size == 0 or xb.size == 0:
        return Interval(float("nan"), float("nan"), float("nan"))
    rng = _rng(seed)
    diffs = bootstrap_means(xa, n_resamples, rng) - bootstrap_means(xb, n_resamples, rng)
    return Interval(float(xa.mean() - xb.mean()), *_percentiles(diffs, confidence))


def _cluster_means(
    values: np.ndarray, clusters: Sequence[str], n_resamples: int, rng: np.random.Generator
) -> np.ndarray:
    labels, inverse = np.unique(np.asarray(clusters, dtype=object).astype(str), return_inverse=True)
    sums = np.bincount(inverse, weights=values, minlength=labels.size)
    counts = np.bincount(inverse, minlength=labels.size).astype(float)
    idx = rng.integers(0, labels.size, size=(n_resamples, labels.size))
    return np.asarray(sums[idx].sum(axis=1) / counts[idx].sum(axis=1))


def cluster_bootstrap_mean_ci(
    values: Sequence[float] | np.ndarray,
    clusters: Sequence[str],
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int | np.random.Generator | None = DEFAULT_SEED,
) -> Interval:
    """Percentile bootstrap of a pooled mean that resamples whole clusters (e.g. participants or tasks)."""
    arr = _as_array(values)
    if arr.size == 0 or len(clusters) != arr.size:
        raise ValueError("values and clusters must be non-empty and of equal length")
    means = _cluster_means(arr, clusters, n_resamples, _rng(seed))
    return Interval(float(arr.mean()), *_percentiles(means, confidence))


def cluster_bootstrap_diff_ci(
    a: Sequence[float] | np.ndarray,
    clusters_a: Sequence[str],
    b: Sequence[float] | np.ndarray,
    clusters_b: Sequence[str],
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int | np.random.Generator | None = DEFAULT_SEED,
) -> Interval:
    """Difference of pooled means; clusters are resampled with replacement separately in each arm."""
    xa, xb = _as_array(a), _as_array(b)
    if xa.size == 0 or xb.size == 0 or len(clusters_a) != xa.size or len(clusters_b) != xb.size:
        raise ValueError("each arm needs values and cluster labels of equal, non-zero length")
    rng = _rng(seed)
    diffs = _cluster_means(xa, clusters_a, n_resamples, rng) - _cluster_means(xb, clusters_b, n_resamples, rng)
    return Interval(float(xa.mean() - xb.mean()), *_percentiles(diffs, confidence))


def paired_bootstrap_ci(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int | np.random.Generator | None = DEFAULT_SEED,
) -> Interval:
    """Paired percentile bootstrap of mean(a - b): the pairs are resampled together."""
    xa, xb = _as_array(a), _as_array(b)
    if xa.size != xb.size:
        raise ValueError("paired samples must have equal length")
    return bootstrap_mean_ci(xa - xb, confidence=confidence, n_resamples=n_resamples, seed=seed)


class TostResult(NamedTuple):
    """Bootstrap TOST: the (1 - 2·alpha) percentile interval of mean(a) - mean(b) against ±margin."""

    estimate: float
    low: float
    high: float
    margin: float
    equivalent: bool


def bootstrap_tost(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    *,
    margin: float,
    alpha: float = 0.05,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int | np.random.Generator | None = DEFAULT_SEED,
) -> TostResult:
    """Two one-sided tests by bootstrap: equivalent iff the alpha and 1-alpha percentiles lie inside ±margin."""
    interval = bootstrap_diff_ci(a, b, confidence=1 - 2 * alpha, n_resamples=n_resamples, seed=seed)
    equivalent = bool(interval.low > -margin and interval.high < margin)
    return TostResult(interval.estimate, interval.low, interval.high, margin, equivalent)
