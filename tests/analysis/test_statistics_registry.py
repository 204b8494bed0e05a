"""The statistics registry (issue 17): registration, order, validation, dotted paths; hand-computed values."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError
from tests.analysis.test_study_data import _synthetic

from benger.analysis import compute_all
from benger.analysis.results import Block, Context, StatisticDef, all_statistics, get_statistic, register, statistic
from benger.analysis.results import unregister as drop
from benger.errors import ConfigError


class Count(Block):
    """A count."""

    count: int


@pytest.fixture
def cleanup() -> Iterator[list[str]]:
    paths: list[str] = []
    yield paths
    for path in paths:
        drop(path)


def test_builtins_are_registered_in_results_order() -> None:
    paths = [d.path for d in all_statistics()]
    assert paths[:3] == ["rq1.leaderboard", "rq1.task_system", "rq1.operational"]
    assert paths[-1] == "departures"
    assert get_statistic("rq5.alt_test").keys == ("judge", "pool")


def test_a_registered_statistic_runs_reads_earlier_blocks_and_is_stamped(cleanup: list[str]) -> None:
    @statistic("extras.judges_with_llm_pool", Count, paper_ref="none", unit="judges")
    def judges_with_llm_pool(ctx: Context) -> dict[str, Any]:
        """Judges with an llm-pool agreement block."""
        found = [j for j, pools in ctx.get("rq5.judge_vs_pool").items() if "llm" in pools]
        return {"method": "judges with an llm pool", "inputs": {"judges": len(found)}, "count": len(found)}

    cleanup.append("extras.judges_with_llm_pool")
    results = compute_all(_synthetic(), seed=1, n_boot=50, n_stacked=5)
    block = results["extras"]["judges_with_llm_pool"]
    # the synthetic study has two judges, both scoring the 6 llm picks
    assert block == {
        "method": "judges with an llm pool",
        "inputs": {"judges": 2},
        "count": 2,
        "paper_ref": "none",
        "unit": "judges",
    }
    # order 1000: after the built-in extras, before departures (which is last)
    extras = [d.path.removeprefix("extras.") for d in all_statistics() if d.path.startswith("extras.")]
    assert list(results["extras"]) == extras and extras[-1] == "judges_with_llm_pool"
    assert list(results)[-1] == "departures"


def test_a_block_that_does_not_fit_its_model_fails_compute_all(cleanup: list[str]) -> None:
    register(StatisticDef("extras.broken", Count, lambda ctx: {"method": "m", "inputs": {}, "count": "many"}))
    cleanup.append("extras.broken")
    with pytest.raises(ValidationError, match="count"):
        compute_all(_synthetic(), seed=1, n_boot=50, n_stacked=5)


def test_nested_keys_and_errors(cleanup: list[str]) -> None:
    defn = StatisticDef("extras.per_judge", Count, lambda ctx: None, keys=("judge",), unit="u")
    value = {"a": {"method": "m", "inputs": [], "count": 1}, "b": {"method": "m", "inputs": [], "count": 2}}
    assert [b.count for b in defn.validate(defn.stamp(value)).values()] == [1, 2]
    assert value["a"]["unit"] == "u"
    with pytest.raises(ValidationError):
        defn.validate({"a": {"method": "m", "count": 1}})  # no inputs
    register(defn)
    cleanup.append("extras.per_judge")
    with pytest.raises(ConfigError, match="already registered"):
        register(defn)
    with pytest.raises(ConfigError, match="dotted identifiers"):
        StatisticDef("extras.bad-name", Count, lambda ctx: None)
