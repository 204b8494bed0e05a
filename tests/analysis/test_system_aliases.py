"""One system configuration under several names (the name is a label, issue 10): which names select which rows."""

from __future__ import annotations

import pytest

from benger.analysis.leaderboard.identity import same_configuration

REGISTERED = [("alpha", "h1"), ("beta", "h1"), ("gamma", "h2"), ("alpha", "h3"), ("delta", "h3"), ("solo", "h4")]


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        (["beta"], {"beta": ["alpha"]}),
        (["alpha"], {"alpha": ["beta", "delta"]}),  # alpha has two configurations, each shared
        (["solo", "gamma"], {}),  # a configuration under one name only
        (["unknown"], {}),
        ([], {}),
        (["beta", "delta"], {"beta": ["alpha"], "delta": ["alpha"]}),
    ],
)
def test_same_configuration(names: list[str], expected: dict[str, list[str]]) -> None:
    assert same_configuration(REGISTERED, names) == expected
