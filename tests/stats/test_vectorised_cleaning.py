"""The vectorised paths of the statistics stack give the numbers of the per-value code they replace (issue 26).

``to_float_array`` converts a list in one numpy call (None and NaN become NaN there) instead of testing every
value in Python; ``paired_system_comparisons`` masks missing tasks on arrays and applies the draws it shares
between pairs as matrix products; ``sign_flip_p`` builds its float signs in one reused buffer. Each is compared
with the per-value formulation, written out here, on random inputs.
"""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.stats import paired_system_comparisons
from benger.stats._clean import is_missing, to_float_array
from benger.stats._compare import sign_flip_p
from benger.stats._intervals import CHUNK_ELEMENTS, _percentiles

VALUE = st.one_of(
    st.none(),
    st.just(math.nan),
    st.just(np.nan),
    st.floats(min_value=-1e6, max_value=1e6, allow_nan=False),
    st.integers(min_value=-1000, max_value=1000),
    st.booleans(),
    st.just(np.float32("nan")),
    st.floats(min_value=0, max_value=100).map(np.float64),
)


def per_value(values: list[object]) -> np.ndarray:
    """The per-value conversion the fast path replaces."""
    return np.asarray([math.nan if is_missing(v) else v for v in values], dtype=float)


@settings(max_examples=300, deadline=None)
@given(st.lists(VALUE, max_size=40), st.booleans())
def test_list_conversion_equals_the_per_value_rule(values: list[object], as_tuple: bool) -> None:
    got = to_float_array(tuple(values) if as_tuple else values)
    np.testing.assert_array_equal(got, per_value(values))  # NaN positions equal too
    assert got.dtype == np.float64 and got.ndim == 1


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (["x", 1.0], "expected numbers"),
        ([1.0, {"a": 1}], "expected numbers"),
        ([1.0, [2.0, 3.0]], "expected numbers"),
        ([[1.0, 2.0]], "one-dimensional"),
        ([1.0, math.inf, None], "1 infinite value"),
    ],
)
def test_refused_lists_keep_their_message(values: list[object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        to_float_array(values, "scores")


def test_a_view_that_is_not_a_list_still_converts() -> None:
    scores = {"a": 1.0, "b": None, "c": 3.5}
    np.testing.assert_array_equal(to_float_array(scores.values()), [1.0, math.nan, 3.5])  # type: ignore[arg-type]


def reference_sign_flip(diff: np.ndarray, n_resamples: int, rng: np.random.Generator) -> float:
    """The integer-sign formulation: ``1 - 2 * integers(0, 2)`` times the differences."""
    n = int(diff.size)
    observed = abs(float(diff.mean()))
    reach = observed - 1e-9 * max(1.0, observed)
    rows = max(1, CHUNK_ELEMENTS // n)
    extreme = 0
    for start in range(0, n_resamples, rows):
        signs = 1 - 2 * rng.integers(0, 2, size=(min(rows, n_resamples - start), n))
        extreme += int(np.count_nonzero(np.abs(signs @ diff) / n >= reach))
    return (1 + extreme) / (n_resamples + 1)


@settings(max_examples=25, deadline=None)
@given(
    st.integers(min_value=13, max_value=3000),
    st.integers(min_value=1, max_value=700),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.floats(min_value=-0.05, max_value=0.05),
)
def test_sign_flip_p_equals_the_integer_sign_formulation(n: int, resamples: int, seed: int, shift: float) -> None:
    diff = np.random.default_rng(seed).normal(scale=0.2, size=n) + shift
    ours, theirs = np.random.default_rng(seed + 1), np.random.default_rng(seed + 1)
    p, test = sign_flip_p(diff, resamples, ours)
    assert p == reference_sign_flip(diff, resamples, theirs)
    assert test == f"monte carlo (B = {resamples})"
    assert ours.integers(0, 2**62) == theirs.integers(0, 2**62)  # the generator is left where it was


def reference_pairs(scores: dict[str, dict[str, float | None]], n_resamples: int, seed: int) -> list[tuple]:
    """Common random numbers written out per pair (before the Holm step): kept tasks, delta, CI, p, dropped.

    The pairs are grouped by their kept tasks (groups in the order of their first pair); per group, from one
    stream, one ``(B, n)`` resample index matrix and then (n > 12) one ``(B, n)`` sign-bit matrix; every pair of
    the group gathers its own differences with those same draws."""
    rng = np.random.default_rng(seed)
    pairs = []
    for a, b in combinations(sorted(scores), 2):
        shared = sorted(set(scores[a]) & set(scores[b]))
        kept = tuple(t for t in shared if not is_missing(scores[a][t]) and not is_missing(scores[b][t]))
        if len(kept) >= 2:
            pairs.append((a, b, kept, len(shared) - len(kept)))
    groups: dict[tuple, list] = {}
    for pair in pairs:
        groups.setdefault(pair[2], []).append(pair)
    out = {}
    for kept, members in groups.items():
        n = len(kept)
        idx = rng.integers(0, n, size=(n_resamples, n))
        signs = 1 - 2 * rng.integers(0, 2, size=(n_resamples, n)) if n > 12 else None
        for a, b, _, dropped in members:
            diff = np.asarray([scores[a][t] for t in kept], float) - np.asarray([scores[b][t] for t in kept], float)
            low, high = _percentiles(diff[idx].mean(axis=1), 0.95)
            if signs is None:
                p = sign_flip_p(diff, n_resamples, rng)[0]  # exact: draws nothing
            else:
                observed = abs(float(diff.mean()))
                reach = observed - 1e-9 * max(1.0, observed)
                p = (1 + int(np.count_nonzero(np.abs(signs @ diff) / n >= reach))) / (n_resamples + 1)
            out[a, b] = (a, b, n, float(diff.mean()), low, high, p, dropped)
    return [out[a, b] for a, b, _, _ in pairs]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=2, max_value=4),
    st.lists(st.one_of(st.none(), st.just(math.nan), st.floats(min_value=0, max_value=100)), min_size=60, max_size=60),
    st.integers(min_value=0, max_value=1000),
)
def test_pairs_with_missing_tasks_equal_shared_draws_per_pair(
    systems: int, cells: list[float | None], seed: int
) -> None:
    tasks = [f"t{i:02d}" for i in range(20)]
    scores = {
        f"s{s}": {t: cells[(s * 20 + i) % len(cells)] for i, t in enumerate(tasks) if (s + i) % 7 != 0}
        for s in range(systems)
    }
    got = paired_system_comparisons(scores, n_resamples=150, seed=seed)
    want = reference_pairs(scores, 150, seed)
    assert [(r.a, r.b, r.n, r.n_missing) for r in got] == [(w[0], w[1], w[2], w[7]) for w in want]
    # the matrix products sum in another order than the per-pair gathers: equal to rounding
    numbers = np.array([(r.delta, r.low, r.high, r.p_value) for r in got]).reshape(-1, 4)
    np.testing.assert_allclose(numbers, np.array([w[3:7] for w in want]).reshape(-1, 4), rtol=1e-12, atol=1e-12)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.just(-0.0), st.just(0.0)),
        min_size=0,
        max_size=3,
    )
)
def test_heatmap_cell_mean_is_numpys_mean(values: list[float]) -> None:
    from benger.analysis._rq12 import _cell_mean

    got = _cell_mean(values)
    if not values:
        assert got is None
        return
    want = float(np.mean(values))
    assert got is not None and (got == want or (math.isnan(got) and math.isnan(want)))
    assert math.copysign(1.0, got) == math.copysign(1.0, want)
