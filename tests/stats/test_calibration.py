"""Judge calibration offsets and creator-anchored correction fits."""

from __future__ import annotations

import numpy as np
import pytest

from benger.stats import apply_calibration, calibration_offsets, fit_calibration, fit_calibration_batch


def test_offsets_by_hand() -> None:
    # judge - full = (5, 0, -5): mean 0, sd 5, min -5, max 5; sub - full = (1, 0, -1): mean 0, sd 1; t = 0
    row = calibration_offsets([60, 70, 80], [55, 70, 85], [56, 70, 84])
    assert row["n"] == 3
    assert (row["judge_minus_pool_mean"], row["judge_minus_pool_sd"]) == pytest.approx((0.0, 5.0))
    assert (row["judge_minus_pool_min"], row["judge_minus_pool_max"]) == (-5.0, 5.0)
    assert (row["diff_mean"], row["diff_sd"], row["ttest_t"]) == pytest.approx((0.0, 1.0, 0.0))
    assert (row["full_mean"], row["sub_mean"], row["judge_mean"]) == pytest.approx((70.0, 70.0, 70.0))


def test_fit_scalar_and_affine() -> None:
    # scalar a = mean(creator - judge) = (5 + 0 - 5) / 3 = 0
    # affine b = sum(dj*dc) / sum(dj^2) = (50 + 50) / 200 = 0.5; a = 60 - 0.5 * 60 = 30
    fit = fit_calibration([50, 60, 70], [55, 60, 65])
    assert fit == pytest.approx((0.0, 30.0, 0.5, 3))
    # a constant judge has no slope: b = 0, a = mean(creator) = 60
    flat = fit_calibration([70, 70, 70], [55, 60, 65])
    assert (flat.b_affine, flat.a_affine, flat.a_scalar) == pytest.approx((0.0, 60.0, -10.0))


def test_weighted_batch_equals_refit_on_the_subset() -> None:
    judge, creator = np.array([50.0, 60.0, 70.0, 90.0]), np.array([55.0, 60.0, 65.0, 70.0])
    weights = np.array([[1, 1, 1, 0], [2, 0, 1, 1]], dtype=float)
    a, a2, b = fit_calibration_batch(judge, creator, weights)
    first = fit_calibration(judge[:3], creator[:3])
    second = fit_calibration([50, 50, 70, 90], [55, 55, 65, 70])
    assert (a[0], a2[0], b[0]) == pytest.approx(first[:3])
    assert (a[1], a2[1], b[1]) == pytest.approx(second[:3])


def test_apply_clips_to_the_scale() -> None:
    assert float(apply_calibration("affine", 100.0, 0.0, 30.0, 0.5)) == pytest.approx(80.0)
    assert float(apply_calibration("scalar", 80.0, 50.0, 0.0, 0.0)) == 100.0
    assert float(apply_calibration("raw", 80.0, 50.0, 0.0, 0.0)) == 80.0
    with pytest.raises(ValueError):
        apply_calibration("cubic", 1.0, 0, 0, 0)
