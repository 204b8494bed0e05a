"""Agreement statistics: correlations with missing-pair handling, MAE, Cohen's kappa, ICC(2,·), Krippendorff's alpha."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np
from scipy import stats as sps

from benger.stats._clean import (
    check_confidence,
    check_resamples,
    clean_pairs,
    is_missing,
    keep_mask,
    to_float_array,
)
from benger.stats._intervals import resample_cluster_sums, resample_index_chunks

Values = Sequence[float | None] | np.ndarray
MIN_PAIRS = 3
#: A denominator or variance below this share of its scale is 0 up to floating-point rounding: undefined.
ROUNDING = 1e-12


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
    agreement is 1 (undefined: :func:`undefined_reason` says why). ``ValueError`` for unequal lengths or for
    mixed label types (``1`` and ``'1'`` were silently two labels, issue 24).
    """
    if len(a) != len(b):
        raise ValueError(f"kappa needs two label sequences of equal length ({len(a)} vs {len(b)})")
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if not is_missing(x) and not is_missing(y)]
    if not pairs:
        return None
    kinds = {"text" if isinstance(v, str) else "number" if isinstance(v, int | float | np.number) else type(v).__name__
             for pair in pairs for v in pair}  # fmt: skip
    if len(kinds) > 1:
        example = next(v for pair in pairs for v in pair if isinstance(v, str))
        raise ValueError(
            f"cohen_kappa: mixed label types ({', '.join(sorted(kinds))}): a label such as {example!r} would count "
            "as different from the same value as a number; convert both sequences to one type"
        )
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
    #: why an ICC is undefined (None when both are defined)
    reason: str | None = None


