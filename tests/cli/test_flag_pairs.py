"""Both sides of a flag pair on one command line are a usage error (exit 2) that names both flags.

Before: ``benger metrics --humans --no-humans`` (and every other Typer pair ``--x/--y``) silently took the last
flag given. The table is read from the app, so a pair added later is covered without editing this file.
"""

from __future__ import annotations

from typing import Any

import pytest
import typer
from hypothesis import given
from hypothesis import strategies as st

from benger.cli._options import flag_pairs, refuse_opposite_flags
from fuzz._fuzz import check_rejected, invoke
from fuzz.test_fuzz_cli import COMMANDS

PAIRS = [
    (path, on, off) for path, command in COMMANDS for _, ons, offs in flag_pairs(command) for on in ons for off in offs
]
BY_PATH = dict(COMMANDS)


def test_the_table_holds_the_pairs_known_by_hand() -> None:
    known = {
        (("metrics",), "--humans", "--no-humans"),
        (("study", "feedback"), "--on", "--off"),
        (("serve",), "--secure-cookies", "--no-secure-cookies"),
        (("leaderboard",), "--include-superseded", "--exclude-superseded"),
    }
    assert known <= set(PAIRS)


@pytest.mark.parametrize(("path", "on", "off"), PAIRS, ids=[" ".join((*p, a, b)) for p, a, b in PAIRS])
@pytest.mark.parametrize("first_on", [True, False], ids=["on-first", "off-first"])
def test_both_sides_of_a_pair_are_a_usage_error(path: tuple[str, ...], on: str, off: str, first_on: bool) -> None:
    result = invoke([*path, *([on, off] if first_on else [off, on])])  # nothing else: refused before any work
    check_rejected(result, [on, off])  # exit 2, one usage error, no traceback
    assert f"Invalid value for '{on}' / '{off}': opposite flags: give one of them, not both" in result.output


def _given_both(tokens: list[str], on: tuple[str, ...], off: tuple[str, ...]) -> bool:
    before = tokens[: tokens.index("--")] if "--" in tokens else tokens
    return any(t in on for t in before) and any(t in off for t in before)


@given(st.lists(st.sampled_from(["--humans", "--no-humans", "--quiet", "--", "x", "--limit", "3"]), max_size=8))
def test_a_line_is_refused_exactly_when_it_gives_both_sides(tokens: list[str]) -> None:
    command: Any = BY_PATH[("metrics",)]
    (_, on, off), *_ = (p for p in flag_pairs(command) if "--humans" in p[1])
    expected = _given_both(tokens, on, off)
    try:
        refuse_opposite_flags(typer.Context(command), command, tokens)
    except typer.BadParameter as exc:
        assert expected and "--humans" in str(exc.param_hint) and "--no-humans" in str(exc.param_hint)
    else:
        assert not expected
