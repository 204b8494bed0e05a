"""Table builders that read their blocks through the results models (issue 14): same cells, typed input."""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError
from tests.report.conftest import make_results

from benger.report import Table
from benger.report._tables import leaderboard_table
from benger.report._tables_release import departures_table


def test_leaderboard_cells_from_the_model() -> None:
    table = leaderboard_table(make_results())
    assert isinstance(table, Table)
    assert table.rows[0][1] == "15"  # bench n of the first hand-made row


def test_a_block_that_does_not_fit_the_model_is_an_error_not_a_silent_dash() -> None:
    results = copy.deepcopy(make_results())
    results["rq1"]["leaderboard"]["rows"][0]["bench"]["n"] = "fifteen"
    with pytest.raises(ValidationError, match=r"bench\.n"):
        leaderboard_table(results)


def test_departures_rows_from_the_model() -> None:
    results = copy.deepcopy(make_results())
    results["departures"] = {
        "method": "m",
        "inputs": {"zjs_systems_with_dropped": 1},
        "items": [{"kind": "unavailable", "item": "rq4.judge", "printed": None, "benger": None, "cause": "c"}],
    }
    table = departures_table(results)
    assert isinstance(table, Table)
    assert table.rows == [["unavailable", "rq4.judge", None, None, "c"]]  # None: the renderer prints a dash
