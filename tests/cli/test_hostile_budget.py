"""``--max-cost`` and the dry-run table, as a hostile user meets them (2026-12-01 (c)).

Before: ``--max-cost inf`` and ``--max-cost 1e400`` were accepted, ``nan`` was refused as "should be greater than
or equal to 0"; with a model that has no price (every catalog model: prices are null) each call was refused,
every item stored as failed, and the run said "budget cap reached: 16 call(s) not made; rerun with a higher
cap to continue", which no higher cap can cure. Piped (not a terminal), the dry-run table was squeezed into 80
columns ("sta…", "mod…", "in… tok"), and a judge-only dry run said "candidates 0.0000 USD".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.cli._budget import budget_or_estimate
from benger.errors import ConfigError
from benger.pipeline import load_run_config
from benger.store import open_store

_register_commands()
runner = CliRunner()
URL = "http://127.0.0.1:9/v1"  # discard port: nothing may be called


def _config(tmp_path: Path, system_price: str = "", judge_price: str = "") -> Path:
    path = tmp_path / "run.yaml"
    path.write_text(
        "corpora: [demo]\n"
        f"systems:\n  - {{name: sys-a, provider: openai-compatible, model: a, base_url: '{URL}'{system_price}}}\n"
        f"judges:\n  - {{name: judge-j, provider: openai-compatible, model: j, base_url: '{URL}'{judge_price}}}\n",
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize("value", ["nan", "inf", "1e400", "-inf", "-1", "-0.01"])
def test_max_cost_must_be_a_finite_amount(value: str, tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    result = runner.invoke(app, ["run", str(_config(tmp_path)), "--db", str(db), "--max-cost", value])
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--max-cost'" in result.output and "is not an amount of USD" in result.output
    assert not db.exists()


@pytest.mark.parametrize(
    ("command", "unpriced"),
    [
        ("run", "sys-a, judge-j have none"),
        ("generate", "sys-a has none"),  # the judge is not called by generate
        ("judge", "judge-j has none"),
    ],
)
def test_max_cost_without_prices_is_refused_before_any_call(command: str, unpriced: str, tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    result = runner.invoke(app, [command, str(_config(tmp_path)), "--db", str(db), "--max-cost", "5", "-q"])
    assert result.exit_code == 2, result.output
    assert f"error: --max-cost needs prices, and {unpriced}" in result.output
    assert "--max-tokens" in result.output and "budget cap reached" not in result.output
    assert not db.exists()  # nothing stored as failed: the store is not even created


def test_priced_models_run_under_a_cost_cap(tmp_path: Path) -> None:
    price = ", price_in_per_mtok: 1.0, price_out_per_mtok: 2.0"
    cfg = load_run_config(_config(tmp_path, system_price=price))
    guard = budget_or_estimate(cfg, None, ("generate",), False, 5.0, None)
    assert guard.max_cost == 5.0
    with pytest.raises(ConfigError, match="judge-j has none"):
        budget_or_estimate(cfg, None, ("generate", "judge"), False, 5.0, None)
    assert budget_or_estimate(cfg, None, ("generate", "judge"), False, None, 1000).max_tokens == 1000


def test_the_piped_dry_run_table_is_not_squeezed(tmp_path: Path) -> None:
    db = tmp_path / "run.db"
    open_store(db).close()  # judging consumes a store that must exist (tests/cli/test_not_a_store.py)
    result = runner.invoke(app, ["judge", str(_config(tmp_path)), "--db", str(db), "--dry-run"], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    header = next(line for line in result.output.splitlines() if "stage" in line)
    for column in ("model", "config", "calls", "input tok", "output tok", "cost USD", "release cost", "tokens from"):
        assert f" {column} " in header, header
    assert "…" not in result.output
    # only the judge stage runs (nothing generated yet: 0 calls): no "candidates 0.0000 USD" for a stage that
    # is not part of the run
    assert "cost: judges 0.0000 USD, total 0.0000 USD (unknown = a model without catalog prices)" in result.output
    run = runner.invoke(app, ["run", str(_config(tmp_path)), "--db", str(db), "--dry-run"], env={"COLUMNS": "80"})
    assert "cost: candidates unknown, judges unknown, total unknown (unknown = " in run.output
