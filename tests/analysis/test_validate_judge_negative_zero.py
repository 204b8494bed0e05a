"""Issue 33, item 6: ``validate-judge``'s table showed "-0.0" as an offset; a value that rounds to zero is 0.0."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benger.analysis._validate_judge import _f


@pytest.mark.parametrize(
    ("value", "digits", "shown"),
    [(-0.0, 1, "0.0"), (-0.01, 1, "0.0"), (-0.049, 1, "0.0"), (-0.004, 2, "0.00"), (-0.06, 1, "-0.1"),
     (0.04, 1, "0.0"), (-1.25, 2, "-1.25"), (None, 1, "–")],
)  # fmt: skip
def test_negative_zero_is_zero(value: float | None, digits: int, shown: str) -> None:
    assert _f(value, digits) == shown


@given(st.floats(allow_nan=False, allow_infinity=False, min_value=-1e6, max_value=1e6), st.integers(0, 4))
def test_only_a_nonzero_value_has_a_sign(value: float, digits: int) -> None:
    shown = _f(value, digits)
    assert not shown.startswith("-") or float(shown) < 0
    assert float(shown) == float(f"{value:.{digits}f}")
