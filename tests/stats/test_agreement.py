"""Agreement statistics against hand-computed examples and the Shrout & Fleiss (1979) ICC example."""

from __future__ import annotations

import pytest

from benger.stats import cohen_kappa, icc2, kendall_tau_b, krippendorff_alpha_interval, mae, pearson, spearman


def test_pearson_drops_missing_pairs() -> None:
    # pairs kept: (1,2), (2,4), (3,5); dx = -1,0,1; dy = -5/3,1/3,4/3
    # sxy = 5/3 + 4/3 = 3; sxx = 2; syy = (25+1+16)/9 = 42/9; r = 3 / sqrt(2 * 42/9) = 0.981981
    assert pearson([1, 2, 3, None, 5], [2, 4, 5, 7, None]) == pytest.approx(0.981981, abs=1e-6)


def test_spearman_average_ranks_for_ties() -> None:
    # ranks x = 1, 2.5, 2.5, 4; y = 1, 3, 2, 4; both centred at 2.5
    # sxy = 2.25 + 0 + 0 + 2.25 = 4.5; sxx = 4.5; syy = 5; rho = 4.5 / sqrt(22.5) = 0.948683
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(0.948683, abs=1e-6)


def test_kendall_tau_b_with_a_tie() -> None:
    # 6 pairs: 5 concordant, 0 discordant, 1 tied in x only: tau_b = 5 / sqrt((6-1) * 6) = 0.912871
    assert kendall_tau_b([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(0.912871, abs=1e-6)


def test_correlations_undefined_cases_are_none() -> None:
    assert pearson([1, 2, None], [1, 2, 3]) is None  # 2 pairs < 3
    assert spearman([1, 1, 1], [1, 2, 3]) is None  # constant side
    assert kendall_tau_b([1, 2, 3], [4, 4, 4]) is None


def test_mae_over_complete_pairs() -> None:
    # |1-2| and |2-4| -> (1 + 2) / 2 = 1.5
    assert mae([1, 2, None], [2, 4, 3]) == pytest.approx(1.5)
    assert mae([None], [1]) is None


def test_cohen_kappa() -> None:
    # observed agreement 4/6; marginals 3/6 and 3/6 -> expected 0.5; kappa = (2/3 - 1/2) / (1/2) = 1/3
    assert cohen_kappa([1, 1, 0, 0, 1, 0], [1, 0, 0, 0, 1, 1]) == pytest.approx(1 / 3)
    assert cohen_kappa([True, True], [True, True]) is None  # chance agreement 1


def test_icc_shrout_fleiss_1979_example() -> None:
    # Shrout & Fleiss (1979), Table 2: 6 targets x 4 judges; they report ICC(2,1) = .29 and ICC(2,4) = .62
    # (BMS = 11.24, JMS = 32.49, EMS = 1.02).
    ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    res = icc2(ratings)
    assert (res.msr, res.msc, res.mse) == pytest.approx((11.2417, 32.4861, 1.0194), abs=1e-3)
    assert res.icc_2_1 == pytest.approx(0.29, abs=0.005)
    assert res.icc_2_k == pytest.approx(0.62, abs=0.005)


def test_icc_perfect_agreement_and_bad_input() -> None:
    res = icc2([[1, 1], [5, 5], [9, 9]])
    assert res.icc_2_1 == pytest.approx(1.0) and res.icc_2_k == pytest.approx(1.0)
    with pytest.raises(ValueError):
        icc2([[1.0, float("nan")], [2.0, 3.0]])


def test_icc_undefined_when_every_rating_is_identical() -> None:
    # all ratings 7: MSR = MSC = MSE = 0, both denominators 0 -> undefined (None), not a ZeroDivisionError
    res = icc2([[7, 7, 7], [7, 7, 7]])
    assert res.icc_2_1 is None and res.icc_2_k is None


def test_krippendorff_alpha_interval() -> None:
    # values 1,2 | 3,3 (n = 4). D_o = ((1-2)^2 + (2-1)^2) / (2-1) / 4 = 0.5
    # D_e = ordered-pair sum of squared differences (2 * 11 = 22) / (4 * 3) = 1.8333; alpha = 1 - 0.5/1.8333
    assert krippendorff_alpha_interval([[1, 2], [3, 3]]) == pytest.approx(1 - 0.5 / (22 / 12))
    # a single-rating unit is not pairable and changes nothing
    assert krippendorff_alpha_interval([[1, 2], [3, 3], [7, None]]) == pytest.approx(1 - 0.5 / (22 / 12))


def test_bootstrap_pearson_ci() -> None:
    from benger.stats import bootstrap_pearson_ci

    # y = 2x + 1 exactly: every non-degenerate resample has r = 1
    r, low, high = bootstrap_pearson_ci([1, 2, 3, 4, 5], [3, 5, 7, 9, 11], n_resamples=300)
    assert (r, low, high) == pytest.approx((1.0, 1.0, 1.0))
    assert bootstrap_pearson_ci([1, 2], [1, 2]) == (None, None, None)
