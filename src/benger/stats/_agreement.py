"""Agreement statistics: correlations with missing-pair handling, MAE, Cohen's kappa, ICC(2,·), Krippendorff's alpha."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from scipy import stats as sps

from benger.stats._clean import check_confidence, check_resamples, clean_pairs, is_missing, to_float_array
from benger.stats._intervals import resample_index_chunks

Values = Sequence[float | None] | np.ndarray
MIN_PAIRS = 3


def complete_pairs(a: Values, b: Values) -> tuple[np.ndarray, np.ndarray]:
    """The pairs where neither value is None or NaN, as two float arrays (``benger.stats._clean.clean_pairs``;
    ``ValueError`` for unequal lengths or an infinite value)."""
    x, y, _ = clean_pairs(a, b)
    return x, y


def _finite(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None


def _constant(x: np.ndarray) -> bool:
    return bool(np.all(x == x[0]))


def pearson(a: Values, b: Values) -> float | None:
    """Pearson r over complete pairs; None with fewer than 3 pairs or a constant side."""
    x, y = complete_pairs(a, b)
    if x.size < MIN_PAIRS or _constant(x) or _constant(y):
        return None
    return _finite(sps.pearsonr(x, y).statistic)


def spearman(a: Values, b: Values) -> float | None:
    """Spearman rho (average ranks for ties) over complete pairs; None if undefined."""
    x, y = complete_pairs(a, b)
    if x.size < MIN_PAIRS or _constant(x) or _constant(y):
        return None
    return _finite(sps.spearmanr(x, y).statistic)


def kendall_tau_b(a: Values, b: Values) -> float | None:
    """Kendall tau-b over complete pairs; None if undefined."""
    x, y = complete_pairs(a, b)
    if x.size < MIN_PAIRS or _constant(x) or _constant(y):
        return None
    return _finite(sps.kendalltau(x, y, variant="b").statistic)


def mae(a: Values, b: Values) -> float | None:
    """Mean absolute difference over complete pairs; None without pairs."""
    x, y = complete_pairs(a, b)
    if x.size == 0:
        return None
    return float(np.mean(np.abs(x - y)))


def cohen_kappa(a: Sequence[object], b: Sequence[object]) -> float | None:
    """Unweighted Cohen's kappa of two label sequences (paper Table 17, pass/fail).

    A pair with a missing label (None or any float NaN) is dropped; None when no pair remains or when chance
    agreement is 1 (undefined). ``ValueError`` for unequal lengths.
    """
    if len(a) != len(b):
        raise ValueError(f"kappa needs two label sequences of equal length ({len(a)} vs {len(b)})")
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if not is_missing(x) and not is_missing(y)]
    if not pairs:
        return None
    labels = sorted({p for pair in pairs for p in pair}, key=str)
    index = {label: i for i, label in enumerate(labels)}
    table = np.zeros((len(labels), len(labels)))
    for x, y in pairs:
        table[index[x], index[y]] += 1
    n = table.sum()
    observed = np.trace(table) / n
    expected = float((table.sum(axis=0) * table.sum(axis=1)).sum() / n**2)
    if expected == 1.0:
        return None
    return float((observed - expected) / (1.0 - expected))


class ICCResult(NamedTuple):
    """Two-way random effects, absolute agreement (Shrout & Fleiss ICC(2,1) and ICC(2,k))."""

    icc_2_1: float | None
    icc_2_k: float | None
    n: int
    k: int
    msr: float
    msc: float
    mse: float


def icc2(matrix: Sequence[Sequence[float]] | np.ndarray) -> ICCResult:
    """ICC(2,1) and ICC(2,k) of an n targets × k raters matrix (no missing cells).

    Both are None (undefined) when their denominator is 0, e.g. when every rating is identical.
    """
    rows = [to_float_array(row, f"ICC row {i}") for i, row in enumerate(matrix)]
    if len({r.size for r in rows}) > 1:
        raise ValueError("ICC needs an n x k matrix (every row the same length)")
    x = np.asarray(rows, dtype=float)
    if x.ndim != 2 or x.shape[0] < 2 or x.shape[1] < 2:
        raise ValueError("ICC needs an n x k matrix with n >= 2 and k >= 2")
    if np.isnan(x).any():
        raise ValueError("ICC(2,.) needs a complete matrix (no missing ratings)")
    n, k = x.shape
    grand = x.mean()
    ssr = k * float(((x.mean(axis=1) - grand) ** 2).sum())
    ssc = n * float(((x.mean(axis=0) - grand) ** 2).sum())
    sst = float(((x - grand) ** 2).sum())
    msr, msc = ssr / (n - 1), ssc / (k - 1)
    mse = (sst - ssr - ssc) / ((n - 1) * (k - 1))
    den1 = msr + (k - 1) * mse + k * (msc - mse) / n
    denk = msr + (msc - mse) / n
    icc1 = (msr - mse) / den1 if den1 != 0 else None
    icck = (msr - mse) / denk if denk != 0 else None
    return ICCResult(icc1, icck, n, k, msr, msc, mse)


def krippendorff_alpha_interval(units: Sequence[Sequence[float | None]]) -> float | None:
    """Krippendorff's alpha with the interval metric; ``units`` holds each unit's ratings (None/NaN = missing).

    Units with fewer than two ratings are not pairable and are ignored. None if undefined (no pairable unit, or
    no variation at all). ``ValueError`` for an infinite rating.
    """
    cleaned = [to_float_array(unit, f"ratings of unit {i}") for i, unit in enumerate(units)]
    groups = [g[~np.isnan(g)] for g in cleaned]
    groups = [g for g in groups if g.size >= 2]
    if not groups:
        return None
    values = np.concatenate(groups)
    n = values.size
    observed = sum(float(((g[:, None] - g[None, :]) ** 2).sum()) / (g.size - 1) for g in groups) / n
    expected = float(((values[:, None] - values[None, :]) ** 2).sum()) / (n * (n - 1))
    if expected == 0:
        return None
    return float(1.0 - observed / expected)


def bootstrap_pearson_ci(
    a: Values,
    b: Values,
    *,
    confidence: float = 0.95,
    n_resamples: int = 2000,
    seed: int | np.random.Generator | None = 0,
) -> tuple[float | None, float | None, float | None]:
    """Pearson r with a paired percentile bootstrap CI (pairs resampled together; degenerate resamples dropped)."""
    check_resamples(n_resamples)
    check_confidence(confidence)
    x, y = complete_pairs(a, b)
    r = pearson(x, y)
    if r is None:
        return None, None, None
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    parts = []
    for idx in resample_index_chunks(x.size, n_resamples, rng):
        xs, ys = x[idx], y[idx]
        ok = (np.ptp(xs, axis=1) > 0) & (np.ptp(ys, axis=1) > 0)  # a constant side: r undefined, dropped
        xs = xs[ok] - xs[ok].mean(axis=1, keepdims=True)
        ys = ys[ok] - ys[ok].mean(axis=1, keepdims=True)
        den = np.sqrt((xs * xs).sum(axis=1) * (ys * ys).sum(axis=1))
        parts.append(np.clip((xs * ys).sum(axis=1) / den, -1.0, 1.0))
    rs = np.concatenate(parts)
    if rs.size == 0:
        return r, None, None
    alpha = (1 - confidence) / 2
    low, high = np.percentile(rs, [100 * alpha, 100 * (1 - alpha)])
    return r, float(low), float(high)
