"""The interval code's quantiles come from scipy.special (issue 26: scipy.stats costs ~2 CPU-s to import): the
same numbers as scipy.stats to the last bit, so every interval is unchanged."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from benger.stats import bca_mean_ci, mean_ci, proportion_ci, t_mean_ci
from benger.stats._quantiles import KNOWN_NORM_PPF, norm_cdf, norm_ppf, norm_ppfs, t_ppf

probabilities = st.floats(min_value=1e-12, max_value=1 - 1e-12, allow_nan=False)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (norm_ppf(0.975), 1.959963984540054),  # z of a two-sided 95 % interval
        (norm_ppf(0.5), 0.0),
        (norm_cdf(0.0), 0.5),
        (norm_cdf(1.0), 0.8413447460685429),
        (t_ppf(0.975, 1), 12.706204736174694),  # Student's t tables: 12.706 (df 1), 2.262 (df 9)
        (t_ppf(0.975, 9), 2.262157162798205),
    ],
)
def test_hand_checked_quantiles(value: float, expected: float) -> None:
    assert value == pytest.approx(expected, abs=1e-15)


@settings(max_examples=300, deadline=None)
@given(p=probabilities, df=st.integers(min_value=1, max_value=5000))
def test_same_bits_as_scipy_stats(p: float, df: int) -> None:
    assert norm_ppf(p) == float(sps.norm.ppf(p))
    assert t_ppf(p, df) == float(sps.t.ppf(p, df))
    x = norm_ppf(p)
    assert norm_cdf(x) == float(sps.norm.cdf(x))
    assert norm_ppfs([p, 1 - p]) == [float(v) for v in sps.norm.ppf([p, 1 - p])]


def test_the_kept_quantiles_are_scipys_to_the_last_bit() -> None:
    from scipy import special

    assert KNOWN_NORM_PPF == {0.975: 1.959963984540054}  # z of a two-sided 95 % interval (tables: 1.96)
    for p, z in KNOWN_NORM_PPF.items():
        assert z == float(special.ndtri(p)) == float(sps.norm.ppf(p)) == norm_ppf(p)
    assert 0.5 + 0.95 / 2.0 in KNOWN_NORM_PPF  # what the normal and Wilson intervals ask at the default level


def _reference_t(values: list[float], confidence: float) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = float(sps.t.ppf(0.5 + confidence / 2, n - 1)) * sd / math.sqrt(n)
    return mean - half, mean + half


@pytest.mark.parametrize(
    "values", [[50.0, 60.0, 70.0], [12.5, 80.0, 33.0, 47.0, 91.0, 5.0], [float(v % 17) for v in range(40)]]
)
def test_intervals_match_the_scipy_stats_formulas(values: list[float]) -> None:
    low, high = _reference_t(values, 0.95)
    found = t_mean_ci(values)
    assert found.low == pytest.approx(low, rel=1e-12) and found.high == pytest.approx(high, rel=1e-12)
    # Wilson with scipy.stats' z, written out
    z = float(sps.norm.ppf(0.975))
    share, n = 7 / 10, 10
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
    wilson = proportion_ci(7, 10)
    assert (wilson.low, wilson.high) == (centre - half, centre + half)
    assert (round(wilson.low, 3), round(wilson.high, 3)) == (0.397, 0.892)  # the docstring's example
    clopper = proportion_ci(7, 10, method="clopper-pearson")
    assert (round(clopper.low, 3), round(clopper.high, 3)) == (0.348, 0.933)
    assert mean_ci(values, "t")[0] == found
    bca = bca_mean_ci(values, seed=3, n_resamples=500)
    assert (bca.low, bca.high) == pytest.approx(_reference_bca(values, seed=3, n_resamples=500), rel=1e-12)


def _reference_bca(values: list[float], seed: int, n_resamples: int) -> tuple[float, float]:
    """BCa as bca_mean_ci computed it with scipy.stats (same resampled means)."""
    from benger.stats._intervals import _means, _rng

    arr = np.asarray(values, dtype=float)
    n, estimate = arr.size, float(arr.mean())
    means = _means(arr, n_resamples, _rng(seed))
    share = (np.count_nonzero(means < estimate) + 0.5 * np.count_nonzero(means == estimate)) / means.size
    z0 = float(sps.norm.ppf(share))
    jack = (arr.sum() - arr) / (n - 1)
    dev = jack.mean() - jack
    accel = float(np.sum(dev**3)) / (6.0 * float(np.sum(dev**2)) ** 1.5)
    ends = []
    for z in sps.norm.ppf([0.025, 0.975]):
        adjusted = z0 + (z0 + z) / (1.0 - accel * (z0 + z))
        ends.append(float(np.percentile(means, 100.0 * float(sps.norm.cdf(adjusted)))))
    return ends[0], ends[1]
