"""Judge calibration: offsets against a human pool (Delta_dir, Delta_sub) and creator-anchored correction fits."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from scipy import stats as sps

from benger.stats._clean import clean_pairs, to_float_array

TIERS = ("raw", "scalar", "affine")


def _p(value: float) -> float | None:
    return float(value) if np.isfinite(value) else None


def _varies(diff: np.ndarray) -> bool:
    """False for (numerically) constant differences, where t and Shapiro-Wilk are undefined."""
    return bool(np.ptp(diff) > 1e-9 * max(1.0, float(np.abs(diff).max())))


class _T(NamedTuple):
    statistic: float
    pvalue: float


def _ttest(x: np.ndarray, y: np.ndarray) -> _T:
    if not _varies(x - y):
        return _T(float("nan"), float("nan"))
    res = sps.ttest_rel(x, y)
    return _T(float(res.statistic), float(res.pvalue))


def _wilcoxon_p(x: np.ndarray, y: np.ndarray) -> float | None:
    if np.all(x == y):
        return None
    return _p(sps.wilcoxon(x, y).pvalue)


def calibration_offsets(
    judge: Sequence[float] | np.ndarray, full: Sequence[float] | np.ndarray, sub: Sequence[float] | np.ndarray
) -> dict[str, Any]:
    """Judge-vs-pool offsets of one judge on one pool of solutions (all arrays aligned per solution).

    ``full`` = mean of the k human raws; ``sub`` = the pool with one human replaced by the judge, divided by k.
    Delta_dir = judge - full (paired t, Wilcoxon); Delta_sub = sub - full (Shapiro-Wilk, paired t, Wilcoxon).
    A solution with any missing value (None/NaN) is dropped and counted (``n_missing``); ``ValueError`` for
    unequal lengths, an infinite value, or fewer than 3 complete solutions. Paper Tables 21-22.
    """
    j, f, s = (to_float_array(x, name) for x, name in ((judge, "judge"), (full, "full"), (sub, "sub")))
    if not j.size == f.size == s.size:
        raise ValueError(f"calibration needs aligned arrays (sizes {j.size}, {f.size}, {s.size})")
    keep = ~(np.isnan(j) | np.isnan(f) | np.isnan(s))
    n_missing = int(j.size - keep.sum())
    j, f, s = j[keep], f[keep], s[keep]
    if j.size < 3:
        raise ValueError(f"calibration needs at least 3 complete solutions, got {j.size} ({n_missing} missing)")
    diff, direct = s - f, j - f
    sw = sps.shapiro(diff) if _varies(diff) else None
    tt_sub, tt_dir = _ttest(s, f), _ttest(j, f)
    return {
        "n": int(j.size),
        "n_missing": n_missing,
        "full_mean": float(f.mean()),
        "sub_mean": float(s.mean()),
        "diff_mean": float(diff.mean()),
        "diff_sd": float(diff.std(ddof=1)),
        "diff_min": float(diff.min()),
        "diff_max": float(diff.max()),
        "sw_diff_W": _p(sw.statistic) if sw else None,
        "sw_diff_p": _p(sw.pvalue) if sw else None,
        "ttest_t": _p(tt_sub.statistic),
        "ttest_p": _p(tt_sub.pvalue),
        "wilcoxon_p": _wilcoxon_p(s, f),
        "judge_mean": float(j.mean()),
        "judge_minus_pool_mean": float(direct.mean()),
        "judge_minus_pool_sd": float(direct.std(ddof=1)),
        "judge_minus_pool_min": float(direct.min()),
        "judge_minus_pool_max": float(direct.max()),
        "judge_pool_ttest_t": _p(tt_dir.statistic),
        "judge_pool_ttest_p": _p(tt_dir.pvalue),
        "judge_pool_wilcoxon_p": _wilcoxon_p(j, f),
    }


class CalibrationFit(NamedTuple):
    """Creator-anchored correction: scalar y + a_scalar, affine a_affine + b_affine * y."""

    a_scalar: float
    a_affine: float
    b_affine: float
    n_train: int


def fit_calibration(judge: Sequence[float] | np.ndarray, creator: Sequence[float] | np.ndarray) -> CalibrationFit:
    """Fit both tiers on anchor pairs: a_scalar = mean(creator - judge); OLS of creator on judge (b = 0 if constant).

    Pairs with a missing side are dropped; ``ValueError`` when none remains.
    """
    j, c, _ = clean_pairs(judge, creator, "calibration anchors")
    if j.size == 0:
        raise ValueError("a calibration fit needs at least one complete anchor pair")
    fits = fit_calibration_batch(j, c, np.ones((1, j.size)))
    return CalibrationFit(float(fits[0][0]), float(fits[1][0]), float(fits[2][0]), int(j.size))


def fit_calibration_batch(
    judge: np.ndarray, creator: np.ndarray, weights: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Many fits at once: ``weights`` (R, n) holds each fit's multiplicity of every anchor (0 = left out)."""
    w = np.asarray(weights, dtype=float)
    if not (np.isfinite(judge).all() and np.isfinite(creator).all() and np.isfinite(w).all()):
        raise ValueError("fit_calibration_batch needs finite anchors and weights (drop missing anchors first)")
    total = w.sum(axis=1)
    if np.any(total == 0):
        raise ValueError("a calibration fit needs at least one anchor")
    mj, mc = (w @ judge) / total, (w @ creator) / total
    dj = judge[None, :] - mj[:, None]
    sxx = (w * dj * dj).sum(axis=1)
    sxy = (w * dj * (creator[None, :] - mc[:, None])).sum(axis=1)
    flat = sxx <= 1e-12 * np.maximum(1.0, total)
    b = np.where(flat, 0.0, sxy / np.where(flat, 1.0, sxx))
    return mc - mj, mc - b * mj, b


def apply_calibration(tier: str, y: np.ndarray | float, a_scalar: Any, a_affine: Any, b_affine: Any) -> np.ndarray:
    """Calibrated judge score(s) for a tier, clipped to [0, 100] (``raw`` returns y unchanged)."""
    y = np.asarray(y, dtype=float)
    if not np.isfinite(y).all():
        raise ValueError("apply_calibration needs finite judge scores (drop missing scores first)")
    if tier == "raw":
        return y
    if tier == "scalar":
        return np.asarray(np.clip(y + a_scalar, 0.0, 100.0))
    if tier == "affine":
        return np.asarray(np.clip(a_affine + b_affine * y, 0.0, 100.0))
    raise ValueError(f"unknown calibration tier {tier!r}; expected one of {TIERS}")
