"""Multiple-testing corrections: Benjamini-Yekutieli (through scipy) and Holm's step-down.

Holm is kept here instead of importing statsmodels for two small procedures (statsmodels adds ~0.5 s of CPU to every
``benger`` start); both are cross-checked against ``statsmodels.stats.multitest.multipletests`` in the tests.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy import stats as sps


def by_reject(p_values: Sequence[float], q: float) -> np.ndarray:
    """Benjamini-Yekutieli step-up at level ``q`` (harmonic correction H_m): which hypotheses are rejected.

    ``p <= q`` on scipy's BY-adjusted p-values, i.e. every rank up to the largest i with p_(i) <= i/m · q/H_m.
    """
    p = np.asarray(p_values, dtype=float)
    if p.size == 0:
        return np.zeros(0, dtype=bool)
    return np.asarray(sps.false_discovery_control(p, method="by") <= q, dtype=bool)


def holm(p_values: Sequence[float], alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down: (reject, adjusted p) in input order; adjusted p_(i) = max_{j<=i} min(1, (m-j+1) p_(j))."""
    p = np.asarray(p_values, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    adjusted_sorted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    adjusted = np.empty(m)
    adjusted[order] = adjusted_sorted
    return adjusted <= alpha, adjusted


def adjusted_p(p_values: Sequence[float], method: str) -> np.ndarray:
    """Adjusted p-values in input order: ``"holm"`` (:func:`holm`, FWER) or ``"by"`` (Benjamini-Yekutieli, FDR
    under any dependence; scipy's ``false_discovery_control``). ``ValueError`` for another method."""
    p = np.asarray(p_values, dtype=float)
    if method == "holm":
        return holm(p.tolist(), 1.0)[1]
    if method == "by":
        return np.asarray(sps.false_discovery_control(p, method="by"), dtype=float) if p.size else p
    raise ValueError(f"unknown multiple-testing correction {method!r} (holm, by)")
