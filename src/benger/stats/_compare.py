"""Paired system-vs-system comparison over shared tasks: a paired bootstrap interval of the mean difference and a
sign-flip randomisation test, corrected for the family of all pairs (Holm or Benjamini-Yekutieli).

The task is the unit: ``scores`` holds one value per system and task (callers average a task's repetitions and
judge repeats first). Under the null of no difference the per-task differences are symmetric about 0, so flipping
their signs gives the test's reference distribution: exact over all 2^n sign patterns for n <= ``EXACT_TASKS``,
else ``n_resamples`` random patterns with p = (1 + #as extreme) / (B + 1) (a Monte-Carlo p never below 1/(B + 1);
Phipson & Smyth 2010). The old percentile-bootstrap p (share of resampled means beyond 0) was 0 for any pair
with a consistent difference and gave a family-wise error of 0.28 for twelve equal systems (issue 24).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import combinations
from typing import Literal, NamedTuple

import numpy as np

from benger.stats._clean import check_resamples, to_float_array
from benger.stats._intervals import CHUNK_ELEMENTS, DEFAULT_RESAMPLES, _means, _percentiles, _rng
from benger.stats._multitest import adjusted_p

#: Up to this many tasks the sign-flip test enumerates every pattern (2^12 = 4,096 x 12 signs).
EXACT_TASKS = 12
Correction = Literal["holm", "by"]


class PairComparison(NamedTuple):
    """One system pair: ``n`` tasks compared, mean(a − b) with its paired-bootstrap CI, the sign-flip p (raw and
    adjusted by ``correction``; ``p_holm`` keeps its name for either), ``significant`` at ``alpha`` after the
    correction; ``n_missing`` = shared tasks dropped because a score was missing (None/NaN); ``test``: "exact"
    (all sign patterns) or "monte carlo (B = ...)"."""

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
    test: str = "exact"
    correction: str = "holm"


def sign_flip_p(diff: np.ndarray, n_resamples: int, rng: np.random.Generator) -> tuple[float, str]:
    """Two-sided sign-flip p of mean(diff) = 0 and how it was computed ("exact" or "monte carlo (B = n)").

    Exact (the share of all 2^n sign patterns whose |mean| reaches the observed one) for n <= ``EXACT_TASKS``;
    else (1 + #patterns as extreme) / (B + 1) over ``n_resamples`` random patterns. Ties count as extreme
    (to 1e-9 relative), so all-zero differences give p = 1."""
    n = int(diff.size)
    observed = abs(float(diff.mean()))
    reach = observed - 1e-9 * max(1.0, observed)
    if n <= EXACT_TASKS:
        bits = (np.arange(2**n)[:, None] >> np.arange(n)) & 1
        means = np.abs((1 - 2 * bits) @ diff) / n
        return float(np.mean(means >= reach)), "exact"
    rows = max(1, CHUNK_ELEMENTS // n)
    extreme = 0
    buffer = np.empty(rows * n)
    for start in range(0, n_resamples, rows):
        bits = rng.integers(0, 2, size=(min(rows, n_resamples - start), n))
        # the signs 1 - 2·bit as floats in one reused buffer: the same ±1 values the integer signs are cast to
        # for the product, so the same sums, without two integer temporaries and a cast copy per block
        signs = buffer[: bits.size].reshape(bits.shape)
        np.multiply(bits, -2.0, out=signs)
        signs += 1.0
        extreme += int(np.count_nonzero(np.abs(signs @ diff) / n >= reach))
    return (1 + extreme) / (n_resamples + 1), f"monte carlo (B = {n_resamples})"


def paired_system_comparisons(
    scores: Mapping[str, Mapping[str, float | None]],
    *,
    alpha: float = 0.05,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int | np.random.Generator | None = 0,
    correction: Correction = "holm",
) -> list[PairComparison]:
    """Every pair of systems on their shared tasks: mean(a - b), a paired percentile bootstrap CI, and a
    two-sided sign-flip p-value (:func:`sign_flip_p`), adjusted over all pairs by Holm's step-down (FWER) or
    Benjamini-Yekutieli (FDR under any dependence).

    ``scores`` maps system -> task id -> score (one value per task: the unit that was sampled). A task whose
    score is missing (None/NaN) for either system is dropped from that pair and counted in ``n_missing``; pairs
    with fewer than 2 remaining tasks are skipped. ``ValueError`` for an infinite score or ``n_resamples < 1``.
    """
    check_resamples(n_resamples)
    rng = _rng(seed)
    rows: list[tuple[str, str, int, float, float, float, float, int, str]] = []
    for a, b in combinations(sorted(scores), 2):
        shared = sorted(set(scores[a]) & set(scores[b]))
        xa = to_float_array([scores[a][t] for t in shared], f"scores of {a}")
        xb = to_float_array([scores[b][t] for t in shared], f"scores of {b}")
        kept = ~(np.isnan(xa) | np.isnan(xb))  # a task missing (None/NaN) on either side is dropped
        n_kept = int(np.count_nonzero(kept))
        if n_kept < 2:
            continue
        diff = xa[kept] - xb[kept]
        low, high = _percentiles(_means(diff, n_resamples, rng), 1 - alpha)
        p, test = sign_flip_p(diff, n_resamples, rng)
        rows.append((a, b, diff.size, float(diff.mean()), low, high, p, len(shared) - n_kept, test))
    if not rows:
        return []
    adjusted = adjusted_p([r[6] for r in rows], correction)
    return [
        PairComparison(*r[:7], float(pa), bool(pa <= alpha), r[7], r[8], correction)
        for r, pa in zip(rows, adjusted, strict=True)
    ]
