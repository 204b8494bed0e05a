"""Confidence intervals: analytic normal CI and the seeded, vectorised bootstraps."""

from __future__ import annotations

import numpy as np
import pytest

from benger.stats import (
    bootstrap_diff_ci,
    bootstrap_mean_ci,
    bootstrap_tost,
    cluster_bootstrap_diff_ci,
    normal_mean_ci,
    paired_bootstrap_ci,
    paired_system_comparisons,
)
from benger.stats._intervals import _cluster_means


def test_normal_ci_by_hand() -> None:
    # mean 3, sd (n-1) = sqrt(2.5) = 1.581139, half = 1.959964 * 1.581139 / sqrt(5) = 1.385904
    ci = normal_mean_ci([1, 2, 3, 4, 5])
    assert (ci.estimate, ci.low, ci.high) == pytest.approx((3.0, 1.614096, 4.385904), abs=1e-6)


def test_bootstrap_is_seeded_and_brackets_the_mean() -> None:
    values = [40.0, 55.0, 61.0, 70.0, 48.0, 66.0]
    a, b = bootstrap_mean_ci(values, seed=3), bootstrap_mean_ci(values, seed=3)
    assert a == b
    assert a.estimate == pytest.approx(340 / 6)
    assert a.low < a.estimate < a.high
    assert bootstrap_mean_ci(values, seed=4) != a
    assert bootstrap_mean_ci([5.0, 5.0, 5.0]) == (5.0, 5.0, 5.0)


def test_two_sample_and_paired_constant_shift() -> None:
    # every resample of a constant arm has the same mean: the difference interval collapses to 10 - 4 = 6
    ci = bootstrap_diff_ci([10.0] * 5, [4.0] * 7)
    assert (ci.estimate, ci.low, ci.high) == pytest.approx((6.0, 6.0, 6.0))
    # paired differences are all 2 -> (2, 2, 2) although the arms themselves vary
    assert paired_bootstrap_ci([3.0, 5.0, 9.0], [1.0, 3.0, 7.0]) == pytest.approx((2.0, 2.0, 2.0))


def test_cluster_bootstrap_resamples_whole_clusters() -> None:
    # cluster x = (10, 10, 10), cluster y = (0): drawing (x,x) -> 10, (y,y) -> 0, (x,y) -> 30/4 = 7.5.
    means = _cluster_means(np.array([10.0, 10.0, 10.0, 0.0]), ["x", "x", "x", "y"], 500, np.random.default_rng(0))
    assert set(np.round(means, 9)) <= {0.0, 7.5, 10.0}
    ci = cluster_bootstrap_diff_ci([10.0, 10.0, 10.0, 0.0], ["x", "x", "x", "y"], [1.0, 1.0], ["u", "v"])
    assert ci.estimate == pytest.approx(7.5 - 1.0)
    assert 0.0 - 1.0 <= ci.low <= ci.high <= 10.0 - 1.0


def test_tost() -> None:
    same = bootstrap_tost([50.0, 50.0, 50.0], [50.0, 50.0], margin=5)
    assert same.equivalent and (same.low, same.high) == pytest.approx((0.0, 0.0))
    apart = bootstrap_tost([60.0, 61.0, 62.0], [50.0, 51.0], margin=5)
    assert not apart.equivalent and apart.low > 5


def test_paired_system_comparisons_holm() -> None:
    # A beats B by exactly 10 on every shared task: CI (10, 10), bootstrap p = 0; C shares one task only: skipped
    scores = {
        "A": {"t1": 60.0, "t2": 70.0, "t3": 50.0},
        "B": {"t1": 50.0, "t2": 60.0, "t3": 40.0},
        "C": {"t9": 1.0, "t1": 3.0},
    }
    rows = paired_system_comparisons(scores, n_resamples=200)
    assert [(r.a, r.b) for r in rows] == [("A", "B")]
    r = rows[0]
    assert (r.n, r.delta, r.low, r.high, r.p_value, r.p_holm, r.significant) == (3, 10.0, 10.0, 10.0, 0.0, 0.0, True)
