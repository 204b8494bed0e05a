"""Paired system-vs-system comparison over shared tasks (paired bootstrap, Holm-corrected)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import NamedTuple

import numpy as np
from statsmodels.stats.multitest import multipletests

from benger.stats._intervals import DEFAULT_RESAMPLES, _percentiles, _rng


class PairComparison(NamedTuple):
    a: str
    b: str
    n: int
    delta: float
    low: float
    high: float
    p_value: float
    p_holm: float
    significant: bool


def paired_system_comparisons(
    scores: Mapping[str, Mapping[str, float]],
    *,
    alpha: float = 0.05,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int | np.random.Generator | None = 0,
) -> list[PairComparison]:
    """Every pair of systems on their shared tasks: mean(a - b), a paired percentile bootstrap CI and a
    two-sided bootstrap p-value (2 · the smaller tail share of resampled means at or beyond 0), Holm-adjusted.

    ``scores`` maps system -> task id -> score. Pairs with fewer than 2 shared tasks are skipped.
    """
    rng = _rng(seed)
    rows: list[tuple[str, str, int, float, float, float, float]] = []
    for a, b in combinations(sorted(scores), 2):
        shared = sorted(set(scores[a]) & set(scores[b]))
        if len(shared) < 2:
            continue
        diff = np.asarray([scores[a][t] - scores[b][t] for t in shared], dtype=float)
        idx = rng.integers(0, diff.size, size=(n_resamples, diff.size))
        means = diff[idx].mean(axis=1)
        low, high = _percentiles(means, 1 - alpha)
        p = min(1.0, 2.0 * min(float(np.mean(means <= 0)), float(np.mean(means >= 0))))
        rows.append((a, b, diff.size, float(diff.mean()), low, high, p))
    if not rows:
        return []
    reject, p_holm, _, _ = multipletests([r[-1] for r in rows], alpha=alpha, method="holm")
    return [PairComparison(*r, float(ph), bool(rej)) for r, ph, rej in zip(rows, p_holm, reject, strict=True)]
