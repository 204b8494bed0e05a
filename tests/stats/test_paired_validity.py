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


def _spy_groups(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Record the shape (tasks, pairs) of every group whose draws ``paired_system_comparisons`` makes."""
    from benger.stats import _compare

    shapes: list[tuple[int, int]] = []
    real = _compare._shared_draws

    def spy(diffs: np.ndarray, *args: object) -> object:
        shapes.append(diffs.shape)
        return real(diffs, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(_compare, "_shared_draws", spy)
    return shapes


def test_pairs_on_the_same_tasks_take_their_p_from_the_same_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    """Common random numbers: A - B and C - D are the same 30 differences, so the shared sign patterns and
    resamples give them the same p and CI; both equal a study of A and B alone (the group's draws are those of
    its first pair). With draws of their own the two Monte-Carlo p would differ (B = 499: a p step is 1/500)."""
    rng = np.random.default_rng(5)
    x, y, d = rng.normal(60, 10, 30), rng.normal(50, 10, 30), rng.normal(0.8, 3, 30)
    systems = {"A": x + d, "B": x, "C": y + d, "D": y}
    scores = {s: {f"t{i:02d}": float(v) for i, v in enumerate(vals)} for s, vals in systems.items()}
    shapes = _spy_groups(monkeypatch)
    rows = {(r.a, r.b): r for r in paired_system_comparisons(scores, n_resamples=499, seed=3)}
    assert shapes == [(30, 6)]  # one group: all six pairs keep all 30 tasks
    ab, cd = rows["A", "B"], rows["C", "D"]
    (alone,) = paired_system_comparisons({"A": scores["A"], "B": scores["B"]}, n_resamples=499, seed=3)
    for row in (cd, alone):
        assert (row.p_value, row.test) == (ab.p_value, "monte carlo (B = 499)")
        assert (row.delta, row.low, row.high) == pytest.approx((ab.delta, ab.low, ab.high), rel=1e-12, abs=1e-12)
    assert 1 / 500 < ab.p_value < 1  # a Monte-Carlo p strictly inside: a coincidence of two streams is unlikely


def test_pairs_with_different_missing_tasks_form_different_groups(monkeypatch: pytest.MonkeyPatch) -> None:
    """C lacks task t00 and D scores it None: (A, B) keeps 20 tasks, (A, C) and (B, C) the 19 without t00 (and so
    do the pairs with D, the same 19 tasks: one group), (C, D) 19 too. Groups in the order of their first pair."""
    rng = np.random.default_rng(6)
    tasks = [f"t{i:02d}" for i in range(20)]
    scores: dict[str, dict[str, float | None]] = {}
    for s in "ABCD":
        scores[s] = {t: float(v) for t, v in zip(tasks, rng.normal(60, 10, 20), strict=True)}
    del scores["C"]["t00"]
    scores["D"]["t00"] = None
    shapes = _spy_groups(monkeypatch)
    rows = paired_system_comparisons(scores, n_resamples=200, seed=1)
    assert shapes == [(20, 1), (19, 5)]
    assert [(r.a, r.b, r.n, r.n_missing) for r in rows] == [
        ("A", "B", 20, 0), ("A", "C", 19, 0), ("A", "D", 19, 1),
        ("B", "C", 19, 0), ("B", "D", 19, 1), ("C", "D", 19, 0),
    ]  # fmt: skip
