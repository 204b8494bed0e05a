"""Appendix A's grade-point and pass cells resample with their row's raw cell's draws (``joint_cis``, issue 26:
one B x n draw per row instead of three): the raw cell's numbers are ``bootstrap_mean_ci``'s on its own named
generator, bit for bit, as before; the other columns' resample means come from the same resampled rows
(hand-computed cases, and hypothesis over random columns against the one-matrix bootstrap)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.analysis.test_study_data import _synthetic

from benger.analysis import _appendix_a as appendix
from benger.judge import grade_points, passed
from benger.stats import bootstrap_mean_ci, named_rng

_VALUES = st.lists(st.sampled_from([0.0, 12.5, 39.5, 50.0, 64.0, 100.0]) | st.floats(0, 100), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(raws=_VALUES, seed=st.integers(0, 2**32 - 1), n_boot=st.integers(1, 300))
def test_joint_columns_share_the_first_columns_draws(raws: list[float], seed: int, n_boot: int) -> None:
    raw = np.asarray(raws)
    halves = raw * 0.5  # exact: every resample mean and both ends halve exactly
    other = np.asarray([float(grade_points(x)) for x in raws])
    found = appendix.joint_cis([raw, halves, other], n_boot, named_rng(seed, "x"))
    alone = bootstrap_mean_ci(raw, n_resamples=n_boot, seed=named_rng(seed, "x"))
    assert repr(found[0]) == repr(alone)  # the raw cell as before, to the bit
    if raw.size == 1:
        assert all(ci.low is None and ci.high is None and ci.n == 1 for ci in found)
        return
    assert (found[1].low, found[1].high) == (alone.low * 0.5, alone.high * 0.5)  # type: ignore[operator]
    idx = named_rng(seed, "x").integers(0, raw.size, (n_boot, raw.size))  # the one-matrix draw
    means = other[idx].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    assert np.isclose(found[2].low, low, rtol=1e-12, atol=1e-12)
    assert np.isclose(found[2].high, high, rtol=1e-12, atol=1e-12)
    assert found[2].estimate == float(other.mean()) and found[2].n == raw.size


def test_joint_by_hand() -> None:
    """Raw 0 and 100 (pass 0 and 1): a resample's mean is 0, 50 or 100 (pass 0, 0.5, 1) with probability 1/4,
    1/2, 1/4, both columns from the same rows, so B = 2000 resamples put the 2.5 and 97.5 percentiles at the ends
    (every resample mean of pass is its raw mean / 100)."""
    raw, rate = np.asarray([0.0, 100.0]), np.asarray([0.0, 1.0])
    found = appendix.joint_cis([raw, rate], 2000, named_rng(1, "hand"))
    assert (found[0].estimate, found[0].low, found[0].high) == (50.0, 0.0, 100.0)
    assert (found[1].estimate, found[1].low, found[1].high) == (0.5, 0.0, 1.0)


def test_appendix_a_raw_cells_unchanged_and_pass_cells_joint() -> None:
    data = _synthetic()
    table2 = appendix.appendix_a(data, seed=3, n_boot=400)["table2"]
    systems = [r for r in table2 if r["kind"] == "system"]
    assert systems
    for row in systems:
        raws = [g.raw for g in data.final_generations() if g.system == row["row"]]
        alone = bootstrap_mean_ci(raws, n_resamples=400, seed=named_rng(3, "appendix_a", row["row"], "raw"))
        assert (row["raw"]["mean"], row["raw"]["low"], row["raw"]["high"]) == (alone.estimate, alone.low, alone.high)
        rates = np.asarray([float(passed(x)) for x in raws])
        joint = appendix.joint_cis([np.asarray(raws), rates], 400, named_rng(3, "appendix_a", row["row"], "raw"))
        assert (row["pass_rate"]["low"], row["pass_rate"]["high"]) == (joint[1].low, joint[1].high)
