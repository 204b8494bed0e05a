"""Vectorised n-gram statistics (numpy): clipped n-gram overlaps for BLEU and ROUGE-N on long texts.

Each n-gram is encoded as one int64 (ids in a shared vocabulary, base ``len(vocab)+1``); counts come from
``np.unique`` and the clipped overlap ``sum(min(count_hyp, count_ref))`` from ``np.intersect1d``. The final
formulas stay sacrebleu's / rouge-score's own; the tests check equality with them on random inputs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

_LIMIT = 2**62


def encode_pair(hyp: Sequence[str], ref: Sequence[str]) -> tuple[np.ndarray, np.ndarray, int]:
    """Map the tokens of both sides to ids 1..V in one vocabulary; returns (hyp ids, ref ids, V + 1)."""
    vocab = {t: i for i, t in enumerate(set(hyp) | set(ref), start=1)}
    h = np.fromiter(map(vocab.__getitem__, hyp), dtype=np.int64, count=len(hyp))
    r = np.fromiter(map(vocab.__getitem__, ref), dtype=np.int64, count=len(ref))
    return h, r, len(vocab) + 1


def ngram_keys(ids: np.ndarray, n: int, base: int) -> np.ndarray:
    """One int64 key per n-gram of ``ids`` (requires ``base ** n < 2 ** 62``)."""
    m = len(ids) - n + 1
    if m <= 0:
        return np.empty(0, dtype=np.int64)
    key = ids[:m].copy()
    for k in range(1, n):
        key = key * base + ids[k : k + m]
    return key


def clipped_overlap(h_keys: np.ndarray, r_keys: np.ndarray) -> int:
    """sum over shared n-grams of min(count in hyp, count in ref)."""
    if len(h_keys) == 0 or len(r_keys) == 0:
        return 0
    uh, ch = np.unique(h_keys, return_counts=True)
    ur, cr = np.unique(r_keys, return_counts=True)
    _, ih, ir = np.intersect1d(uh, ur, assume_unique=True, return_indices=True)
    return int(np.minimum(ch[ih], cr[ir]).sum())


def overlap_stats(hyp: Sequence[str], ref: Sequence[str], n: int) -> tuple[int, int, int]:
    """(hyp n-grams, ref n-grams, clipped matches) for token lists."""
    n_hyp, n_ref = max(len(hyp) - n + 1, 0), max(len(ref) - n + 1, 0)
    h, r, base = encode_pair(hyp, ref)
    if base**n < _LIMIT:
        return n_hyp, n_ref, clipped_overlap(ngram_keys(h, n, base), ngram_keys(r, n, base))
    ch = Counter(tuple(hyp[i : i + n]) for i in range(n_hyp))
    cr = Counter(tuple(ref[i : i + n]) for i in range(n_ref))
    return n_hyp, n_ref, sum(min(c, cr[g]) for g, c in ch.items() if g in cr)


def multi_order_stats(hyp: Sequence[str], ref: Sequence[str], max_n: int) -> list[tuple[int, int, int]]:
    """``overlap_stats`` for orders 1..max_n, sharing the vocabulary encoding."""
    h, r, base = encode_pair(hyp, ref)
    return _orders(h, r, base, max_n, hyp, ref)


def _orders(
    h: np.ndarray, r: np.ndarray, base: int, max_n: int, hyp: Sequence[str], ref: Sequence[str]
) -> list[tuple[int, int, int]]:
    stats = []
    for n in range(1, max_n + 1):
        if base**n < _LIMIT:
            matches = clipped_overlap(ngram_keys(h, n, base), ngram_keys(r, n, base))
            stats.append((max(len(h) - n + 1, 0), max(len(r) - n + 1, 0), matches))
        else:
            stats.append(overlap_stats(hyp, ref, n))
    return stats
