"""One entry point for a mean's interval by method name, the BCa and Student-t intervals, and the choice of a
method for a study's n from the simulated coverage table (issue 24 item 3).

Methods: ``percentile`` (seeded iid percentile bootstrap, the paper's Table 1; ``bootstrap`` is its old name),
``bca`` (bias-corrected and accelerated bootstrap, Efron 1987: jackknife acceleration), ``t`` (mean ± t_{n-1}
sd/√n), ``normal`` (mean ± z sd/√n, the paper's ZJS column). Fewer than :data:`MIN_INTERVAL_N` values give no
interval (ends ``None``), never a zero-width one. ``auto`` picks, for the values' n, the method whose simulated
coverage of a nominal 95 % interval is closest to 95 % (:data:`COVERAGE`, made by
``benchmarks/ci_coverage.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

import numpy as np

from benger.stats._clean import Numbers, check_confidence, check_resamples, clean
from benger.stats._intervals import (
    DEFAULT_RESAMPLES,
    DEFAULT_SEED,
    Interval,
    Seed,
    _check_bounds,
    _clip,
    _means,
    _percentiles,
    _rng,
)
from benger.stats._quantiles import norm_cdf, norm_ppf, norm_ppfs, t_ppf

CiMethod = Literal["percentile", "bca", "t", "normal"]
CI_METHODS: tuple[str, ...] = get_args(CiMethod)
#: Fewer values than this give no interval: two values say nothing about the spread (issue 24).
MIN_INTERVAL_N = 3
#: What an export says where it has no interval because there are too few values (it names no method: none ran).
NO_INTERVAL = f"no interval (n < {MIN_INTERVAL_N})"

#: Simulated coverage (share of studies whose nominal 95 % interval covers the true mean) per n and method, from
#: ``benchmarks/ci_coverage.py --studies 500`` (seed 24; 500 studies per score shape x 3 shapes of 0-100 scores: a
#: skewed beta, a symmetric beta, a weak/strong mixture; B = 999). Monte-Carlo sd about 0.006. Regenerate with that
#: script and paste its ``COVERAGE`` line here.
COVERAGE: dict[int, dict[str, float]] = {
    10: {"percentile": 0.891, "bca": 0.914, "t": 0.94, "normal": 0.904},
    15: {"percentile": 0.921, "bca": 0.927, "t": 0.943, "normal": 0.924},
    30: {"percentile": 0.941, "bca": 0.946, "t": 0.95, "normal": 0.945},
    100: {"percentile": 0.944, "bca": 0.941, "t": 0.946, "normal": 0.943},
    600: {"percentile": 0.946, "bca": 0.949, "t": 0.953, "normal": 0.953},
}


def best_method(n: int, table: dict[int, dict[str, float]] | None = None) -> str:
    """The method whose simulated coverage at the simulated n nearest to ``n`` (on a log scale) is closest to
    0.95 (ties: the order of :data:`CI_METHODS`)."""
    rows = table or COVERAGE
    nearest = min(rows, key=lambda m: (abs(np.log(max(n, 1)) - np.log(m)), m))
    cells = rows[nearest]
    return min((m for m in CI_METHODS if m in cells), key=lambda m: (abs(cells[m] - 0.95), CI_METHODS.index(m)))


def t_mean_ci(values: Numbers, *, confidence: float = 0.95, bounds: tuple[float, float] | None = None) -> Interval:
    """Student-t interval mean ± t_{n-1, (1+confidence)/2} · sd/√n, clipped to ``bounds``; n < 2: ends None."""
    arr, n_missing = clean(values, "t_mean_ci")
    check_confidence(confidence)
    _check_bounds(arr, bounds, "t_mean_ci")
    if arr.size == 0:
        raise ValueError(f"t_mean_ci: no values ({n_missing} missing dropped)")
    estimate = float(arr.mean())
    if arr.size < 2:
        return Interval(estimate, None, None, int(arr.size), n_missing)
    half = t_ppf(0.5 + confidence / 2.0, arr.size - 1) * float(arr.std(ddof=1)) / float(np.sqrt(arr.size))
    return Interval(estimate, *_clip(estimate - half, estimate + half, bounds), int(arr.size), n_missing)


def bca_mean_ci(
    values: Numbers, *, confidence: float = 0.95, n_resamples: int = DEFAULT_RESAMPLES, seed: Seed = DEFAULT_SEED
) -> Interval:
    """Bias-corrected and accelerated bootstrap interval of the mean (Efron 1987; DiCiccio & Efron 1996):
    z0 = Φ⁻¹(share of resampled means below the mean), acceleration from the jackknife means; the ends are
    percentiles of the resampled means, so they stay inside [min, max]. Constant values: the degenerate point
    interval is replaced by ends None only when n < 2."""
    arr, n_missing = clean(values, "bca_mean_ci")
    check_confidence(confidence)
    check_resamples(n_resamples)
    if arr.size == 0:
        raise ValueError(f"bca_mean_ci: no values ({n_missing} missing dropped)")
    n, estimate = int(arr.size), float(arr.mean())
    if n < 2:
        return Interval(estimate, None, None, n, n_missing)
    return _bca(arr, _means(arr, n_resamples, _rng(seed)), confidence, n_missing)


def _bca(arr: np.ndarray, means: np.ndarray, confidence: float, n_missing: int) -> Interval:
    """The BCa interval of ``arr``'s mean from its resampled ``means``."""
    n, estimate = int(arr.size), float(arr.mean())
    share = (np.count_nonzero(means < estimate) + 0.5 * np.count_nonzero(means == estimate)) / means.size
    if share <= 0.0 or share >= 1.0 or np.ptp(arr) == 0:
        return Interval(estimate, *_percentiles(means, confidence), n, n_missing)
    z0 = norm_ppf(share)
    jack = (arr.sum() - arr) / (n - 1)
    dev = jack.mean() - jack
    denom = 6.0 * float(np.sum(dev**2)) ** 1.5
    accel = float(np.sum(dev**3)) / denom if denom > 0 else 0.0
    alpha = (1.0 - confidence) / 2.0
    ends = []
    for z in norm_ppfs([alpha, 1.0 - alpha]):
        adjusted = z0 + (z0 + z) / (1.0 - accel * (z0 + z))
        ends.append(float(np.percentile(means, 100.0 * norm_cdf(adjusted))))
    return Interval(estimate, ends[0], ends[1], n, n_missing)


