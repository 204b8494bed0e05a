"""omega_from_counts, the engine of the stacked bootstrap: duplicated instances, dropped annotators, exact Wilcoxon."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from benger.stats import alt_test, omega_from_counts
from benger.stats._alt_test import _signed_rank_cdf


def _outcomes(ties: int, losses: int, wins: int) -> list[int]:
    return [0] * ties + [1] * losses + [-1] * wins


def test_a_duplicated_instance_counts_twice_in_the_exact_wilcoxon() -> None:
    # One annotator: d = [0, +1, -1, -1, -1, -1] (1 tie, 1 judge loss, 4 judge wins), eps = 0.15.
    # Once: |d - eps| = 0.15 < 0.85 < 1.15 -> the loss has rank 2, W+ = 2; no-ties null of n = 6:
    #   subsets of {1..6} with sum <= 2 are {}, {1}, {2} -> p = 3/64 = 0.046875.
    # Every instance drawn twice (a bootstrap resample): 2 ties (ranks 1, 2), 2 losses (ranks 3, 4 -> 3.5 each),
    #   8 wins; W+ = 2 * 3.5 = 7 = a*b + b(b+1)/2 = 4 + 3; subsets of {1..12} with sum <= 7:
    #   1 + 1 + 1 + 2 + 2 + 3 + 4 + 5 (sums 0..7) = 19 -> p = 19/4096 = 0.0046387.
    once = alt_test({"g": _outcomes(1, 1, 4)}, epsilon=0.15).per_annotator[0]
    twice = alt_test({"g": _outcomes(2, 2, 8)}, epsilon=0.15).per_annotator[0]
    assert (once.statistic, once.p_value) == (2.0, pytest.approx(3 / 64))
    assert (twice.statistic, twice.p_value) == (7.0, pytest.approx(19 / 4096))
    # Five such annotators: BY at m = 5 accepts rank 5 if p <= 5/5 * 0.05 / H_5 = 0.05 / 2.28333 = 0.0219:
    # 19/4096 passes (omega 1), 3/64 does not (omega 0) -- duplicates are separate instances, not merged.
    five = np.ones((1, 5), dtype=int)
    assert omega_from_counts(2 * five, 2 * five, 8 * five) == pytest.approx([1.0])
    assert omega_from_counts(five, five, 4 * five) == pytest.approx([0.0])


def test_an_annotator_left_with_four_instances_is_dropped_and_m_shrinks() -> None:
    # Four annotators with (2 ties, 2 losses, 8 wins) -> p = 19/4096 each; the fifth has 1 + 1 + 2 = 4 < 5
    # instances and is dropped, so m = 4: BY threshold at rank 4 = 4/4 * 0.05 / H_4 = 0.05 / 2.08333 = 0.024,
    # all four rejected -> omega = 4/4 = 1.0 (not 4/5), exactly what alt_test does.
    ties, losses, wins = np.array([[2, 2, 2, 2, 1]]), np.array([[2, 2, 2, 2, 1]]), np.array([[8, 8, 8, 8, 2]])
    assert omega_from_counts(ties, losses, wins) == pytest.approx([1.0])
    outcomes = {f"g{j}": _outcomes(ties[0, j], losses[0, j], wins[0, j]) for j in range(5)}
    res = alt_test(outcomes, epsilon=0.15)
    assert (res.m_annotators, res.n_rejected, res.omega) == (4, 4, 1.0)


@pytest.mark.parametrize("epsilon", [0.15, 0.2])
def test_counting_form_is_scipys_exact_wilcoxon_for_every_composition(epsilon: float) -> None:
    # every (ties, losses, wins) with 5 <= n <= 12: one annotator per composition, compared through omega
    # (a single annotator is rejected iff p <= 0.05 / H_1 = 0.05, so omega jumps exactly at scipy's p = 0.05).
    rows = [(a, b, n - a - b) for n in range(5, 13) for a in range(n + 1) for b in range(n + 1 - a)]
    counts = np.asarray(rows)
    omegas = omega_from_counts(counts[:, :1], counts[:, 1:2], counts[:, 2:], epsilon=epsilon)
    for (a, b, c), omega in zip(rows, omegas, strict=True):
        d = np.asarray(_outcomes(a, b, c), dtype=float) - epsilon
        p = sps.wilcoxon(d, alternative="less", zero_method="wilcox", method="exact").pvalue
        # the closed form omega_from_counts uses: P(W+ <= a*b + b(b+1)/2) under the no-ties null of size n
        assert _signed_rank_cdf(a + b + c)[a * b + b * (b + 1) // 2] == pytest.approx(p, rel=1e-12), (a, b, c)
        assert omega == (1.0 if p <= 0.05 else 0.0), (a, b, c)
