"""Confidence intervals for a mean: seeded percentile bootstraps (resamples drawn in bounded chunks) and the
analytic normal interval (clipped to the scale's bounds when given).

Missing values (None/NaN) are dropped and counted (``Interval.n_missing``); an interval that is undefined (fewer
than 2 values) has ``low = high = None``; no values at all, an infinite value or ``n_resamples < 1`` raise
``ValueError`` (see ``benger.stats._clean``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from typing import NamedTuple

import numpy as np

from benger.stats._clean import Numbers, check_confidence, check_resamples, clean, clean_pairs, keep_mask

DEFAULT_RESAMPLES = 2000
DEFAULT_SEED = 0
# At most this many resample indices exist at once (512 KiB of int64, and as many gathered values): memory stays
# bounded for any n, and a block and its values stay in a core's L2 cache (measured at the leaderboard's shapes,
# 16 x 4,000 and 32 x 8,000 values, B = 2000: 20 % less CPU than blocks of 2**20 indices; the same numbers).
CHUNK_ELEMENTS = 1 << 16
Seed = int | np.random.Generator | None


class Interval(NamedTuple):
    """A point estimate, its confidence interval (``None`` ends when undefined), the values used and dropped.

    ``n`` counts the values used (both arms together for a two-sample interval); ``n_missing`` the missing
    values (None/NaN) that were dropped before computing.
    """

    estimate: float
    low: float | None
    high: float | None
    n: int = 0
    n_missing: int = 0

    @property
    def half_width(self) -> float | None:
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2.0


def _rng(seed: Seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def named_rng(seed: int, *names: str) -> np.random.Generator:
    """A generator derived from ``seed`` and a stable hash (SHA-256) of ``names``, e.g. a metric name: the stream
    of one cell never depends on which other cells exist or on their order (issue 10, RQ3 seeds)."""
    digest = hashlib.sha256("\x1f".join(names).encode("utf-8")).digest()
    words = [int.from_bytes(digest[i : i + 4], "little") for i in range(0, 16, 4)]
    return np.random.default_rng([int(seed) & 0xFFFFFFFF, *words])


def _percentiles(samples: np.ndarray, confidence: float) -> tuple[float, float]:
    alpha = (1.0 - confidence) / 2.0
    low, high = np.percentile(samples, [100 * alpha, 100 * (1 - alpha)])
    return float(low), float(high)


def resample_index_chunks(n: int, n_resamples: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """The ``(B, n)`` iid resample index matrix, yielded as consecutive row blocks of at most ``CHUNK_ELEMENTS``.

    numpy draws the integers in stream order, so the blocks stacked equal ``rng.integers(0, n, (B, n))`` exactly
    and leave the generator in the same state (tested).
    """
    rows = max(1, CHUNK_ELEMENTS // max(n, 1))
    for start in range(0, n_resamples, rows):
        yield rng.integers(0, n, size=(min(rows, n_resamples - start), n))


def resample_means(arrays: Sequence[np.ndarray], n_resamples: int, rng: np.random.Generator) -> list[np.ndarray]:
    """The ``n_resamples`` iid bootstrap means of each of ``arrays`` (1-d float arrays of one size n), every
    block of resample indices drawn once and gathered for each array: ``arrays[k][idx].mean(axis=1)`` of the
    blocks of :func:`resample_index_chunks`, bit for bit (the same gather, numpy's pairwise sum of each row,
    then one division by n, as ``ndarray.mean`` does it).

    The rows are gathered into one reused buffer of ``CHUNK_ELEMENTS`` values and summed in place into the
    output, so no block-sized array is allocated per array and block."""
    n = int(arrays[0].size)
    out = [np.empty(n_resamples) for _ in arrays]
    buffer = np.empty(max(1, CHUNK_ELEMENTS // max(n, 1)) * n)
    start = 0
    for idx in resample_index_chunks(n, n_resamples, rng):
        rows = idx.shape[0]
        gathered = buffer[: rows * n].reshape(rows, n)
        for values, means in zip(arrays, out, strict=True):
            np.take(values, idx, out=gathered, mode="clip")  # the indices are in range: clip never applies
            np.add.reduce(gathered, axis=1, out=means[start : start + rows])
        start += rows
    for means in out:
        means /= n
    return out


def _means(arr: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    return resample_means([arr], n_resamples, rng)[0]


def bootstrap_means(values: Numbers, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """``n_resamples`` iid bootstrap means of ``values`` (missing values dropped), shape ``(B,)``.

    Raises ``ValueError`` without values or with ``n_resamples < 1``.
    """
    arr = clean(values).values
    if arr.size == 0:
        raise ValueError("bootstrap_means: no values (after dropping missing ones)")
    return _means(arr, check_resamples(n_resamples), rng)


def bootstrap_mean_ci(
    values: Numbers,
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: Seed = DEFAULT_SEED,
) -> Interval:
    """Percentile bootstrap interval for the mean (iid resampling; paper Table 1, B = 2000).

    The ends are percentiles of resampled means, so they lie inside [min, max] of the data and therefore inside
    any bounded scale. n = 1: ends ``None`` (undefined). n = 0: ``ValueError``.
    """
    arr, n_missing = clean(values, "bootstrap_mean_ci")
    check_confidence(confidence)
    check_resamples(n_resamples)
    if arr.size == 0:
        raise ValueError(f"bootstrap_mean_ci: no values ({n_missing} missing dropped)")
    estimate = float(arr.mean())
    if arr.size == 1:
        return Interval(estimate, None, None, 1, n_missing)
    means = _means(arr, n_resamples, _rng(seed))
    return Interval(estimate, *_percentiles(means, confidence), int(arr.size), n_missing)


def bootstrap_mean_cis(
    samples: Sequence[Numbers],
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> list[Interval]:
    """``[bootstrap_mean_ci(s, seed=seed, ...) for s in samples]``, identical to the last bit, for an integer seed.

    Each of those calls draws the same resample indices for samples of one size (a fresh generator from the same
    seed), so here every block of indices is drawn once per size and gathered for each sample of that size: the
    leaderboard's rows (one seed, often one n) pay for one B x n draw instead of one per row. Memory stays one
    block of ``CHUNK_ELEMENTS`` indices plus B means per sample. Errors as :func:`bootstrap_mean_ci`.
    """
    check_confidence(confidence)
    check_resamples(n_resamples)
    cleaned = [clean(values, "bootstrap_mean_ci") for values in samples]
    out: list[Interval | None] = [None] * len(cleaned)
    by_size: dict[int, list[int]] = {}
    for k, (arr, n_missing) in enumerate(cleaned):
        if arr.size == 0:
            raise ValueError(f"bootstrap_mean_ci: no values ({n_missing} missing dropped)")
        if arr.size == 1:
            out[k] = Interval(float(arr.mean()), None, None, 1, n_missing)
        else:
            by_size.setdefault(int(arr.size), []).append(k)
    for size, members in by_size.items():
        means = resample_means([cleaned[k].values for k in members], n_resamples, np.random.default_rng(seed))
        for k, resampled in zip(members, means, strict=True):
            arr, n_missing = cleaned[k]
            low, high = _percentiles(resampled, confidence)
            out[k] = Interval(float(arr.mean()), low, high, size, n_missing)
    return [interval for interval in out if interval is not None]


def _clip(low: float, high: float, bounds: tuple[float, float] | None) -> tuple[float, float]:
    if bounds is None:
        return low, high
    return max(low, bounds[0]), min(high, bounds[1])


def _check_bounds(arr: np.ndarray, bounds: tuple[float, float] | None, what: str) -> None:
    if bounds is None:
        return
    lo, hi = bounds
    if not lo < hi:
        raise ValueError(f"{what}: bounds must satisfy low < high, got {bounds}")
    if arr.size and (arr.min() < lo or arr.max() > hi):
        raise ValueError(f"{what}: values outside the scale [{lo:g}, {hi:g}] (min {arr.min():g}, max {arr.max():g})")


def normal_mean_ci(values: Numbers, *, confidence: float = 0.95, bounds: tuple[float, float] | None = None) -> Interval:
    """Analytic normal interval mean ± z·sd/√n (sample sd, n − 1; z = Φ⁻¹((1 + confidence)/2)); paper Table 1 ZJS.

    ``bounds`` (e.g. ``(0, 100)`` for raw points, ``(0, 1)`` for rates) clips the ends to the scale, and values
    outside it are a ``ValueError``. n = 1: ends ``None``. n = 0: ``ValueError``.
    """
    arr, n_missing = clean(values, "normal_mean_ci")
    check_confidence(confidence)
    _check_bounds(arr, bounds, "normal_mean_ci")
    if arr.size == 0:
        raise ValueError(f"normal_mean_ci: no values ({n_missing} missing dropped)")
    estimate = float(arr.mean())
    if arr.size == 1:
        return Interval(estimate, None, None, 1, n_missing)
    return _normal(estimate, float(arr.std(ddof=1)), int(arr.size), confidence, bounds, n_missing)


def _normal(
    mean: float, sd: float, n: int, confidence: float, bounds: tuple[float, float] | None, n_missing: int
) -> Interval:
    from benger.stats._quantiles import norm_ppf  # here: the bootstrap intervals need numpy only

    half = norm_ppf(0.5 + confidence / 2.0) * sd / float(np.sqrt(n))
    return Interval(mean, *_clip(mean - half, mean + half, bounds), n, n_missing)


def normal_ci_from_summary(
    mean: float, sd: float, n: int, *, confidence: float = 0.95, bounds: tuple[float, float] | None = None
) -> Interval:
    """:func:`normal_mean_ci` from a released summary (mean, sample sd, n); ends ``None`` when n < 2."""
    check_confidence(confidence)
    if not (np.isfinite(mean) and np.isfinite(sd)) or sd < 0 or n < 0:
        raise ValueError(f"normal_ci_from_summary: invalid summary mean={mean!r}, sd={sd!r}, n={n!r}")
    if n < 2:
        return Interval(float(mean), None, None, int(n), 0)
    return _normal(float(mean), float(sd), int(n), confidence, bounds, 0)


def bootstrap_diff_ci(
    a: Numbers,
    b: Numbers,
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: Seed = DEFAULT_SEED,
) -> Interval:
    """Two-sample iid percentile bootstrap of mean(a) − mean(b); each arm is resampled on its own (paper RQ4).

    Ends ``None`` when an arm has fewer than 2 values; ``ValueError`` when an arm has none.
    """
    (xa, ma), (xb, mb) = clean(a, "bootstrap_diff_ci (a)"), clean(b, "bootstrap_diff_ci (b)")
    check_confidence(confidence)
    check_resamples(n_resamples)
    if xa.size == 0 or xb.size == 0:
        raise ValueError(f"bootstrap_diff_ci: an arm has no values (sizes {xa.size}, {xb.size})")
    estimate, n = float(xa.mean() - xb.mean()), int(xa.size + xb.size)
    if xa.size < 2 or xb.size < 2:
        return Interval(estimate, None, None, n, ma + mb)
    rng = _rng(seed)
    diffs = _means(xa, n_resamples, rng) - _means(xb, n_resamples, rng)
    return Interval(estimate, *_percentiles(diffs, confidence), n, ma + mb)


def _clean_clustered(values: Numbers, clusters: Sequence[str], what: str) -> tuple[np.ndarray, list[str], int]:
    if len(clusters) != len(values):
        raise ValueError(f"{what}: {len(values)} values but {len(clusters)} cluster labels")
    keep = keep_mask(values, what)
    arr = clean(values, what).values
    return arr, [str(c) for c, k in zip(clusters, keep, strict=True) if k], int((~keep).sum())


def resample_cluster_sums(
    columns: Sequence[np.ndarray], clusters: Sequence[str], n_resamples: int, rng: np.random.Generator
) -> Iterator[list[np.ndarray]]:
    """The cluster bootstrap (whole clusters drawn with replacement, e.g. a task with its repetitions): per
    block of resamples (:func:`resample_index_chunks` over the clusters, in label order), each column's sum over
    the drawn clusters' rows. ``columns`` are float arrays aligned with ``clusters``; a statistic that is a
    function of sums (a pooled mean, a Pearson r) is computed from them without expanding the rows."""
    labels, inverse = np.unique(np.asarray(clusters, dtype=object).astype(str), return_inverse=True)
    sums = [np.bincount(inverse, weights=column, minlength=labels.size) for column in columns]
    for idx in resample_index_chunks(labels.size, n_resamples, rng):
        yield [s[idx].sum(axis=1) for s in sums]


def _cluster_means(
    values: np.ndarray, clusters: Sequence[str], n_resamples: int, rng: np.random.Generator
) -> np.ndarray:
    blocks = resample_cluster_sums([values, np.ones_like(values)], clusters, n_resamples, rng)
    return np.concatenate([total / count for total, count in blocks])


def cluster_bootstrap_mean_ci(
    values: Numbers,
    clusters: Sequence[str],
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: Seed = DEFAULT_SEED,
) -> Interval:
    """Percentile bootstrap of a pooled mean that resamples whole clusters (e.g. participants or tasks).

    A missing value drops its cluster label with it; ends ``None`` with fewer than 2 clusters.
    """
    arr, labels, n_missing = _clean_clustered(values, clusters, "cluster_bootstrap_mean_ci")
    check_confidence(confidence)
    check_resamples(n_resamples)
    if arr.size == 0:
        raise ValueError(f"cluster_bootstrap_mean_ci: no values ({n_missing} missing dropped)")
    if len(set(labels)) < 2:
        return Interval(float(arr.mean()), None, None, int(arr.size), n_missing)
    means = _cluster_means(arr, labels, n_resamples, _rng(seed))
    return Interval(float(arr.mean()), *_percentiles(means, confidence), int(arr.size), n_missing)


def cluster_bootstrap_diff_ci(
    a: Numbers,
    clusters_a: Sequence[str],
    b: Numbers,
    clusters_b: Sequence[str],
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: Seed = DEFAULT_SEED,
) -> Interval:
    """Difference of pooled means; clusters are resampled with replacement separately in each arm (paper RQ4).

    Ends ``None`` when an arm has fewer than 2 clusters; ``ValueError`` when an arm has no values.
    """
    xa, la, ma = _clean_clustered(a, clusters_a, "cluster_bootstrap_diff_ci (a)")
    xb, lb, mb = _clean_clustered(b, clusters_b, "cluster_bootstrap_diff_ci (b)")
    check_confidence(confidence)
    check_resamples(n_resamples)
    if xa.size == 0 or xb.size == 0:
        raise ValueError(f"cluster_bootstrap_diff_ci: an arm has no values (sizes {xa.size}, {xb.size})")
    estimate, n = float(xa.mean() - xb.mean()), int(xa.size + xb.size)
    if len(set(la)) < 2 or len(set(lb)) < 2:
        return Interval(estimate, None, None, n, ma + mb)
    rng = _rng(seed)
    diffs = _cluster_means(xa, la, n_resamples, rng) - _cluster_means(xb, lb, n_resamples, rng)
    return Interval(estimate, *_percentiles(diffs, confidence), n, ma + mb)


def paired_bootstrap_ci(
    a: Numbers,
    b: Numbers,
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: Seed = DEFAULT_SEED,
) -> Interval:
    """Paired percentile bootstrap of mean(a − b): pairs with a missing side are dropped (counted), the rest
    resampled together."""
    xa, xb, n_missing = clean_pairs(a, b, "paired_bootstrap_ci")
    ci = bootstrap_mean_ci(xa - xb, confidence=confidence, n_resamples=n_resamples, seed=seed)
    return ci._replace(n_missing=n_missing)


class TostResult(NamedTuple):
    """Bootstrap TOST: the (1 − 2·alpha) percentile interval of mean(a) − mean(b) against ±margin."""

    estimate: float
    low: float | None
    high: float | None
    margin: float
    equivalent: bool


def bootstrap_tost(
    a: Numbers,
    b: Numbers,
    *,
    margin: float,
    alpha: float = 0.05,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: Seed = DEFAULT_SEED,
    clusters: tuple[Sequence[str], Sequence[str]] | None = None,
) -> TostResult:
    """Two one-sided tests by bootstrap: equivalent iff the alpha and 1 − alpha percentiles lie inside ±margin
    (never equivalent when the interval is undefined). ``clusters`` (a label per value of ``a`` and of ``b``):
    whole clusters are resampled in each arm (:func:`cluster_bootstrap_diff_ci`), else each value (iid)."""
    level = 1 - 2 * alpha
    if clusters is not None:
        interval = cluster_bootstrap_diff_ci(a, clusters[0], b, clusters[1], confidence=level,
                                             n_resamples=n_resamples, seed=seed)  # fmt: skip
    else:
        interval = bootstrap_diff_ci(a, b, confidence=level, n_resamples=n_resamples, seed=seed)
    low, high = interval.low, interval.high
    equivalent = low is not None and high is not None and low > -margin and high < margin
    return TostResult(interval.estimate, low, high, margin, bool(equivalent))
