"""The consistency rules of a rubric, run by the model's validator (``Rubric`` in ``_rubric``): one place.

Each rule raises :class:`RubricProblem` with the path of the faulty field (``dimensions[3].bands[1].low``); the
loaders turn it into an :class:`~benger.errors.InputError` naming the file and that field.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any

from benger.judge._grades import GRADE_UPPER_BOUNDS

if TYPE_CHECKING:
    from benger.judge._rubric import Dimension, Rubric

#: A graded rubric's total: the grade-point table maps 0-100 raw points to 0-18 grade points.
GRADED_TOTAL = float(GRADE_UPPER_BOUNDS[-1])


class RubricProblem(ValueError):
    """A rubric that is well-formed YAML but inconsistent; ``field`` is the path of the faulty field."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def number(value: Any) -> Any:
    """A rubric's numbers are numbers: ``true`` (a YAML bool) or ``"5"`` (text) is refused, not read as 1 or 5."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"expected a number, got {type(value).__name__} {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"expected a finite number, got {value!r}")
    return value


def dimension_key(value: Any) -> Any:
    """A dimension key is non-empty text without surrounding blanks (the judge's reply names it)."""
    if isinstance(value, str) and (not value.strip() or value != value.strip()):
        raise ValueError(f"a dimension key must be non-empty text without surrounding blanks, got {value!r}")
    return value


def _on_grid(value: float, step: float) -> bool:
    ratio = value / step
    return abs(ratio - round(ratio)) < 1e-9


def check_rubric(rubric: Rubric) -> None:
    """Raise :class:`RubricProblem` unless the rubric is consistent (keys, grid, bands, total, grading)."""
    seen: dict[str, str] = {}
    labels: dict[tuple[str, str], int] = {}  # (field, label folded) -> the dimension that has it
    for i, dim in enumerate(rubric.dimensions):
        step = rubric.step if dim.step is None else dim.step
        folded = dim.key.casefold()
        if folded in seen:
            twin = "" if seen[folded] == dim.key else f" (as {seen[folded]!r}: keys differing only in case are one key)"
            raise RubricProblem(f"dimensions[{i}].key", f"duplicate dimension key {dim.key!r}{twin}")
        seen[folded] = dim.key
        for field in ("label", "label_en"):  # the judge and the reader tell the dimensions apart by their labels
            label = " ".join(getattr(dim, field).split()).casefold()
            if (field, label) in labels:
                raise RubricProblem(f"dimensions[{i}].{field}", f"dimensions[{labels[field, label]}] has the same "
                                    f"{field} {getattr(dim, field)!r}: give each dimension its own")  # fmt: skip
            labels[field, label] = i
        if not _on_grid(dim.max, step):
            raise RubricProblem(f"dimensions[{i}].max", f"maximum {dim.max:g} is not a multiple of step {step:g}")
        _check_bands(dim, i, step)
    if abs(rubric.max_total - rubric.total) > 1e-9:
        raise RubricProblem(
            "total", f"the dimension maxima sum to {rubric.max_total:g}, but the declared total is {rubric.total:g}"
        )
    _check_grading(rubric)


def _check_grading(rubric: Rubric) -> None:
    if rubric.grades is not None:
        if not rubric.graded:
            raise RubricProblem("grades", "a grade table needs 'graded: true'")
        bounds = rubric.grades
        if any(b <= a for a, b in itertools.pairwise(bounds)) or bounds[0] < 0:
            raise RubricProblem("grades", "the grade bounds must rise strictly from >= 0")
        if abs(bounds[-1] - rubric.total) > 1e-9:
            raise RubricProblem("grades", f"the last grade bound is {bounds[-1]:g}, not the total {rubric.total:g}")
        if rubric.pass_grade is not None and rubric.pass_grade >= len(bounds):
            top = len(bounds) - 1
            raise RubricProblem("pass_grade", f"pass_grade {rubric.pass_grade} is above the top grade {top}")
    elif rubric.graded and abs(rubric.total - GRADED_TOTAL) > 1e-9:
        raise RubricProblem(
            "total",
            f"a graded rubric without 'grades' must total {GRADED_TOTAL:g} points (the paper's grade-point table), "
            f"not {rubric.total:g}",
        )
    if rubric.pass_total is not None:
        if rubric.graded:
            raise RubricProblem("pass_total", "a graded rubric passes by 'pass_grade', not 'pass_total'")
        if rubric.pass_total > rubric.total + 1e-9:
            raise RubricProblem("pass_total", f"{rubric.pass_total:g} is above the total {rubric.total:g}")
    if rubric.pass_grade is not None and not rubric.graded:
        raise RubricProblem("pass_grade", "'pass_grade' needs a graded rubric; use 'pass_total' for raw points")


def _check_bands(dim: Dimension, i: int, step: float) -> None:
    """Bands (in any order) must tile ``0 .. max`` on the step grid: no gap, no overlap."""
    if not dim.bands:
        return
    order = sorted(range(len(dim.bands)), key=lambda b: (dim.bands[b].low, dim.bands[b].high))
    expected_low = 0.0
    for b in order:
        band, where = dim.bands[b], f"dimensions[{i}].bands[{b}]"
        for edge in ("low", "high"):
            value = getattr(band, edge)
            if not _on_grid(value, step):
                raise RubricProblem(f"{where}.{edge}", f"{value:g} is not a multiple of step {step:g}")
        if band.low > band.high:
            raise RubricProblem(f"{where}.low", f"low {band.low:g} is above high {band.high:g}")
        if band.high > dim.max + 1e-9:
            raise RubricProblem(f"{where}.high", f"{band.high:g} is above the dimension maximum {dim.max:g}")
        if band.low < expected_low - 1e-9:
            raise RubricProblem(f"{where}.low", f"band {band.low:g}-{band.high:g} overlaps the band below it")
        if band.low > expected_low + 1e-9:
            raise RubricProblem(f"{where}.low", f"gap: no band covers {expected_low:g} to {band.low - step:g}")
        expected_low = band.high + step
    if abs(expected_low - step - dim.max) > 1e-9:
        raise RubricProblem(
            f"dimensions[{i}].bands", f"the bands end at {expected_low - step:g}, below the maximum {dim.max:g}"
        )
