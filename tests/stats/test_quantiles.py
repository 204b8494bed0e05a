"""The interval code's quantiles (issue 26: scipy.stats costs ~2 CPU-s to import, scipy.special ~0.1-0.3): Φ and
Φ⁻¹ from the standard library agree with scipy to 1e-12 (relative; absolute near 0) over a table of values and
random ones, the 95 % z is scipy's to the last bit, and the t quantile is scipy.special's own (the same bits as
scipy.stats)."""

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


def _agrees(found: float, expected: float) -> bool:
    """Within 1e-12 relative, or 1e-12 absolute where the value is near 0 (a quantile of p close to 1/2)."""
    return abs(found - expected) <= 1e-12 * max(abs(expected), 1.0 if abs(expected) < 1.0 else 0.0)


#: Probabilities from the centre to the far tails (the BCa interval asks for B-th shares, 1/B ... 1 - 1/B, and the
#: levels' alphas), both sides.
P_TABLE = [
    *(10.0**-k for k in (300, 200, 100, 50, 20, 16, 12, 9, 6, 5, 4, 3, 2)),
    *(k / 1000 for k in (1, 5, 10, 25, 50, 100, 250, 400, 499, 500, 501, 600, 750, 900, 950, 975, 990, 995, 999)),
    *(1 - 10.0**-k for k in (4, 6, 9, 12, 15)),
    1 / 2000, 1 - 1 / 2000, 0.5 + 0.5e-9, 0.5 - 0.5e-9, 0.05 / 2, 0.01 / 2, 0.9 / 2 + 0.5,
]  # fmt: skip
#: Points of Φ from the far left tail (Φ about 1e-300 at -37) across the centre to where Φ rounds to 1.
X_TABLE = [-37.0, -30.0, -20.0, -10.0, -8.0, -5.0, -3.0, -1.96, -1.0, -0.7071, -0.5, -1e-9, 0.0, 1e-9, 0.5,
           0.7071, 0.70711, 1.0, 1.959963984540054, 3.0, 5.0, 8.0, 8.3, 9.0, 40.0]  # fmt: skip


@pytest.mark.parametrize("p", P_TABLE)
def test_the_normal_quantile_agrees_with_scipy(p: float) -> None:
    from scipy import special

    assert _agrees(norm_ppf(p), float(special.ndtri(p))), (p, norm_ppf(p), float(special.ndtri(p)))
    assert _agrees(norm_ppf(p), float(sps.norm.ppf(p)))


@pytest.mark.parametrize("x", X_TABLE)
def test_the_normal_cdf_agrees_with_scipy(x: float) -> None:
    from scipy import special

    expected = float(special.ndtr(x))
    assert norm_cdf(x) == pytest.approx(expected, rel=1e-12, abs=0.0), (x, norm_cdf(x), expected)
    assert 0.0 <= norm_cdf(x) <= 1.0


@settings(max_examples=300, deadline=None)
@given(p=probabilities, df=st.integers(min_value=1, max_value=5000))
def test_random_values_agree_with_scipy_stats(p: float, df: int) -> None:
    assert _agrees(norm_ppf(p), float(sps.norm.ppf(p)))
    assert t_ppf(p, df) == float(sps.t.ppf(p, df))  # scipy.special's stdtrit: the same bits
    x = norm_ppf(p)
    assert norm_cdf(x) == pytest.approx(float(sps.norm.cdf(x)), rel=1e-12, abs=0.0)
    found, expected = norm_ppfs([p, 1 - p]), [float(v) for v in sps.norm.ppf([p, 1 - p])]
    assert all(_agrees(a, b) for a, b in zip(found, expected, strict=True))


def test_phi_and_its_inverse_need_no_scipy() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from benger.stats._quantiles import norm_cdf, norm_ppf, norm_ppfs\n"
        "norm_cdf(1.0); norm_ppf(0.3); norm_ppfs([0.025, 0.975])\n"
        "print(any(m.split('.')[0] == 'scipy' for m in sys.modules))"
    )
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "False"


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
