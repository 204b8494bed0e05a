"""Property tests (hypothesis) for every public statistic: missing values (None, float NaN, np.nan), infinities,
n = 0, 1, 2, all-equal values and ties. The rule (issue 14): a missing value is dropped and counted, or the call
raises ValueError; no NaN ever comes out, and the result equals the result on the cleaned input."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.stats import (
    alt_test,
    blind_pool_outcomes,
    bootstrap_diff_ci,
    bootstrap_mean_ci,
    bootstrap_pearson_ci,
    bootstrap_tost,
    calibration_offsets,
    cluster_bootstrap_diff_ci,
    cluster_bootstrap_mean_ci,
    cohen_kappa,
    fit_calibration,
    icc2,
    kendall_tau_b,
    krippendorff_alpha_interval,
    mae,
    normal_mean_ci,
    paired_bootstrap_ci,
    paired_system_comparisons,
    pearson,
    single_expert_outcomes,
    spearman,
)

B = 40  # resamples: the properties do not depend on B
MISSING = st.sampled_from([None, float("nan"), np.nan, np.float64("nan")])
# scores on the 0-100 raw scale in steps of 0.5 (many ties), some missing
SCORE = st.one_of(st.integers(0, 200).map(lambda k: k / 2), MISSING)
SCORES = st.lists(SCORE, min_size=0, max_size=12)
SETTINGS = settings(max_examples=60, deadline=None)


def _finite(values: list[Any]) -> list[float]:
    return [float(v) for v in values if v is not None and not math.isnan(v)]


def _no_nan(obj: Any) -> bool:
    if isinstance(obj, float):
        return not math.isnan(obj)
    if isinstance(obj, tuple | list):
        return all(_no_nan(x) for x in obj)
    if isinstance(obj, dict):
        return all(_no_nan(x) for x in obj.values())
    return True


def _check_interval(ci: Any, kept: list[float], n_missing: int) -> None:
    assert _no_nan(tuple(ci))
    assert ci.estimate == pytest.approx(float(np.mean(kept)))
    assert (ci.n, ci.n_missing) == (len(kept), n_missing)
    if len(kept) < 2:
        assert ci.low is None and ci.high is None
    else:
        assert min(kept) - 1e-9 <= ci.low <= ci.high <= max(kept) + 1e-9


@SETTINGS
@given(SCORES, st.integers(0, 2**16))
def test_bootstrap_mean_ci(values: list[Any], seed: int) -> None:
    kept = _finite(values)
    if not kept:
        with pytest.raises(ValueError, match="no values"):
            bootstrap_mean_ci(values, n_resamples=B, seed=seed)
        return
    ci = bootstrap_mean_ci(values, n_resamples=B, seed=seed)
    _check_interval(ci, kept, len(values) - len(kept))
    assert ci[:3] == bootstrap_mean_ci(kept, n_resamples=B, seed=seed)[:3]
    if len(set(kept)) == 1 and len(kept) >= 2:  # all equal: a zero-width interval at the value
        assert ci.low == ci.high == kept[0]


@SETTINGS
@given(SCORES)
def test_normal_mean_ci_bounded(values: list[Any]) -> None:
    kept = _finite(values)
    if not kept:
        with pytest.raises(ValueError):
            normal_mean_ci(values, bounds=(0.0, 100.0))
        return
    ci = normal_mean_ci(values, bounds=(0.0, 100.0))
    assert _no_nan(tuple(ci)) and (ci.n, ci.n_missing) == (len(kept), len(values) - len(kept))
    if len(kept) < 2:
        assert ci.low is None and ci.high is None
    else:
        assert ci.low is not None and ci.high is not None
        assert 0.0 <= ci.low <= ci.estimate <= ci.high <= 100.0


@SETTINGS
@given(SCORES, SCORES, st.integers(0, 2**16))
def test_two_sample_intervals(a: list[Any], b: list[Any], seed: int) -> None:
    ka, kb = _finite(a), _finite(b)
    for call in (
        lambda x, y: bootstrap_diff_ci(x, y, n_resamples=B, seed=seed),
        lambda x, y: cluster_bootstrap_diff_ci(
            x, [f"c{i % 3}" for i in range(len(x))], y, [f"d{i % 2}" for i in range(len(y))], n_resamples=B, seed=seed
        ),
    ):
        if not ka or not kb:
            with pytest.raises(ValueError):
                call(a, b)
            continue
        ci = call(a, b)
        assert _no_nan(tuple(ci))
        assert ci.estimate == pytest.approx(np.mean(ka) - np.mean(kb))
        assert ci.n_missing == len(a) + len(b) - len(ka) - len(kb)
        if ci.low is not None:
            assert ci.high is not None and min(ka) - max(kb) - 1e-9 <= ci.low <= ci.high <= max(ka) - min(kb) + 1e-9
    if ka and kb:
        t = bootstrap_tost(a, b, margin=5.0, n_resamples=B, seed=seed)
        assert _no_nan(tuple(t)) and (t.equivalent is False if t.low is None else True)


@SETTINGS
@given(SCORES, st.integers(0, 2**16))
def test_cluster_mean_ci_drops_labels_with_values(values: list[Any], seed: int) -> None:
    labels = [f"p{i % 4}" for i in range(len(values))]
    kept = _finite(values)
    if not kept:
        with pytest.raises(ValueError):
            cluster_bootstrap_mean_ci(values, labels, n_resamples=B, seed=seed)
        return
    ci = cluster_bootstrap_mean_ci(values, labels, n_resamples=B, seed=seed)
    kept_labels = [lab for lab, v in zip(labels, values, strict=True) if v is not None and not math.isnan(v)]
    assert ci[:3] == cluster_bootstrap_mean_ci(kept, kept_labels, n_resamples=B, seed=seed)[:3]
    assert _no_nan(tuple(ci)) and ((ci.low is None) == (len(set(kept_labels)) < 2))


PAIRS = st.lists(st.tuples(SCORE, SCORE), min_size=0, max_size=12)


@SETTINGS
@given(PAIRS)
def test_correlations_and_mae_use_complete_pairs_only(pairs: list[tuple[Any, Any]]) -> None:
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    complete = [(x, y) for x, y in pairs if _finite([x]) and _finite([y])]
    ca, cb = [float(x) for x, _ in complete], [float(y) for _, y in complete]
    for fn in (pearson, spearman, kendall_tau_b):
        r = fn(a, b)
        assert r == fn(ca, cb)
        assert r is None or (-1.0 - 1e-9 <= r <= 1.0 + 1e-9)
        if len(complete) < 3 or len(set(ca)) == 1 or len(set(cb)) == 1:
            assert r is None
    m = mae(a, b)
    assert (m is None) == (not complete) and (m is None or m >= 0)
    r, low, high = bootstrap_pearson_ci(a, b, n_resamples=B)
    assert _no_nan((r, low, high)) and (r is None or r == pearson(ca, cb))


@SETTINGS
@given(st.lists(st.tuples(st.one_of(st.booleans(), MISSING), st.one_of(st.booleans(), MISSING)), max_size=12))
def test_cohen_kappa(pairs: list[tuple[Any, Any]]) -> None:
    a, b = [p[0] for p in pairs], [p[1] for p in pairs]
    complete = [(x, y) for x, y in pairs if isinstance(x, bool) and isinstance(y, bool)]
    k = cohen_kappa(a, b)
    assert k == cohen_kappa([x for x, _ in complete], [y for _, y in complete]) if complete else k is None
    assert k is None or (-1.0 - 1e-9 <= k <= 1.0 + 1e-9)


@SETTINGS
@given(st.lists(st.lists(SCORE, min_size=0, max_size=4), max_size=8))
def test_krippendorff_alpha(units: list[list[Any]]) -> None:
    alpha = krippendorff_alpha_interval(units)
    assert alpha is None or (math.isfinite(alpha) and alpha <= 1.0 + 1e-9)
    assert alpha == krippendorff_alpha_interval([_finite(u) for u in units])


@SETTINGS
@given(st.integers(0, 4), st.integers(0, 4), st.lists(st.integers(0, 20), min_size=16, max_size=16), st.booleans())
def test_icc(n: int, k: int, flat: list[int], hole: bool) -> None:
    matrix: list[list[Any]] = [[float(flat[(i * 4 + j) % 16]) for j in range(k)] for i in range(n)]
    if hole and n and k:
        matrix[0][0] = float("nan")
    if n < 2 or k < 2 or hole:
        with pytest.raises(ValueError):
            icc2(matrix)
        return
    res = icc2(matrix)
    assert _no_nan((res.icc_2_1, res.icc_2_k))


JUDGE = st.one_of(st.integers(0, 100).map(float), MISSING)


@SETTINGS
@given(st.lists(JUDGE, min_size=6, max_size=6), st.lists(st.integers(0, 10), min_size=18, max_size=18))
def test_alt_test_never_scores_a_missing_judge(judge_vals: list[Any], offsets: list[int]) -> None:
    judge = {f"i{i}": v for i, v in enumerate(judge_vals)}
    reviews = [(f"i{i}", g, 40.0 + 10 * j + offsets[3 * i + j]) for i in range(6) for j, g in enumerate("ABC")]
    outcomes, n = blind_pool_outcomes(judge, reviews)
    present = {k: float(v) for k, v in judge.items() if _finite([v])}
    assert (outcomes, n) == blind_pool_outcomes(present, reviews)
    res = alt_test(outcomes, n_instances_total=n)
    if n < 5:  # no annotator reaches 5 instances: no verdict
        assert res.omega is None and res.passes is False
    else:
        assert res.omega is not None and 0 <= res.omega <= 1 and res.passes == (res.omega >= 0.5)
    assert all(_no_nan((r.p_value, r.rho_f)) for r in res.per_annotator)
    expert = {f"i{i}": 50.0 for i in range(6)}
    assert single_expert_outcomes(judge, reviews, expert) == single_expert_outcomes(present, reviews, expert)


@SETTINGS
@given(st.lists(st.tuples(SCORE, SCORE, SCORE), min_size=0, max_size=8), st.integers(0, 2**16))
def test_paired_system_comparisons(rows: list[tuple[Any, Any, Any]], seed: int) -> None:
    scores = {s: {f"t{i}": r[k] for i, r in enumerate(rows)} for k, s in enumerate("XYZ")}
    out = paired_system_comparisons(scores, n_resamples=B, seed=seed)
    for row in out:
        assert _no_nan(tuple(row)) and row.n >= 2 and 0 <= row.p_value <= 1
        kept = [t for t in scores[row.a] if _finite([scores[row.a][t]]) and _finite([scores[row.b][t]])]
        assert (row.n, row.n_missing) == (len(kept), len(rows) - len(kept))


@SETTINGS
@given(st.lists(st.tuples(SCORE, SCORE, SCORE), min_size=0, max_size=8))
def test_calibration(rows: list[tuple[Any, Any, Any]]) -> None:
    j, f, s = ([r[k] for r in rows] for k in range(3))
    complete = [r for r in rows if all(_finite([v]) for v in r)]
    if len(complete) < 3:
        with pytest.raises(ValueError):
            calibration_offsets(j, f, s)
    else:
        out = calibration_offsets(j, f, s)
        assert _no_nan(out) and (out["n"], out["n_missing"]) == (len(complete), len(rows) - len(complete))
    anchors = [(r[0], r[1]) for r in rows if _finite([r[0]]) and _finite([r[1]])]
    if anchors:
        assert _no_nan(tuple(fit_calibration(j, f)))
    else:
        with pytest.raises(ValueError):
            fit_calibration(j, f)


@pytest.mark.parametrize(
    "call",
    [
        lambda v: bootstrap_mean_ci(v),
        lambda v: normal_mean_ci(v),
        lambda v: bootstrap_diff_ci(v, [1.0, 2.0]),
        lambda v: paired_bootstrap_ci(v, [1.0, 2.0, 3.0]),
        lambda v: pearson(v, [1.0, 2.0, 3.0]),
        lambda v: mae(v, [1.0, 2.0, 3.0]),
        lambda v: krippendorff_alpha_interval([v]),
        lambda v: icc2([v, [1.0, 2.0, 3.0]]),
        lambda v: calibration_offsets(v, [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]),
        lambda v: paired_system_comparisons({"a": {str(i): x for i, x in enumerate(v)}, "b": {"0": 1.0, "1": 2.0}}),
    ],
)
@pytest.mark.parametrize("bad", [math.inf, -math.inf, np.inf])
def test_infinity_is_an_input_error_everywhere(call: Any, bad: float) -> None:
    with pytest.raises(ValueError, match="infinite"):
        call([1.0, bad, 3.0])


def test_bootstrap_pearson_drops_resamples_with_a_constant_side() -> None:
    # x = 0.1 three times and 0.2 once: a resample of only the 0.1s has a float-residue spread after centring
    # (mean of 0.1s is not exactly 0.1); it must be dropped as undefined, never counted as r = +-1
    x = [0.1, 0.1, 0.1, 0.2]
    y = [1.0, 2.0, 3.0, 4.0]
    r, low, high = bootstrap_pearson_ci(x, y, n_resamples=400, seed=1)
    assert r == pytest.approx(0.774597, abs=1e-6)  # sxy = 0.15, sxx = 0.0075, syy = 5: 0.15 / sqrt(0.0375)
    assert low is not None and high is not None and -1.0 <= low <= high <= 1.0


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_calibration_building_blocks_reject_non_finite(bad: float) -> None:
    from benger.stats import apply_calibration, fit_calibration_batch

    with pytest.raises(ValueError, match="finite"):
        apply_calibration("scalar", np.asarray([50.0, bad]), 1.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="finite"):
        fit_calibration_batch(np.asarray([1.0, bad]), np.asarray([1.0, 2.0]), np.ones((1, 2)))


@SETTINGS
@given(st.floats(0, 100), st.floats(0, 60), st.integers(0, 50))
def test_normal_ci_from_summary(mean: float, sd: float, n: int) -> None:
    from benger.stats import normal_ci_from_summary

    ci = normal_ci_from_summary(mean, sd, n, bounds=(0.0, 100.0))
    assert ci.estimate == mean and _no_nan(tuple(ci))
    if n < 2:
        assert ci.low is None and ci.high is None
    else:
        assert ci.low is not None and ci.high is not None
        assert 0.0 <= ci.low <= mean <= ci.high <= 100.0


@SETTINGS
@given(st.lists(st.text(max_size=5), min_size=1, max_size=3), st.integers(-5, 2**40))
def test_named_rng_is_a_function_of_seed_and_names(names: list[str], seed: int) -> None:
    from benger.stats import named_rng

    a = named_rng(seed, *names).integers(0, 10**9, 4)
    b = named_rng(seed, *names).integers(0, 10**9, 4)
    assert (a == b).all()
    assert not (named_rng(seed, *names, "other").integers(0, 10**9, 4) == a).all()


@SETTINGS
@given(st.lists(st.one_of(st.floats(0, 1), st.sampled_from([0.0, 1.0, 0.01, 0.05, 0.0039, 0.0098])), max_size=9))
def test_multiple_testing_equals_statsmodels(p_values: list[float]) -> None:
    from statsmodels.stats.multitest import multipletests

    from benger.stats._multitest import by_reject, holm

    if not p_values:
        assert by_reject(p_values, 0.05).size == 0
        return
    assert (by_reject(p_values, 0.05) == multipletests(p_values, alpha=0.05, method="fdr_by")[0]).all()
    reject, adjusted = holm(p_values, 0.05)
    ref_reject, ref_adjusted, _, _ = multipletests(p_values, alpha=0.05, method="holm")
    assert (reject == ref_reject).all() and np.allclose(adjusted, ref_adjusted, rtol=0, atol=1e-12)
