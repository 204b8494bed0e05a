"""bca_mean_cis (the leaderboard's BCa rows drawn once per size) equals one bca_mean_ci per sample, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.stats import bca_mean_ci, bca_mean_cis

_RNG = np.random.default_rng(5)
CASES = [
    # two of size 40 share their draws, one of size 9 stands alone
    [_RNG.integers(0, 101, 40).astype(float), _RNG.uniform(0, 100, 40), _RNG.integers(0, 19, 9).astype(float)],
    [np.full(12, 55.0), _RNG.uniform(0, 100, 12)],  # a constant sample: the percentile ends
    [np.array([0.0, 100.0]), np.array([3.0, 4.0, 100.0])],  # the smallest sizes, a skewed one
    [_RNG.exponential(10.0, 600)],
]


@pytest.mark.parametrize("samples", CASES, ids=["shared", "constant", "small", "600"])
def test_bca_batch_equals_one_call_per_sample(samples: list[np.ndarray]) -> None:
    expected = [bca_mean_ci(s, n_resamples=300, seed=7) for s in samples]
    assert bca_mean_cis(samples, n_resamples=300, seed=7) == expected


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.lists(st.floats(0, 100, allow_nan=False), min_size=2, max_size=6).map(np.array), min_size=1, max_size=5
    ),
    st.integers(0, 2**31),
)
def test_bca_batch_equals_one_call_per_sample_for_any_samples(samples: list[np.ndarray], seed: int) -> None:
    assert bca_mean_cis(samples, n_resamples=50, seed=seed) == [
        bca_mean_ci(s, n_resamples=50, seed=seed) for s in samples
    ]


def test_bca_batch_refuses_a_sample_of_one() -> None:
    with pytest.raises(ValueError, match="sample 1 has 1 value"):
        bca_mean_cis([np.array([1.0, 2.0]), np.array([3.0])])
