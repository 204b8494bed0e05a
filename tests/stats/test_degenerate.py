"""Issue 24 item 5: degenerate inputs give "undefined" with a reason, never a number from rounding noise;
Krippendorff's alpha in O(N) memory; mixed label types refused by Cohen's kappa."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from benger.stats import (
    cohen_kappa,
    icc2,
    kappa_undefined_reason,
    krippendorff_alpha_interval,
    pearson,
    spearman,
    undefined_reason,
)

ROUNDED = 0.1 + 0.2  # 0.30000000000000004


@pytest.mark.parametrize(
    "matrix",
    [
        [[50.0, 50.0], [50.0, 50.0], [50.0, 50.0]],
        [[ROUNDED, 0.3, 0.3], [0.3, ROUNDED, 0.3], [0.3, 0.3, ROUNDED]],  # before: ICC 0.5 / 0.75 from 1e-33
        [[1e6 + 1e-9, 1e6], [1e6, 1e6 + 1e-9]],
    ],
)
def test_icc_of_no_variance_is_undefined_with_a_reason(matrix: list[list[float]]) -> None:
    result = icc2(matrix)
    assert (result.icc_2_1, result.icc_2_k) == (None, None)
    assert result.reason is not None and "denominator 0" in result.reason


def test_icc_of_real_ratings_is_unchanged() -> None:
    result = icc2([[1, 2], [3, 5], [6, 6]])
    assert result.icc_2_1 == pytest.approx(0.852941, abs=1e-6) and result.reason is None


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        ([1.0, 2.0], [1.0, 2.0], "2 complete pair(s)"),
        ([1.0, None, 2.0, 3.0], [1.0, 2.0, None, 3.0], "2 complete pair(s)"),
        ([5.0, 5.0, 5.0], [1.0, 2.0, 3.0], "constant"),
    ],
)
def test_correlations_say_why_they_are_undefined(a: list, b: list, reason: str) -> None:
    assert pearson(a, b) is None and spearman(a, b) is None
    found = undefined_reason(a, b)
    assert found is not None and reason in found
    assert undefined_reason([1.0, 2.0, 3.0], [2.0, 1.0, 3.0]) is None


def test_kappa_refuses_mixed_label_types_and_explains_undefined() -> None:
    with pytest.raises(ValueError, match="mixed label types"):
        cohen_kappa([1, 0, 1], ["1", "0", "0"])  # before: 1 and '1' silently two labels
    assert cohen_kappa([True, False, True], [1, 0, 0]) == cohen_kappa([1, 0, 1], [1, 0, 0])
    assert cohen_kappa(["pass"] * 3, ["pass"] * 3) is None
    assert "chance agreement is 1" in (kappa_undefined_reason(["pass"] * 3, ["pass"] * 3) or "")
    assert kappa_undefined_reason(["a", "b", "a"], ["a", "b", "b"]) is None


def _alpha_by_pairs(units: list[list[float]]) -> float:
    """Krippendorff's alpha (interval) from every ordered pair, the textbook definition."""
    groups = [np.asarray(u, dtype=float) for u in units if len(u) >= 2]
    values = np.concatenate(groups)
    n = values.size
    observed = sum(((g[:, None] - g[None, :]) ** 2).sum() / (g.size - 1) for g in groups) / n
    expected = ((values[:, None] - values[None, :]) ** 2).sum() / (n * (n - 1))
    return float(1 - observed / expected)


def test_alpha_equals_the_pairwise_definition_in_linear_memory() -> None:
    rng = np.random.default_rng(24)
    units = [list(rng.integers(0, 19, rng.integers(2, 5)).astype(float)) for _ in range(60)]
    assert krippendorff_alpha_interval(units) == pytest.approx(_alpha_by_pairs(units), abs=1e-12)
    big = [[float(v), float(v + rng.integers(-2, 3))] for v in rng.integers(0, 100, 10_000)]  # 20,000 ratings
    tracemalloc.start()
    alpha = krippendorff_alpha_interval(big)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert alpha is not None and 0.9 < alpha < 1.0
    assert peak < 50 * 2**20  # the N x N matrix was 3 GB
    assert krippendorff_alpha_interval([[3.0, 3.0], [3.0, 3.0]]) is None
