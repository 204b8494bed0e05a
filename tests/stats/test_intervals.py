"""Confidence intervals: analytic normal CI and the seeded, vectorised bootstraps."""

from __future__ import annotations

import numpy as np
import pytest

from benger.stats import (
    bootstrap_diff_ci,
    bootstrap_mean_ci,
    bootstrap_tost,
    cluster_bootstrap_diff_ci,
    normal_ci_from_summary,
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
    assert a.low is not None and a.high is not None and a.low < a.estimate < a.high
    assert bootstrap_mean_ci(values, seed=4) != a
    assert bootstrap_mean_ci([5.0, 5.0, 5.0])[:3] == (5.0, 5.0, 5.0)


def test_two_sample_and_paired_constant_shift() -> None:
    # every resample of a constant arm has the same mean: the difference interval collapses to 10 - 4 = 6
    ci = bootstrap_diff_ci([10.0] * 5, [4.0] * 7)
    assert (ci.estimate, ci.low, ci.high) == pytest.approx((6.0, 6.0, 6.0))
    # paired differences are all 2 -> (2, 2, 2) although the arms themselves vary
    assert paired_bootstrap_ci([3.0, 5.0, 9.0], [1.0, 3.0, 7.0])[:3] == pytest.approx((2.0, 2.0, 2.0))


def test_cluster_bootstrap_resamples_whole_clusters() -> None:
    # cluster x = (10, 10, 10), cluster y = (0): drawing (x,x) -> 10, (y,y) -> 0, (x,y) -> 30/4 = 7.5.
    means = _cluster_means(np.array([10.0, 10.0, 10.0, 0.0]), ["x", "x", "x", "y"], 500, np.random.default_rng(0))
    assert set(np.round(means, 9)) <= {0.0, 7.5, 10.0}
    ci = cluster_bootstrap_diff_ci([10.0, 10.0, 10.0, 0.0], ["x", "x", "x", "y"], [1.0, 1.0], ["u", "v"])
    assert ci.estimate == pytest.approx(7.5 - 1.0)
    assert ci.low is not None and ci.high is not None
    assert 0.0 - 1.0 <= ci.low <= ci.high <= 10.0 - 1.0


def test_tost() -> None:
    same = bootstrap_tost([50.0, 50.0, 50.0], [50.0, 50.0], margin=5)
    assert same.equivalent and (same.low, same.high) == pytest.approx((0.0, 0.0))
    apart = bootstrap_tost([60.0, 61.0, 62.0], [50.0, 51.0], margin=5)
    assert not apart.equivalent and apart.low is not None and apart.low > 5


def test_paired_system_comparisons_holm() -> None:
    # A beats B by exactly 10 on every shared task: CI (10, 10); exact sign-flip p = 2/8 (before: bootstrap
    # p = 0, "significant" from three tasks); C shares one task only: skipped
    scores = {
        "A": {"t1": 60.0, "t2": 70.0, "t3": 50.0},
        "B": {"t1": 50.0, "t2": 60.0, "t3": 40.0},
        "C": {"t9": 1.0, "t1": 3.0},
    }
    rows = paired_system_comparisons(scores, n_resamples=200)
    assert [(r.a, r.b) for r in rows] == [("A", "B")]
    r = rows[0]
    assert (r.n, r.delta, r.low, r.high, r.p_value, r.p_holm, r.significant) == (3, 10.0, 10.0, 10.0, 0.25, 0.25, False)


# ---------------------------------------------------------------- issue 11 item 8: undefined and bounded intervals
def test_interval_of_one_value_is_undefined_not_a_point() -> None:
    # before: n = 1 printed 72.0 [72.0, 72.0]
    for ci in (bootstrap_mean_ci([72.0]), normal_mean_ci([72.0])):
        assert (ci.estimate, ci.low, ci.high, ci.half_width, ci.n) == (72.0, None, None, None, 1)
    assert bootstrap_diff_ci([70.0], [60.0, 65.0])[:3] == (7.5, None, None)
    assert normal_ci_from_summary(72.0, 0.0, 1)[:3] == (72.0, None, None)


def test_no_values_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no values"):
        bootstrap_mean_ci([])
    with pytest.raises(ValueError, match="no values"):
        normal_mean_ci([None, float("nan")])


def test_normal_interval_is_clipped_to_the_scale() -> None:
    # n = 2, values 30 and 100: mean 65, sd = sqrt(2 * 35^2) = 49.497, half = 1.959964 * 49.497 / sqrt(2) = 68.6
    # before: [-3.6, 133.6] on a 0-100 scale
    ci = normal_mean_ci([30.0, 100.0], bounds=(0.0, 100.0))
    assert (ci.estimate, ci.low, ci.high) == pytest.approx((65.0, 0.0, 100.0))
    unbounded = normal_mean_ci([30.0, 100.0])
    assert (unbounded.low, unbounded.high) == pytest.approx((65.0 - 68.59874, 65.0 + 68.59874), abs=1e-4)
    # a rate: 1 of 3 passed -> mean 1/3, sd = 0.57735, half = 1.959964 * 0.57735 / sqrt(3) = 0.653321 -> [0, 0.98665]
    rate = normal_mean_ci([1.0, 0.0, 0.0], bounds=(0.0, 1.0))
    assert (rate.low, rate.high) == pytest.approx((0.0, 1 / 3 + 0.653321), abs=1e-6)
    with pytest.raises(ValueError, match="outside the scale"):
        normal_mean_ci([50.0, 101.0], bounds=(0.0, 100.0))


def test_summary_interval_matches_the_sample_interval() -> None:
    ci = normal_mean_ci([1, 2, 3, 4, 5])
    assert normal_ci_from_summary(3.0, float(np.std([1, 2, 3, 4, 5], ddof=1)), 5)[:3] == pytest.approx(ci[:3])


def _old_bootstrap_mean_ci(values: list[float], n_resamples: int, seed: int) -> tuple[float, float, float]:
    """The pre-issue-18 implementation: one (B, n) index matrix."""
    arr = np.asarray(values, dtype=float)
    idx = np.random.default_rng(seed).integers(0, arr.size, size=(n_resamples, arr.size))
    alpha = (1.0 - 0.95) / 2.0
    low, high = np.percentile(arr[idx].mean(axis=1), [100 * alpha, 100 * (1 - alpha)])
    return float(arr.mean()), float(low), float(high)


@pytest.mark.parametrize("n,b,seed", [(2, 2000, 0), (7, 2000, 3), (15, 2000, 7), (40, 999, 11), (3, 1, 5)])
def test_chunked_bootstrap_equals_the_one_matrix_bootstrap(
    n: int, b: int, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    import benger.stats._intervals as iv

    values = [float(v) for v in np.random.default_rng(100 + n).integers(0, 101, n)]
    expected = _old_bootstrap_mean_ci(values, b, seed)
    monkeypatch.setattr(iv, "CHUNK_ELEMENTS", 3 * n + 1)  # many small chunks (3 rows each)
    assert bootstrap_mean_ci(values, n_resamples=b, seed=seed)[:3] == expected
    monkeypatch.setattr(iv, "CHUNK_ELEMENTS", 1)  # one row per chunk
    assert bootstrap_mean_ci(values, n_resamples=b, seed=seed)[:3] == expected


@pytest.mark.parametrize("n,b", [(5000, 700), (4096, 300), (2, 2000)])
def test_buffered_means_equal_the_one_matrix_means_at_the_default_chunk(n: int, b: int) -> None:
    """Issue 18: the resample means gathered into one reused buffer (a partial last block included: 5000 values
    give 209 rows a block, 700 = 3 x 209 + 73) are the one-matrix means bit for bit, for one array and for
    several that share the draws."""
    from benger.stats._intervals import resample_means

    rng = np.random.default_rng(n)
    arrays = [rng.integers(0, 201, n) / 2.0, rng.uniform(0, 100, n), np.full(n, 0.1)]
    idx = np.random.default_rng(4).integers(0, n, size=(b, n))
    expected = [a[idx].mean(axis=1) for a in arrays]
    got = resample_means(arrays, b, np.random.default_rng(4))
    assert all(np.array_equal(g, e) for g, e in zip(got, expected, strict=True))
    values = [float(v) for v in arrays[1]]
    assert bootstrap_mean_ci(values, n_resamples=b, seed=4)[:3] == _old_bootstrap_mean_ci(values, b, 4)


def test_chunks_are_bounded_and_leave_the_generator_where_one_matrix_would() -> None:
    from benger.stats._intervals import CHUNK_ELEMENTS, resample_index_chunks

    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    chunks = list(resample_index_chunks(64_000, 2000, rng_a))
    assert max(c.size for c in chunks) <= CHUNK_ELEMENTS and sum(c.shape[0] for c in chunks) == 2000
    rng_b.integers(0, 64_000, size=(2000, 64_000))
    assert rng_a.integers(0, 10**9) == rng_b.integers(0, 10**9)


def test_shared_draw_intervals_equal_one_call_per_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    import benger.stats._intervals as iv
    from benger.stats import bootstrap_mean_cis

    rng = np.random.default_rng(21)
    # two samples of size 30 share their draws; sizes 7 and 1 and a sample with a missing value stand alone
    samples: list[list[float | None]] = [
        [float(v) for v in rng.integers(0, 101, 30)],
        [float(v) for v in rng.uniform(0, 100, 30)],
        [float(v) for v in rng.integers(0, 19, 7)],
        [42.0],
        [1.0, None, 3.0, 8.0],
    ]
    monkeypatch.setattr(iv, "CHUNK_ELEMENTS", 4 * 30 + 1)  # several blocks of indices
    expected = [bootstrap_mean_ci(s, n_resamples=500, seed=3) for s in samples]
    assert bootstrap_mean_cis(samples, n_resamples=500, seed=3) == expected  # bit for bit, n and n_missing too
    assert expected[3].low is None and expected[4].n_missing == 1
    with pytest.raises(ValueError, match="no values"):
        bootstrap_mean_cis([[1.0, 2.0], [None]], seed=3)
