"""Issue 24 item 1: paired system tests give valid p-values, and Holm over them holds the family-wise error."""

from __future__ import annotations

from itertools import product

import numpy as np
import pytest

from benger.stats import paired_system_comparisons
from benger.stats._compare import sign_flip_p
from benger.stats._multitest import adjusted_p, holm


def _equal_systems(rng: np.random.Generator, systems: int, tasks: int) -> dict[str, dict[str, float]]:
    """``systems`` systems of one true mean: a shared task effect plus independent noise, clipped to 0-100."""
    task = rng.normal(60.0, 10.0, tasks)
    return {
        f"s{k:02d}": {f"t{i:02d}": float(np.clip(task[i] + rng.normal(0.0, 8.0), 0, 100)) for i in range(tasks)}
        for k in range(systems)
    }


def test_the_issue_example_is_no_longer_p_zero() -> None:
    # before: p = 0.0. Three tasks, every difference positive: 2 of the 8 sign patterns reach |mean| = 4/3
    (row,) = paired_system_comparisons({"a": {0: 1, 1: 3, 2: 2}, "b": {0: 0, 1: 1, 2: 1}})
    assert (row.p_value, row.test, row.significant) == (0.25, "exact", False)


def test_exact_sign_flip_by_hand() -> None:
    diff = np.array([1.0, 2.0, -0.5, 3.0])
    means = [abs(sum(s * d for s, d in zip(signs, diff, strict=True))) / 4 for signs in product((1, -1), repeat=4)]
    expected = sum(m >= abs(diff.mean()) - 1e-12 for m in means) / 16
    assert sign_flip_p(diff, 100, np.random.default_rng(0)) == (expected, "exact")
    assert sign_flip_p(np.zeros(5), 100, np.random.default_rng(0))[0] == 1.0


def test_monte_carlo_p_is_never_below_one_over_b_plus_one() -> None:
    diff = np.full(40, 5.0)  # every pattern but the identity is less extreme
    p, test = sign_flip_p(diff, 999, np.random.default_rng(0))
    assert p >= 1 / 1000 and test == "monte carlo (B = 999)"
    (row,) = paired_system_comparisons({"a": {i: 60.0 for i in range(40)}, "b": {i: 55.0 for i in range(40)}},
                                       n_resamples=999)  # fmt: skip
    assert row.p_value == pytest.approx(1 / 1000, abs=2e-3) and row.significant


def test_by_correction_and_unknown_method() -> None:
    p = [0.01, 0.02, 0.03, 0.5]
    assert adjusted_p(p, "holm").tolist() == pytest.approx(holm(p, 0.05)[1].tolist())
    harmonic = sum(1 / k for k in range(1, 5))
    assert adjusted_p(p, "by")[0] == pytest.approx(min(1.0, 0.03 * 4 / 3 * harmonic))
    with pytest.raises(ValueError, match="unknown multiple-testing correction"):
        adjusted_p(p, "bonferroni")


def test_one_pair_type_one_error_at_fifteen_tasks() -> None:
    """Two equal systems, 15 tasks: "significant" at 0.05 in at most 5 % of studies (± 3 Monte-Carlo sd)."""
    rng = np.random.default_rng(24)
    studies = 400
    hits = sum(
        paired_system_comparisons(_equal_systems(rng, 2, 15), n_resamples=499, seed=s)[0].significant
        for s in range(studies)
    )
    assert hits / studies <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / studies)


@pytest.mark.slow
def test_twelve_equal_systems_family_wise_error() -> None:
    """Issue 24 Done-when: 12 systems of equal mean, 15 tasks, 66 Holm-corrected pairs: the share of studies with
    any "significant" pair is <= 0.05 within Monte-Carlo error (before: 0.28-0.31 with the percentile p)."""
    rng = np.random.default_rng(7)
    studies = 150
    hits = sum(
        any(p.significant for p in paired_system_comparisons(_equal_systems(rng, 12, 15), seed=s))
        for s in range(studies)
    )
    assert hits / studies <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / studies)
