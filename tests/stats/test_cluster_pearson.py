"""``bootstrap_pearson_ci(..., clusters=)``: the cluster bootstrap of a correlation (issue 24 item 2, RQ3).

Each case has hand-checkable behaviour; the exact distribution over every resample of a tiny set is in
tests/analysis/test_rq34_task_unit.py."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.stats import bootstrap_pearson_ci, cluster_bootstrap_mean_ci
from benger.stats._intervals import resample_cluster_sums

X = [10.0, 20.0, 35.0, 40.0, 55.0, 70.0]
Y = [30.0, 28.0, 50.0, 45.0, 60.0, 58.0]


def test_one_pair_per_cluster_is_the_pairs_bootstrap() -> None:
    """Labels in sorted order map pair k to cluster k: the same resample indices, the same interval."""
    assert bootstrap_pearson_ci(X, Y, clusters=list("abcdef"), seed=1) == pytest.approx(
        bootstrap_pearson_ci(X, Y, seed=1), abs=1e-12
    )


@pytest.mark.parametrize(
    ("clusters", "why"),
    [(["a"] * 6, "one cluster"), ([None] * 6, "one cluster (None labels are one label)")],
)
def test_fewer_than_two_clusters_give_no_interval(clusters: list[str], why: str) -> None:
    r, low, high = bootstrap_pearson_ci(X, Y, clusters=clusters)
    assert r == pytest.approx(float(np.corrcoef(X, Y)[0, 1])) and (low, high) == (None, None), why


def test_missing_pairs_drop_their_labels_and_unequal_lengths_are_refused() -> None:
    with_gap = bootstrap_pearson_ci([*X, None], [*Y, 1.0], clusters=[*"abcdef", "z"], seed=2)
    assert with_gap == pytest.approx(bootstrap_pearson_ci(X, Y, clusters=list("abcdef"), seed=2), abs=1e-12)
    with pytest.raises(ValueError, match="6 pairs but 5 cluster labels"):
        bootstrap_pearson_ci(X, Y, clusters=list("abcde"))


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(0, 2**16))
def test_repeating_every_cluster_leaves_the_interval_unchanged(copies: int, seed: int) -> None:
    """Each pair repeated ``copies`` times inside its cluster scales every sum alike: r of each resample is
    unchanged, so the interval is the one of the distinct pairs (per-pair resampling would shrink it)."""
    labels = [f"t{i}" for i in range(len(X))]
    base = bootstrap_pearson_ci(X, Y, clusters=labels, n_resamples=300, seed=seed)
    xs, ys = [v for v in X for _ in range(copies)], [v for v in Y for _ in range(copies)]
    repeated = bootstrap_pearson_ci(xs, ys, clusters=[t for t in labels for _ in range(copies)], n_resamples=300,
                                    seed=seed)  # fmt: skip
    assert repeated == pytest.approx(base, abs=1e-9)


def test_cluster_sums_are_the_drawn_clusters_sums() -> None:
    """By hand: clusters a = {1, 2}, b = {10}; the drawn indices say which clusters each resample holds."""
    rng, check = np.random.default_rng(3), np.random.default_rng(3)
    ((totals, counts),) = list(resample_cluster_sums([np.array([1.0, 2.0, 10.0]), np.ones(3)], ["a", "a", "b"], 4, rng))
    drawn = check.integers(0, 2, size=(4, 2))
    assert totals.tolist() == [sum((3.0, 10.0)[k] for k in row) for row in drawn]
    assert counts.tolist() == [sum((2.0, 1.0)[k] for k in row) for row in drawn]
    # the pooled-mean cluster bootstrap is built on the same sums (numbers unchanged by the refactor)
    assert cluster_bootstrap_mean_ci([1.0, 2.0, 10.0], ["a", "a", "b"], n_resamples=4, seed=3).low == pytest.approx(
        float(np.percentile(totals / counts, 2.5))
    )
