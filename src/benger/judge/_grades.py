"""The German 0-18 grade-point scale and the pass rule used by the BenGER rubric.

Raw scores (0-100) map to grade points by the table in the judge prompt; half points round up
(49.5 -> 4, 12.5 -> 1). A solution passes with at least 4 grade points ("ausreichend"), i.e. raw >= 49.5.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# Inclusive upper raw bound of each grade point 0..18.
GRADE_UPPER_BOUNDS: tuple[int, ...] = (12, 25, 38, 49, 53, 56, 59, 63, 66, 69, 73, 76, 79, 83, 86, 89, 93, 96, 100)
PASS_GRADE_POINTS = 4
MAX_RAW = 100.0


def grade_points(raw: float, bounds: Sequence[float] = GRADE_UPPER_BOUNDS) -> int:
    """Grade points for a raw score in ``[0, bounds[-1]]``; half points round up.

    ``bounds``: the inclusive upper raw bound of each grade 0, 1, ... (default: the paper's 0-18 table on
    0-100 raw points; a rubric's own ``grades`` list otherwise). ValueError outside the range."""
    top = float(bounds[-1])
    if not math.isfinite(raw) or raw < 0 or raw > top:
        raise ValueError(f"raw score must lie in [0, {top:g}], got {raw!r}")
    rounded = math.floor(raw + 0.5)
    for points, upper in enumerate(bounds):
        if rounded <= upper:
            return points
    return len(bounds) - 1  # a fractional last bound (e.g. 30.5) below the rounded maximum


def passed(raw: float) -> bool:
    """Whether a raw score passes (grade points >= 4)."""
    return grade_points(raw) >= PASS_GRADE_POINTS


def grade_points_linear(delta_raw: float) -> float:
    """A raw-score difference expressed in grade points by the linear rule delta * 18 / 100."""
    return delta_raw * 18.0 / 100.0