def icc2(matrix: Sequence[Sequence[float]] | np.ndarray) -> ICCResult:
    """ICC(2,1) and ICC(2,k) of an n targets × k raters matrix (no missing cells).

    Both are None (undefined, ``reason`` says why) when their denominator is 0 up to rounding
    (:data:`ROUNDING` times the squared largest rating), e.g. when every rating is identical.
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
    # a denominator that is 0 up to rounding (every rating equal, or nearly): undefined, never +-1e16 (issue 24)
    tiny = ROUNDING * max(1.0, float(np.abs(x).max())) ** 2  # rounding of mean squares of values this large
    icc1 = (msr - mse) / den1 if abs(den1) > tiny else None
    icck = (msr - mse) / denk if abs(denk) > tiny else None
    reason = None if icc1 is not None and icck is not None else "no variance between targets or raters (denominator 0)"
    return ICCResult(icc1, icck, n, k, msr, msc, mse, reason)


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
    # sum over ordered pairs of (a - b)^2 = 2 m * sum((v - mean)^2): coincidences by value in O(N) memory (the
    # N x N difference matrix took 3 GB at 20,000 ratings)
    observed = sum(2.0 * g.size * _squares(g) / (g.size - 1) for g in groups) / n
    expected = 2.0 * n * _squares(values) / (n * (n - 1))
    if expected <= ROUNDING * max(1.0, float(np.abs(values).max()) ** 2):
        return None
    return float(1.0 - observed / expected)


def _squares(values: np.ndarray) -> float:
    """Sum of squared deviations from the mean (centred first: no cancellation)."""
    centred = values - values.mean()
    return float(np.dot(centred, centred))


def undefined_reason(a: Values, b: Values) -> str | None:
    """Why Pearson / Spearman / Kendall of ``a`` and ``b`` is undefined (None when it is defined): too few
    complete pairs, or a constant side."""
    x, y = complete_pairs(a, b)
    if x.size < MIN_PAIRS:
        return f"undefined: {x.size} complete pair(s), at least {MIN_PAIRS} needed"
    if _constant(x) or _constant(y):
        return "undefined: one side is constant (no variance)"
    return None


def kappa_undefined_reason(a: Sequence[object], b: Sequence[object]) -> str | None:
    """Why :func:`cohen_kappa` is undefined (None when defined): no complete pair, or chance agreement 1 (both
    raters used one and the same label throughout)."""
    pairs = [(x, y) for x, y in zip(a, b, strict=True) if not is_missing(x) and not is_missing(y)]
    if not pairs:
        return "undefined: no pair with both labels"
    if cohen_kappa(a, b) is None:
        return "undefined: chance agreement is 1 (both raters used one label only)"
    return None


def _cluster_pearsons(x: np.ndarray, y: np.ndarray, clusters: Sequence[str], n_resamples: int,
                      rng: np.random.Generator) -> np.ndarray:  # fmt: skip
    """Pearson r of each cluster-bootstrap resample (``resample_cluster_sums`` of the centred moments); a
    resample with a constant side (r undefined) is dropped."""
    dx, dy = x - x.mean(), y - y.mean()
    columns = [np.ones_like(dx), dx, dy, dx * dx, dy * dy, dx * dy]
    parts = []
    for n, sx, sy, sxx, syy, sxy in resample_cluster_sums(columns, clusters, n_resamples, rng):
        vx, vy, cov = sxx - sx * sx / n, syy - sy * sy / n, sxy - sx * sy / n
        ok = (vx > ROUNDING * sxx) & (vy > ROUNDING * syy)
        parts.append(np.clip(cov[ok] / np.sqrt(vx[ok] * vy[ok]), -1.0, 1.0))
    return np.concatenate(parts)


def bootstrap_pearson_ci(
    a: Values,
    b: Values,
    *,
    confidence: float = 0.95,
    n_resamples: int = 2000,
    seed: int | np.random.Generator | None = 0,
    clusters: Sequence[str] | None = None,
) -> tuple[float | None, float | None, float | None]:
    """Pearson r with a paired percentile bootstrap CI (pairs resampled together; degenerate resamples dropped).

    ``clusters`` (one label per pair, e.g. its task): whole clusters are resampled with their pairs (the cluster
    bootstrap of ``benger.stats._intervals``), so a task's repetitions stay one unit; fewer than 2 clusters give
    no interval. Pairs with a missing side are dropped with their label."""
    check_resamples(n_resamples)
    check_confidence(confidence)
    labels: list[str] | None = None
    if clusters is not None:
        if len(clusters) != len(a):
            raise ValueError(f"bootstrap_pearson_ci: {len(a)} pairs but {len(clusters)} cluster labels")
        keep = keep_mask(a) & keep_mask(b)
        labels = [str(c) for c, k in zip(clusters, keep, strict=True) if k]
    x, y = complete_pairs(a, b)
    r = pearson(x, y)
    if r is None:
        return None, None, None
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    if labels is not None and len(set(labels)) < 2:
        return r, None, None
    rs = _iid_pearsons(x, y, n_resamples, rng) if labels is None else _cluster_pearsons(x, y, labels, n_resamples, rng)
    if rs.size == 0:
        return r, None, None
    alpha = (1 - confidence) / 2
    low, high = np.percentile(rs, [100 * alpha, 100 * (1 - alpha)])
    return r, float(low), float(high)


def _iid_pearsons(x: np.ndarray, y: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """Pearson r of each iid resample of the pairs; a resample with a constant side (r undefined) is dropped."""
    parts = []
    for idx in resample_index_chunks(x.size, n_resamples, rng):
        xs, ys = x[idx], y[idx]
        ok = (np.ptp(xs, axis=1) > 0) & (np.ptp(ys, axis=1) > 0)  # a constant side: r undefined, dropped
        xs = xs[ok] - xs[ok].mean(axis=1, keepdims=True)
        ys = ys[ok] - ys[ok].mean(axis=1, keepdims=True)
        den = np.sqrt((xs * xs).sum(axis=1) * (ys * ys).sum(axis=1))
        parts.append(np.clip((xs * ys).sum(axis=1) / den, -1.0, 1.0))
    return np.concatenate(parts)
