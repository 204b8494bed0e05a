"""The Spearman bootstrap and the partial rank correlation used by the validity table."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import spearmanr

from benger.analysis._gutachten_validity import spearman_ci


def test_perfect_rank_agreement_and_missing_pairs() -> None:
    n, rho, low, high, dropped = spearman_ci([1, 2, None, 3, 4, 5], [10, 20, 5, 30, 40, 50], n_resamples=500)
    assert n == 5 and rho == pytest.approx(1.0)
    assert low == pytest.approx(1.0) and high == pytest.approx(1.0)
    assert dropped < 25  # only resamples that draw one pair five times are constant


def test_too_few_pairs_are_undefined() -> None:
    assert spearman_ci([1, 2], [2, 1]) == (2, None, None, None, 0)
    assert spearman_ci([1, 1, 1], [1, 2, 3])[1] is None  # constant side


def test_mostly_constant_feature_has_no_interval() -> None:
    x = [0.0] * 14 + [1.0]
    y = [float(i) for i in range(15)]
    n, rho, low, high, dropped = spearman_ci(x, y, n_resamples=1000)
    assert n == 15 and rho is not None and rho > 0
    assert low is None and high is None  # about 36 % of resamples miss the one non-zero value
    assert dropped > 50


def test_partial_rank_correlation_matches_the_textbook_formula() -> None:
    rng = np.random.default_rng(3)
    z = rng.normal(size=40)
    x = z + rng.normal(size=40)
    y = z + 0.5 * x + rng.normal(size=40)
    rxy = spearmanr(x, y).statistic
    rxz = spearmanr(x, z).statistic
    ryz = spearmanr(y, z).statistic
    expected = (rxy - rxz * ryz) / math.sqrt((1 - rxz**2) * (1 - ryz**2))
    n, rho, low, high, _ = spearman_ci(list(x), list(y), control=list(z), n_resamples=400)
    assert n == 40 and rho is not None
    assert abs(rho - expected) < 1e-9
    assert low is not None and high is not None and low < rho < high
