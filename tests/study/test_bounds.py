"""The bounds of a study's numbers (benger.study._bounds, new-user report 2026-12-04): ``--time-limit 10**12`` and
``--seed -1`` were stored as given, ``--seed 2**63`` was an internal error. Every option of the kind on every study
subcommand is refused outside its range before the store is opened (exit 2, one line naming the option and the
range, the store as it was); the values at the ends of each range are accepted; the Python API (the web forms' way
in) refuses the same values naming its field; and for any integer the check accepts exactly the range (hypothesis)."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store import Store
from benger.study import StudyError, close_study, create_study, open_study, run_assignment
from benger.study._bounds import BOUNDS, SEED, TIME_LIMIT, Bound

_register_commands()
runner = CliRunner()
MINUTES_1E9 = 60 * 10**9

# every study subcommand option bounded in benger.study._bounds: (the command line before the option, the bound)
OPTIONS = {
    "create --seed": (["create", "Neu", "--corpus", "mini"], SEED),
    "create --time-limit": (["create", "Neu", "--corpus", "mini"], TIME_LIMIT),
    "assign --seed": (["assign", "--study", "Leer"], SEED),
}
BAD: dict[str, list[int]] = {
    "seed": [-1, -(2**63), 2**31, 2**63, 10**20],
    "time_limit_s": [0, -1, -7200, 30 * 24 * 3600 + 1, MINUTES_1E9, 10**12],
}
CLI_CASES = [(name, value) for name, (_, bound) in OPTIONS.items() for value in BAD[bound.field]]


def _content(store: Store) -> list[str]:
    connection = sqlite3.connect(f"file:{store.engine.url.database}?mode=ro", uri=True)
    try:
        return list(connection.iterdump())
    finally:
        connection.close()


@pytest.fixture
def closed(store: Store) -> Store:
    """The mini store with a closed study 'Leer' (no submission: assign's seed is refused before its state is)."""
    study = create_study(store, "Leer", "mini", seed=1)
    open_study(store, study)
    close_study(store, study)
    return store


@pytest.mark.parametrize(("option", "value"), CLI_CASES, ids=[f"{o}={v}" for o, v in CLI_CASES])
def test_a_study_option_outside_its_bound_is_refused_before_the_store(option: str, value: int, closed: Store) -> None:
    args, bound = OPTIONS[option]
    before = _content(closed)
    result = runner.invoke(app, ["study", *args, bound.option, str(value), "--db", str(closed.engine.url.database)])
    assert result.exit_code == 2, result.output
    assert result.output == (
        f"error: field '{bound.option}': {'The seed' if bound is SEED else 'The time limit in seconds'} must be a "
        f"whole number from {bound.low} to {bound.high} (given: {value}).\n"
    )
    assert _content(closed) == before


@pytest.mark.parametrize("bound", [SEED, TIME_LIMIT], ids=lambda b: b.option)
def test_the_ends_of_each_range_are_accepted(bound: Bound, store: Store) -> None:
    for n, value in enumerate((bound.low, bound.high)):
        args = ["study", "create", f"S{n}", "--corpus", "mini", bound.option, str(value)]
        result = runner.invoke(app, [*args, "--db", str(store.engine.url.database)])
        assert result.exit_code == 0, result.output
    listed = runner.invoke(app, ["study", "list", "--db", str(store.engine.url.database)]).output
    assert len(listed.splitlines()) == 2, listed


@pytest.mark.parametrize(
    ("field", "value"), [(f, v) for f, values in BAD.items() for v in values], ids=lambda x: str(x)
)
def test_the_python_api_refuses_the_same_values_naming_its_field(field: str, value: int, closed: Store) -> None:
    before = _content(closed)
    kwargs = {"seed": 1, "time_limit_s": 7200, field: value}
    with pytest.raises(StudyError) as refused:
        create_study(closed, "Neu", "mini", **kwargs)
    assert refused.value.field == field
    assert f"von {BOUNDS[field].low} bis {BOUNDS[field].high}" in refused.value.reason
    if field == "seed":
        with pytest.raises(StudyError) as again:
            run_assignment(closed, 1, value)
        assert again.value.field == "seed"
    assert _content(closed) == before


@given(st.sampled_from(sorted(BOUNDS)), st.integers(min_value=-(2**70), max_value=2**70))
def test_a_bound_accepts_exactly_its_range(field: str, value: int) -> None:
    bound = BOUNDS[field]
    if bound.low <= value <= bound.high:
        assert bound.check(value) == value
    else:
        with pytest.raises(StudyError) as refused:
            bound.check(value, field=bound.option)
        assert refused.value.field == bound.option
        assert refused.value.values == {
            "label": bound.label, "low": bound.low, "high": bound.high, "value": value
        }  # fmt: skip
