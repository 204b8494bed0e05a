"""The paper's raw -> grade-point table at every boundary, with half points rounding up."""

from __future__ import annotations

import pytest

from benger.judge import grade_points, passed

# The table transcribed from the judge prompt (paper appendix): (lowest raw, highest raw) per grade point.
TABLE = [
    (0, 12), (13, 25), (26, 38), (39, 49), (50, 53), (54, 56), (57, 59), (60, 63), (64, 66), (67, 69),
    (70, 73), (74, 76), (77, 79), (80, 83), (84, 86), (87, 89), (90, 93), (94, 96), (97, 100),
]  # fmt: skip


@pytest.mark.parametrize(("points", "bounds"), list(enumerate(TABLE)))
def test_every_boundary(points: int, bounds: tuple[int, int]) -> None:
    low, high = bounds
    assert grade_points(low) == points
    assert grade_points(high) == points
    if low > 0:
        # low - 0.5 rounds half up to low: still this grade; low - 1 belongs to the grade below
        assert grade_points(low - 0.5) == points
        assert grade_points(low - 1) == points - 1
    if high < 100:
        # high + 0.5 rounds up into the next grade; high + 0.49 stays
        assert grade_points(high + 0.5) == points + 1
        assert grade_points(high + 0.49) == points


def test_pass_threshold_half_up() -> None:
    assert grade_points(49.5) == 4 and passed(49.5)
    assert grade_points(49.49) == 3 and not passed(49.49)
    assert grade_points(12.5) == 1


@pytest.mark.parametrize("bad", [-0.5, 100.5, float("nan")])
def test_out_of_range_raises(bad: float) -> None:
    with pytest.raises(ValueError):
        grade_points(bad)