def bca_mean_cis(
    samples: Sequence[np.ndarray],
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> list[Interval]:
    """``[bca_mean_ci(s, seed=seed, ...) for s in samples]`` (1-d float arrays of at least 2 values, no missing
    ones), identical to the last bit: each of those calls draws the same resample indices for samples of one size
    (a fresh generator from the same seed), so here they are drawn once per size and gathered for every sample of
    that size (:func:`~benger.stats._intervals.resample_means`), as ``bootstrap_mean_cis`` does for the
    percentile interval: the leaderboard's rows of one n pay for one B x n draw instead of one per row."""
    from benger.stats._intervals import resample_means

    check_confidence(confidence)
    check_resamples(n_resamples)
    out: list[Interval | None] = [None] * len(samples)
    by_size: dict[int, list[int]] = {}
    for k, arr in enumerate(samples):
        if arr.size < 2:
            raise ValueError(f"bca_mean_cis: sample {k} has {arr.size} value(s); at least 2 are needed")
        by_size.setdefault(int(arr.size), []).append(k)
    for members in by_size.values():
        means = resample_means([samples[k] for k in members], n_resamples, np.random.default_rng(seed))
        for k, resampled in zip(members, means, strict=True):
            out[k] = _bca(samples[k], resampled, confidence, 0)
    return [interval for interval in out if interval is not None]


def mean_ci(
    values: Numbers,
    method: str = "auto",
    *,
    confidence: float = 0.95,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: Seed = DEFAULT_SEED,
    bounds: tuple[float, float] | None = None,
) -> tuple[Interval, str]:
    """The interval of the mean of ``values`` by ``method`` (``auto``, ``percentile``/``bootstrap``, ``bca``,
    ``t``, ``normal``) and the method used (``auto`` resolved by :func:`best_method` at the values' n).

    Fewer than :data:`MIN_INTERVAL_N` values: ends None. ``ValueError`` for an unknown method or no values."""
    from benger.stats._intervals import bootstrap_mean_ci, normal_mean_ci

    arr, n_missing = clean(values, "mean_ci")
    if arr.size == 0:
        raise ValueError(f"mean_ci: no values ({n_missing} missing dropped)")
    used = best_method(int(arr.size)) if method == "auto" else ("percentile" if method == "bootstrap" else method)
    if used not in CI_METHODS:
        raise ValueError(f"unknown CI method {method!r} (auto, {', '.join(CI_METHODS)}, bootstrap)")
    if arr.size < MIN_INTERVAL_N:
        return Interval(float(arr.mean()), None, None, int(arr.size), n_missing), used
    if used == "percentile":
        found = bootstrap_mean_ci(arr, confidence=confidence, n_resamples=n_resamples, seed=seed)
    elif used == "bca":
        found = bca_mean_ci(arr, confidence=confidence, n_resamples=n_resamples, seed=seed)
    elif used == "t":
        found = t_mean_ci(arr, confidence=confidence, bounds=bounds)
    else:
        found = normal_mean_ci(arr, confidence=confidence, bounds=bounds)
    return found._replace(n_missing=n_missing), used


def describe(method: str, confidence: float, n_resamples: int, seed: int) -> str:
    """One sentence naming a method as the leaderboard and results.json print it."""
    level = f"{100 * confidence:g}%"
    return {
        "percentile": f"{level} percentile bootstrap (B = {n_resamples}, seed {seed})",
        "bootstrap": f"{level} percentile bootstrap (B = {n_resamples}, seed {seed})",
        "bca": f"{level} BCa bootstrap (B = {n_resamples}, seed {seed}, jackknife acceleration)",
        "t": f"{level} Student-t interval mean ± t(n−1)·sd/√n, ends clipped to the scale",
        "normal": f"{level} normal interval mean ± z·sd/√n, ends clipped to the scale",
    }[method]


def coverage_rows(ns: Sequence[int]) -> str:
    """The coverage table as Markdown (n, then one column per method; * marks the chosen method)."""
    lines = ["| n | " + " | ".join(CI_METHODS) + " | chosen |", "|---" * (len(CI_METHODS) + 2) + "|"]
    for n in ns:
        cells = COVERAGE[n]
        lines.append(f"| {n} | " + " | ".join(f"{cells[m]:.3f}" for m in CI_METHODS) + f" | {best_method(n)} |")
    return "\n".join(lines)
