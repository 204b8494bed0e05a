"""The alternative-annotator test: alignment, ties, exact Wilcoxon corner cases, Benjamini-Yekutieli, omega."""

from __future__ import annotations

import numpy as np
import pytest

from benger.stats import alt_test, blind_pool_outcomes, omega_from_counts, single_expert_outcomes


def test_blind_pool_alignment_and_ties_count_for_both() -> None:
    # instance i: A=50, B=60, C=70, judge 60.
    # A: others (60,70): S_f = -sqrt((0+100)/2) = -7.07, S_h = -sqrt((100+400)/2) = -15.8 -> judge better, d = -1
    # B: others (50,70): S_f = S_h = -sqrt((100+100)/2) = -10 -> tie, d = 0 (both W = 1)
    # C: symmetric to A -> d = -1
    outcomes, n = blind_pool_outcomes({"i": 60.0}, [("i", "A", 50.0), ("i", "B", 60.0), ("i", "C", 70.0)])
    assert outcomes == {"A": [-1], "B": [0], "C": [-1]} and n == 1
    # an instance with 2 reviews or without a judge score is not used
    outcomes, n = blind_pool_outcomes({"i": 60.0}, [("i", "A", 50.0), ("i", "B", 60.0), ("j", "A", 1.0)])
    assert outcomes == {} and n == 0


def test_single_expert_alignment() -> None:
    # expert 60: judge 62 (|2|) beats annotator 70 (|10|) -> d = -1; annotator 61 (|1|) beats judge -> d = +1
    outcomes, n = single_expert_outcomes(
        {"i": 62.0, "j": 62.0}, [("i", "A", 70.0), ("j", "A", 61.0)], {"i": 60, "j": 60}
    )
    assert outcomes == {"A": [-1, 1]} and n == 2


def test_wilcoxon_all_ties() -> None:
    # six ties: d - eps = -0.15 everywhere -> W+ = 0; exact P(W+ <= 0 | n = 6) = 1 / 2^6 = 0.015625
    res = alt_test({"A": [0] * 6}, epsilon=0.15)
    row = res.per_annotator[0]
    assert (row.test, row.statistic, row.p_value) == ("wilcoxon", 0.0, pytest.approx(1 / 64))
    assert (row.rho_f, row.rho_h, row.d_bar) == (1.0, 1.0, 0.0)


def test_wilcoxon_with_tied_ranks() -> None:
    # d = (+1, +1, 0, -1, -1, -1): |d - eps| ranks: 0 -> 1; the two +1 share ranks 2,3 (2.5 each); -1 -> 4..6.
    # W+ = 2.5 + 2.5 = 5. Subsets of {1..6} with sum <= 5: {}, 1, 2, 3, 4, 5, 12, 13, 14, 23 -> 10 / 64
    res = alt_test({"A": [1, 1, 0, -1, -1, -1]}, epsilon=0.2)
    row = res.per_annotator[0]
    assert row.statistic == 5.0 and row.p_value == pytest.approx(10 / 64)
    assert (row.rho_f, row.rho_h) == pytest.approx((4 / 6, 3 / 6))
    # any epsilon in (0, 0.5) gives the same ranks and so the same p-value
    assert alt_test({"A": [1, 1, 0, -1, -1, -1]}, epsilon=0.15).per_annotator[0].p_value == row.p_value


def test_annotators_below_five_instances_are_dropped() -> None:
    res = alt_test({"A": [0] * 6, "B": [-1] * 4}, epsilon=0.15)
    assert [r.grader for r in res.per_annotator] == ["A"] and res.m_annotators == 1
    assert alt_test({"B": [-1] * 4}).omega is None


def test_t_test_from_thirty_instances() -> None:
    # 15 x (-1) and 15 x 0: mean -0.5, sd (n-1) = sqrt(30 * 0.25 / 29) = 0.5085476
    # t = (-0.5 - 0.15) / (0.5085476 / 5.4772256) = -0.65 / 0.0928477 = -7.000714
    row = alt_test({"A": [-1] * 15 + [0] * 15}).per_annotator[0]
    assert row.test == "t" and row.statistic == pytest.approx(-7.000714, abs=1e-5) and row.p_value < 1e-6
    # s = 0: p is 0 when the mean lies below epsilon
    assert alt_test({"A": [-1] * 30}).per_annotator[0].p_value == 0.0


def _ties(n: int) -> list[int]:
    return [0] * n


def test_benjamini_yekutieli_not_benjamini_hochberg() -> None:
    # all-tie annotators have p = 2^-n: n=10 -> .000977, n=8 -> .003906, n=7 -> .0078125, n=5 -> .03125;
    # one annotator always loses (p = 1). BY thresholds i/5 * 0.05 / H_5 (H_5 = 2.283333):
    # .004380, .008759, .013139, .017518 -> ranks 1-3 pass, .03125 > .017518 -> 3 rejections (BH would give 4).
    outcomes = {"a": _ties(10), "b": _ties(8), "c": _ties(7), "d": _ties(5), "e": [1] * 6}
    res = alt_test(outcomes)
    assert res.n_rejected == 3 and res.omega == pytest.approx(0.6) and res.passes
    assert [r.rejected_BY for r in res.per_annotator] == [True, True, True, False, False]
    # Clopper-Pearson 95% for 3 of 5
    assert res.omega_ci95 == pytest.approx((0.146633, 0.947255), abs=1e-6)
    # the counting form agrees
    ties = np.array([[10, 8, 7, 5, 0]])
    losses = np.array([[0, 0, 0, 0, 6]])
    assert omega_from_counts(ties, losses, np.zeros_like(ties)) == pytest.approx([0.6])


def test_counting_form_matches_alt_test() -> None:
    rng = np.random.default_rng(11)
    counts = rng.integers(0, 9, size=(60, 3, 4))  # 60 tests x (ties, losses, wins) x 4 annotators
    counts[:5, :, 0] = [12, 1, 20]  # some annotators reach n >= 30 (t-test)
    omegas = omega_from_counts(counts[:, 0], counts[:, 1], counts[:, 2], epsilon=0.2)
    for row, omega in zip(counts, omegas, strict=True):
        outcomes = {f"g{j}": [0] * row[0, j] + [1] * row[1, j] + [-1] * row[2, j] for j in range(4)}
        expected = alt_test(outcomes, epsilon=0.2).omega
        assert (np.isnan(omega) and expected is None) or omega == pytest.approx(expected)
