"""Issue 14 "wrong today" 1-3: a missing value (None, float('nan'), np.nan) never reaches a p-value, a verdict or
a rank. Each example failed before the shared cleaning rule (``benger.stats._clean``) and passes now."""

from __future__ import annotations

import math

import numpy as np
import pytest

from benger.stats import (
    alt_test,
    blind_pool_outcomes,
    bootstrap_diff_ci,
    bootstrap_mean_ci,
    bootstrap_pearson_ci,
    cluster_bootstrap_mean_ci,
    cohen_kappa,
    krippendorff_alpha_interval,
    paired_system_comparisons,
    single_expert_outcomes,
)

NAN = float("nan")


def _reviews() -> list[tuple[str, str, float]]:
    # 6 instances x 3 annotators: enough instances (>= 5) per annotator for a test
    rows = []
    for i in range(6):
        for g, base in (("A", 50.0), ("B", 60.0), ("C", 70.0)):
            rows.append((f"i{i}", g, base + i))
    return rows


@pytest.mark.parametrize("missing", [NAN, np.nan, None])
def test_all_missing_judge_never_passes_the_alt_test(missing: float | None) -> None:
    # before: NaN compared as a tie with every annotator (d = 0 everywhere) -> omega 1, passes = True
    judge = {f"i{i}": missing for i in range(6)}
    outcomes, n_inst = blind_pool_outcomes(judge, _reviews())  # type: ignore[arg-type]
    assert outcomes == {} and n_inst == 0
    res = alt_test(outcomes, n_instances_total=n_inst)
    assert (res.omega, res.passes, res.m_annotators) == (None, False, 0)


def test_missing_judge_score_on_one_instance_is_left_out_not_a_tie() -> None:
    judge: dict[str, float | None] = {f"i{i}": 60.0 + i for i in range(6)}
    full, n_full = blind_pool_outcomes(judge, _reviews())  # type: ignore[arg-type]
    judge["i0"] = NAN
    part, n_part = blind_pool_outcomes(judge, _reviews())  # type: ignore[arg-type]
    assert n_full == 6 and n_part == 5
    assert part == {g: d[1:] for g, d in full.items()}


def test_missing_review_and_expert_scores_are_left_out() -> None:
    reviews = [("i", "A", 70.0), ("i", "B", NAN), ("j", "A", 61.0), ("k", "A", 10.0)]
    outcomes, n = single_expert_outcomes({"i": 62.0, "j": 62.0, "k": 1.0}, reviews, {"i": 60, "j": 60, "k": NAN})
    # i/A: judge |2| beats annotator |10| -> -1; i/B missing; j/A: annotator |1| beats judge |2| -> +1; k: no expert
    assert outcomes == {"A": [-1, 1]} and n == 2


def test_alt_test_rejects_missing_outcomes() -> None:
    with pytest.raises(ValueError, match="missing"):
        alt_test({"A": [0, 0, 0, 0, NAN]})  # type: ignore[list-item]


# diffs A - B per task: 2, 4, -2, 7, -1, 5
A = {"p": 60.0, "q": 64.0, "r": 55.0, "s": 70.0, "t": 52.0, "u": 66.0}
B = {"p": 58.0, "q": 60.0, "r": 57.0, "s": 63.0, "t": 53.0, "u": 61.0}


def test_paired_comparison_drops_a_missing_task() -> None:
    # before: delta NaN, and the NaN resamples fell out of both tails: p 0.001, significant (clean data: 0.057)
    a_nan = {**A, "r": NAN}
    (row,) = paired_system_comparisons({"A": a_nan, "B": B})
    # identical to the comparison without task r (same seed, same draws), with the dropped task counted
    (dropped,) = paired_system_comparisons({"A": {k: v for k, v in A.items() if k != "r"}, "B": B})
    assert row == dropped._replace(n_missing=1)
    assert (row.n, row.delta) == (5, pytest.approx((2 + 4 + 7 - 1 + 5) / 5))
    assert not any(math.isnan(x) for x in (row.delta, row.low, row.high, row.p_value))
    (clean,) = paired_system_comparisons({"A": A, "B": B})
    # exact sign-flip over 2^6 patterns (the bootstrap p was 0.057)
    assert (clean.p_value, clean.significant, clean.n_missing, clean.test) == (0.1875, False, 0, "exact")


def test_paired_comparison_with_none_equals_nan() -> None:
    with_none = paired_system_comparisons({"A": {**A, "r": None}, "B": B})
    with_nan = paired_system_comparisons({"A": {**A, "r": np.nan}, "B": B})
    assert with_none == with_nan


@pytest.mark.parametrize("missing", [NAN, np.nan, None, np.float32("nan")])
def test_krippendorff_treats_every_missing_marker_alike(missing: float | None) -> None:
    # values 1,2 | 3,3 -> alpha = 1 - 0.5 / (22/12) (hand computation in test_agreement.py); the 7 is unpaired
    assert krippendorff_alpha_interval([[1, 2], [3, 3], [7, missing]]) == pytest.approx(1 - 0.5 / (22 / 12))


def test_krippendorff_all_missing_is_none_not_nan() -> None:
    assert krippendorff_alpha_interval([[NAN, NAN], [NAN, 1.0]]) is None


def test_cohen_kappa_drops_missing_labels() -> None:
    # complete pairs: (1,1), (1,0), (0,0), (0,0), (1,1), (0,1) -> kappa 1/3 (hand computation in test_agreement.py)
    a = [1, 1, 0, 0, 1, 0, None, NAN, np.nan, 1]
    b = [1, 0, 0, 0, 1, 1, 1, 0, 1, float("nan")]
    assert cohen_kappa(a, b) == pytest.approx(1 / 3)
    assert cohen_kappa([NAN, None], [1, 0]) is None


@pytest.mark.parametrize(
    "call",
    [
        lambda: bootstrap_mean_ci([1.0, 2.0, 3.0], n_resamples=0),
        lambda: bootstrap_diff_ci([1.0, 2.0], [3.0, 4.0], n_resamples=0),
        lambda: cluster_bootstrap_mean_ci([1.0, 2.0], ["a", "b"], n_resamples=0),
        lambda: bootstrap_pearson_ci([1, 2, 3, 4], [2, 1, 4, 3], n_resamples=0),
        lambda: paired_system_comparisons({"A": A, "B": B}, n_resamples=0),
        lambda: bootstrap_mean_ci([1.0, 2.0, 3.0], n_resamples=-5),
    ],
)
def test_zero_resamples_is_a_clear_error(call: object) -> None:
    # before: a raw IndexError from np.percentile of an empty array
    with pytest.raises(ValueError, match="n_resamples must be a positive integer"):
        call()  # type: ignore[operator]


def test_missing_values_are_dropped_and_counted_in_intervals() -> None:
    ci = bootstrap_mean_ci([40.0, None, 60.0, NAN, 50.0], seed=1)
    assert (ci.estimate, ci.n, ci.n_missing) == (50.0, 3, 2)
    assert ci[:3] == bootstrap_mean_ci([40.0, 60.0, 50.0], seed=1)[:3]


def test_infinite_values_are_an_input_error() -> None:
    with pytest.raises(ValueError, match="infinite"):
        bootstrap_mean_ci([1.0, math.inf])
    with pytest.raises(ValueError, match="infinite"):
        blind_pool_outcomes({"i": math.inf}, [("i", "A", 1.0), ("i", "B", 2.0), ("i", "C", 3.0)])
