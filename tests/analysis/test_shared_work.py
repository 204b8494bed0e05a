"""Work shared or batched for speed (issue 18) gives the numbers of the straightforward computation."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from benger.analysis._creator import _draw_counts
from benger.analysis._gutachten_validity import spearman_ci


def test_draw_counts_counts_each_resample_row() -> None:
    # 2 resamples of 4 draws from 4 items: row r counts the items of draws[4r:4r+4], in the generator's order
    draws = np.random.default_rng(5).integers(0, 4, 8).tolist()
    expected = [[Counter(draws[4 * r : 4 * r + 4])[i] for i in range(4)] for r in range(2)]
    counts = _draw_counts(np.random.default_rng(5), 2, 4)
    assert counts.tolist() == expected
    assert counts.sum(axis=1).tolist() == [4.0, 4.0]


def test_draw_counts_leaves_the_generator_where_the_draws_end() -> None:
    rng, ref = np.random.default_rng(9), np.random.default_rng(9)
    _draw_counts(rng, 3, 5)
    ref.integers(0, 5, 15)
    assert rng.integers(0, 1000) == ref.integers(0, 1000)


def test_spearman_ci_with_a_shared_memo_is_the_same_and_ranks_each_column_once() -> None:
    x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
    y = [2.0, 1.0, 4.0, 3.0, 6.0, 5.0, 8.0, 7.0]  # pairs swapped: rho = 1 - 6 * 8 / (8 * 63) = 0.904762
    z = [3.0, 1.0, 2.0, 5.0, 4.0, 7.0, 6.0, 8.0]
    alone = [
        spearman_ci(x, y, n_resamples=300, seed=4),
        spearman_ci(z, y, n_resamples=300, seed=4),
        spearman_ci(x, y, control=z, n_resamples=300, seed=4),
    ]
    memo: dict = {}
    shared = [
        spearman_ci(x, y, n_resamples=300, seed=4, memo=memo),
        spearman_ci(z, y, n_resamples=300, seed=4, memo=memo),
        spearman_ci(x, y, control=z, n_resamples=300, seed=4, memo=memo),
    ]
    assert shared == alone
    assert alone[0][1] == pytest.approx(1 - 6 * 8 / (8 * 63))
    # one resample matrix (all n = 8) and one rank matrix per distinct column (x, y, z)
    assert sorted(k[0] for k in memo) == ["idx", "ranks", "ranks", "ranks"]
