"""The report reads its blocks through the results models (issue 14): results.json is validated once, a field that
does not fit is one clear error naming it, and the table builders take typed blocks."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from tests.report.conftest import make_results, typed

from benger.errors import InputError
from benger.report import Table, write_report
from benger.report._build import parse_results, results_json
from benger.report._tables import leaderboard_table
from benger.report._tables_release import departures_table


def test_leaderboard_cells_from_the_model() -> None:
    table = leaderboard_table(typed(make_results()).rq1.leaderboard)
    assert isinstance(table, Table)
    assert table.rows[0][1] == "15"  # bench n of the first hand-made row


def test_parse_results_gives_the_typed_blocks() -> None:
    res = parse_results(results_json(make_results()))
    assert res.meta.primary_judge == "gpt54mini"
    assert res.rq5.alt_test["gpt54mini"]["human"].omega == 0.6
    assert res.rq1.leaderboard.rows[2].bench is not None and res.rq1.leaderboard.rows[2].bench.human_raw == 58.4


def test_a_wrong_typed_field_is_one_error_naming_it(tmp_path: Path) -> None:
    results = copy.deepcopy(make_results())
    results["rq1"]["leaderboard"]["rows"][0]["bench"]["n"] = "fifteen"
    with pytest.raises(InputError) as err:
        write_report(results, tmp_path / "out")
    assert err.value.field == "rq1.leaderboard.rows.0.bench.n"
    assert str(err.value) == (
        "results.json, field 'rq1.leaderboard.rows.0.bench.n': does not fit the results schema "
        "(docs/results-schema.md): Input should be a valid integer, unable to parse string as an integer "
        '(got "fifteen")'
    )
    assert not (tmp_path / "out").exists()  # nothing is written before the results fit


def test_every_bad_field_is_counted_and_a_missing_block_named(tmp_path: Path) -> None:
    results = copy.deepcopy(make_results())
    del results["rq5"]["irr"]
    results["rq5"]["calibration"]["rows"] = [42]  # a row that is not an object
    with pytest.raises(InputError) as err:
        parse_results(json.dumps(results), file=tmp_path / "results.json")
    assert err.value.field == "rq5.irr"
    assert "Field required" in str(err.value) and "(got" not in str(err.value)  # no dump of the parent block
    assert str(err.value).startswith(f"{tmp_path / 'results.json'}, field 'rq5.irr'")
    assert str(err.value).endswith("; 1 more field(s) do not fit either")


def test_rows_inside_blocks_are_typed_too(tmp_path: Path) -> None:
    results = copy.deepcopy(make_results())
    results["rq5"]["irr"]["pooled"]["n"] = "forty-five"
    with pytest.raises(InputError) as err:
        write_report(results, tmp_path)
    assert err.value.field == "rq5.irr.pooled.n"
    res = typed(make_results())
    assert res.rq5.calibration.rows[1].judge_minus_pool_mean == 6.87
    assert res.rq5.alt_test["gpt54mini"]["human"].per_annotator[1].rejected_BY is True
    assert res.rq3.per_system.metrics["rouge"].n_systems == 12 and res.rq3.per_system.metrics["rouge"].n is None


def test_departures_rows_from_the_model() -> None:
    results = copy.deepcopy(make_results())
    results["departures"] = {
        "method": "m",
        "inputs": {"zjs_systems_with_dropped": 1},
        "items": [{"kind": "unavailable", "item": "rq4.judge", "printed": None, "benger": None, "cause": "c"}],
    }
    table = departures_table(typed(results).departures)
    assert isinstance(table, Table)
    assert table.rows == [["unavailable", "rq4.judge", None, None, "c"]]  # None: the renderer prints a dash
