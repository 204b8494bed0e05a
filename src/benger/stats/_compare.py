"""Paired system-vs-system comparison over shared tasks (paired bootstrap, Holm-corrected)."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import NamedTuple

import numpy as np

from benger.stats._clean import check_resamples, is_missing, to_float_array
from benger.stats._intervals import DEFAULT_RESAMPLES, _means, _percentiles, _rng
from benger.stats._multitest import holm


class PairComparison(NamedTuple):
    """One system pair: ``n`` tasks compared, mean(a − b) with its CI, p (raw, Holm); ``n_missing`` = shared tasks
    dropped because a score was missing (None/NaN)."""

    a: str
    b: str
    n: int
    delta: float
    low: float
    high: float
    p_value: float
    p_holm: float
    significant: bool
    n_missing: int = 0


def paired_system_comparisons(
    scores: Mapping[str, Mapping[str, float | None]],
    *,
    alpha: float = 0.05,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int | np.random.Generator | None = 0,
) -> list[PairComparison]:
    """Every pair of systems on their shared tasks: mean(a - b), a paired percentile bootstrap CI and a
    two-sided bootstrap p-value (2 · the smaller tail share of resampled means at or beyond 0), Holm-adjusted.

    ``scores`` maps system -> task id -> score. A task whose score is missing (None/NaN) for either system is
    dropped from that pair and counted in ``n_missing``; pairs with fewer than 2 remaining tasks are skipped.
    ``ValueError`` for an infinite score or ``n_resamples < 1``.
    """
    check_resamples(n_resamples)
    rng = _rng(seed)
    rows: list[tuple[str, str, int, float, float, float, float, int]] = []
    for a, b in combinations(sorted(scores), 2):
        shared = sorted(set(scores[a]) & set(scores[b]))
        kept = [t for t in shared if not is_missing(scores[a][t]) and not is_missing(scores[b][t])]
        if len(kept) < 2:
            continue
        xa = to_float_array([scores[a][t] for t in kept], f"scores of {a}")
        xb = to_float_array([scores[b][t] for t in kept], f"scores of {b}")
        diff = xa - xb
        means = _means(diff, n_resamples, rng)
        low, high = _percentiles(means, 1 - alpha)
        p = min(1.0, 2.0 * min(float(np.mean(means <= 0)), float(np.mean(means >= 0))))
        rows.append((a, b, diff.size, float(diff.mean()), low, high, p, len(shared) - len(kept)))
    if not rows:
        return []
    reject, p_holm = holm([r[6] for r in rows], alpha)
    return [PairComparison(*r[:7], float(ph), bool(rej), r[7]) for r, ph, rej in zip(rows, p_holm, reject, strict=True)]
