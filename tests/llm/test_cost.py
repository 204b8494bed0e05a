"""The one cost computation (``benger.llm.token_cost``): USD from token counts and per-1M-token prices."""

from __future__ import annotations

import pytest

from benger.llm import Usage, compute_cost, token_cost
from benger.pipeline._estimate import _cost
from benger.schema import SystemConfig


@pytest.mark.parametrize(
    ("tokens_in", "tokens_out", "price_in", "price_out", "expected"),
    [
        # 1000 * 3 / 1e6 + 500 * 15 / 1e6 = 0.003 + 0.0075
        (1000, 500, 3.0, 15.0, 0.0105),
        # 2_000_000 * 0.5 / 1e6 + 0 = 1.0
        (2_000_000, 0, 0.5, 2.0, 1.0),
        (0, 0, 3.0, 15.0, 0.0),
        # a free model costs 0, an unpriced one is unknown
        (1000, 500, 0.0, 0.0, 0.0),
        (1000, 500, None, 15.0, None),
        (1000, 500, 3.0, None, None),
    ],
)
def test_token_cost(
    tokens_in: int, tokens_out: int, price_in: float | None, price_out: float | None, expected: float | None
) -> None:
    got = token_cost(tokens_in, tokens_out, price_in, price_out)
    assert got == (None if expected is None else pytest.approx(expected))
    assert compute_cost(Usage(input_tokens=tokens_in, output_tokens=tokens_out), price_in, price_out) == got


def test_the_estimate_and_the_budget_use_the_same_cost() -> None:
    priced = SystemConfig(name="x", provider="openai", model="m", price_in_per_mtok=3.0, price_out_per_mtok=15.0)
    assert _cost(priced, 1000, 500) == pytest.approx(0.0105)
    assert _cost(SystemConfig(name="y", provider="openai", model="m"), 1000, 500) is None
