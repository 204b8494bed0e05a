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

from collections.abc import Iterator, Mapping
from itertools import combinations
from typing import Literal, NamedTuple

import numpy as np

from benger.stats._clean import check_resamples, to_float_array
from benger.stats._intervals import CHUNK_ELEMENTS, DEFAULT_RESAMPLES, _percentiles, _rng
from benger.stats._multitest import adjusted_p

#: Up to this many tasks the sign-flip test enumerates every pattern (2^12 = 4,096 x 12 signs).
EXACT_TASKS = 12
#: The shared draws of a group of pairs come in row blocks of at most this many values (4 MiB of int64 indices,
#: 64 rows at 8,000 tasks): a block is applied to every pair by one matrix product, which reads the group's whole
#: difference matrix (8,000 x 496 at 32 systems: 31 MiB) once per block. Measured at that shape, B = 2000, one
#: thread: 1.0 CPU-s against 2.1 with blocks of CHUNK_ELEMENTS (8 rows); 2^20 and 2^21 gained nothing more.
PAIR_BLOCK_ELEMENTS = 8 * CHUNK_ELEMENTS
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


def _system_arrays(
    scores: Mapping[str, Mapping[str, float | None]], systems: list[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Every system's scores over the sorted union of task ids, shape ``(systems, tasks)`` (NaN where missing or
    absent), and where each system has a task at all (``True`` also for a None/NaN score)."""
    tasks = sorted(set().union(*(scores[s].keys() for s in systems)))
    values = np.empty((len(systems), len(tasks)))
    present = np.zeros((len(systems), len(tasks)), dtype=bool)
    for k, s in enumerate(systems):
        row = scores[s]
        present[k] = [t in row for t in tasks]
        values[k] = to_float_array([row.get(t) for t in tasks], f"scores of {s}")
    return values, present


def _draws(high: int, n: int, n_resamples: int, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """``rng.integers(0, high, (n_resamples, n))`` in consecutive row blocks of at most ``PAIR_BLOCK_ELEMENTS``
    values (numpy draws in stream order: the blocks stacked equal the one call, and leave ``rng`` alike)."""
    rows = max(1, PAIR_BLOCK_ELEMENTS // n)
    for start in range(0, n_resamples, rows):
        yield rng.integers(0, high, size=(min(rows, n_resamples - start), n))


def _shared_draws(
    diffs: np.ndarray, n_resamples: int, rng: np.random.Generator, alpha: float
) -> tuple[list[tuple[float, float]], list[tuple[float, str]]]:
    """Bootstrap percentile CIs and sign-flip p of every column of ``diffs`` (``(n, P)``: the per-task
    differences of ``P`` pairs on the same ``n`` tasks), all columns from the same draws (common random numbers).

    Drawn from ``rng``: first the ``(B, n)`` resample indices ``rng.integers(0, n, (B, n))``, then, for
    n > ``EXACT_TASKS``, the ``(B, n)`` sign bits ``rng.integers(0, 2, (B, n))`` (signs 1 - 2·bit), each in row
    blocks (:func:`_draws`). A block's resample means are ``C @ diffs / n``, ``C`` the count of each task in each
    resample (``diffs[idx, j].mean(axis=1)`` up to rounding); its sign-flip statistics ``|S @ diffs| / n`` count
    as extreme against each column's observed |mean| by the tie rule of :func:`sign_flip_p`. For
    n <= ``EXACT_TASKS`` each column's p is exact (:func:`sign_flip_p`, no draws)."""
    n, pairs = diffs.shape
    means = np.empty((n_resamples, pairs))
    start = 0
    for idx in _draws(n, n, n_resamples, rng):
        rows = idx.shape[0]
        idx += (np.arange(rows) * n)[:, None]  # row r's tasks counted in bins r·n .. r·n + n - 1
        counts = np.bincount(idx.ravel(), minlength=rows * n).reshape(rows, n).astype(float)
        np.matmul(counts, diffs, out=means[start : start + rows])
        start += rows
    means /= n
    cis = [_percentiles(means[:, j], 1 - alpha) for j in range(pairs)]
    if n <= EXACT_TASKS:
        return cis, [sign_flip_p(diffs[:, j], n_resamples, rng) for j in range(pairs)]
    observed = np.abs(diffs.mean(axis=0))
    reach = observed - 1e-9 * np.maximum(1.0, observed)
    extreme = np.zeros(pairs, dtype=np.int64)
    for bits in _draws(2, n, n_resamples, rng):
        extreme += np.count_nonzero(np.abs((1.0 - 2.0 * bits) @ diffs) / n >= reach, axis=0)
    test = f"monte carlo (B = {n_resamples})"
    return cis, [((1 + int(e)) / (n_resamples + 1), test) for e in extreme]


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

    Common random numbers: the pairs that keep the same tasks (usually all of them) form one group, and the
    bootstrap resamples and sign patterns are drawn once per group (:func:`_shared_draws`), groups in the order
    of their first pair, from one stream. Each pair's CI and p have the distribution of independent draws; only
    the Monte-Carlo error is shared between pairs (Holm and BY hold under any dependence).
    """
    check_resamples(n_resamples)
    rng = _rng(seed)
    systems = sorted(scores)
    if len(systems) < 2:
        return []
    values, present = _system_arrays(scores, systems)
    finite = present & ~np.isnan(values)
    pairs: list[tuple[int, int, int, np.ndarray]] = []  # (a, b, n_missing, kept mask)
    groups: dict[bytes, list[int]] = {}  # kept tasks -> the pairs' positions, in first-pair order
    for i, j in combinations(range(len(systems)), 2):
        kept = finite[i] & finite[j]  # a task missing (None/NaN) on either side is dropped
        n_kept = int(np.count_nonzero(kept))
        if n_kept < 2:
            continue
        n_shared = int(np.count_nonzero(present[i] & present[j]))
        groups.setdefault(np.packbits(kept).tobytes(), []).append(len(pairs))
        pairs.append((i, j, n_shared - n_kept, kept))
    if not pairs:
        return []
    from threadpoolctl import threadpool_limits  # here: only the comparisons need it

    results: dict[int, tuple[float, float, float, float, str]] = {}
    # one BLAS thread: the products are small (64 x n x P per block), and OpenBLAS's threads spin-wait for each
    # other on busy cores (measured at 32 systems x 8,000 tasks, load 7 on 2 cores: 6-8 CPU-s with 2 threads
    # against 1.0 with one)
    with threadpool_limits(1, user_api="blas"):
        for members in groups.values():
            kept = pairs[members[0]][3]
            diffs = np.empty((int(np.count_nonzero(kept)), len(members)))  # filled in place: no list of columns
            for col, k in enumerate(members):  # (32 MiB of them and their stacked copy at 32 systems x 8,000 tasks)
                np.subtract(values[pairs[k][0], kept], values[pairs[k][1], kept], out=diffs[:, col])
            cis, ps = _shared_draws(diffs, n_resamples, rng, alpha)
            for col, k in enumerate(members):
                results[k] = (float(diffs[:, col].mean()), *cis[col], *ps[col])
    rows = [(systems[i], systems[j], int(np.count_nonzero(kept)), *results[k][:4], missing, results[k][4])
            for k, (i, j, missing, kept) in enumerate(pairs)]  # fmt: skip
    adjusted = adjusted_p([r[6] for r in rows], correction)
    return [
        PairComparison(*r[:7], float(pa), bool(pa <= alpha), r[7], r[8], correction)
        for r, pa in zip(rows, adjusted, strict=True)
    ]
