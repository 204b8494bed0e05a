"""A row resting on few scored generations says so (the new-user attack: ``benger leaderboard --judge cfgB_opus``
ranked the systems on their 1-2 validation picks without a note): below ``MIN_RANKED_N`` the row carries
``few_items``, its rank is printed in parentheses and a provenance line counts such rows."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.analysis.leaderboard_stores import tiny_store
from typer.testing import CliRunner

from benger.analysis.leaderboard import leaderboard_from_store
from benger.analysis.leaderboard.model import MIN_RANKED_N
from benger.analysis.leaderboard.render import cells, provenance_lines
from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()


def test_the_threshold_is_the_smallest_simulated_n() -> None:
    from benger.stats import COVERAGE

    assert min(COVERAGE) == MIN_RANKED_N == 10


@pytest.mark.parametrize(
    ("n_a", "n_b", "ranks", "few"),
    [
        (1, 2, {"a": "(1)", "b": "(2)"}, {"a": 1, "b": 2}),  # the attack: 1-2 picks per system
        (MIN_RANKED_N - 1, MIN_RANKED_N, {"a": "(1)", "b": "2"}, {"a": MIN_RANKED_N - 1}),
        (MIN_RANKED_N, MIN_RANKED_N + 5, {"a": "1", "b": "2"}, {}),
        (3, 0, {"a": "(1)", "b": "–"}, {"a": 3}),  # n = 0: unranked, not "few"
    ],
)
def test_rows_on_few_items_say_so(
    tmp_path: Path, n_a: int, n_b: int, ranks: dict[str, str], few: dict[str, int]
) -> None:
    scores = {
        "a": {"j": [80.0 - i % 3 for i in range(n_a)]},
        "b": {"j": [40.0 + i % 3 for i in range(n_b)]} if n_b else {"other": [50.0]},
    }
    store = tiny_store(tmp_path / "tiny.db", scores)
    try:
        board = leaderboard_from_store(store, ci="normal", judges=["j"])
    finally:
        store.close()
    rows = {r.system: r for r in board.rows}
    assert {s: cells(board, rows[s])[0] for s in ranks} == ranks
    notes = {s: r.few_items for s, r in rows.items() if r.few_items}
    assert notes == {s: f"n = {n}: too few for a ranking (fewer than {MIN_RANKED_N} scored generations)"
                     for s, n in few.items()}  # fmt: skip
    assert {r.system for r in board.ranking if r.few_items} == set(few)
    lines = [line for line in provenance_lines(board) if line.startswith("Too few for a ranking")]
    scored = sum(1 for r in board.rows if r.n)
    expected = (
        [f"Too few for a ranking: {len(few)} of {scored} scored rows rest on fewer than {MIN_RANKED_N} scored "
         f"generations (the smallest n = {min(few.values())}); their ranks, in parentheses, order the means only."]
        if few else []
    )  # fmt: skip
    assert lines == expected


def test_the_cli_footer_says_so(tmp_path: Path) -> None:
    db = tmp_path / "tiny.db"
    tiny_store(db, {"a": {"j": [70.0, 60.0]}, "b": {"j": [50.0]}}).close()
    result = CliRunner().invoke(app, ["leaderboard", "--db", str(db)], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    assert "Too few for a ranking: 2 of 2 scored rows" in " ".join(result.output.split())
