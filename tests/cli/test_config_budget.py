"""The run config's ``budget:`` section caps a run as --max-cost / --max-tokens do; an option given wins."""

from __future__ import annotations

from pathlib import Path

import pytest

from benger.cli._budget import budget_or_estimate
from benger.errors import InputError
from benger.pipeline import load_run_config
from benger.pipeline._config import dump_run_config, parse_run_config

PRICED = "systems:\n  - {name: p, provider: openai-compatible, model: p, base_url: 'http://127.0.0.1:9/v1', " \
         "price_in_per_mtok: 1.0, price_out_per_mtok: 2.0}\n"  # fmt: skip


@pytest.mark.parametrize(
    ("budget", "flags", "caps"),
    [
        ("", (None, None), None),
        ("budget: {max_tokens: 5000}\n", (None, None), (None, 5000)),
        ("budget: {max_cost: 0.5}\n", (None, None), (0.5, None)),
        ("budget: {max_cost: 0.5, max_tokens: 5000}\n", (2.0, None), (2.0, 5000)),
        ("budget: {max_tokens: 5000}\n", (None, 70), (None, 70)),
    ],
)
def test_budget_section_and_options(
    tmp_path: Path, budget: str, flags: tuple[float | None, int | None], caps: tuple[float | None, int | None] | None
) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("corpora: [demo]\n" + PRICED + budget, encoding="utf-8")
    guard = budget_or_estimate(load_run_config(path), None, ("generate",), False, *flags)
    assert (None if guard is None else (guard.max_cost, guard.max_tokens)) == caps


@pytest.mark.parametrize(
    ("budget", "where"),
    [("budget: {max_tokens: 0}\n", "run.yaml:4, field 'budget.max_tokens'"),
     ("budget: {max_cost: -1}\n", "run.yaml:4, field 'budget.max_cost'"),
     ("budget: {limit: 3}\n", "unknown key 'limit'; the known keys here are: max_cost, max_tokens")],
)  # fmt: skip
def test_bad_budget_is_named(tmp_path: Path, budget: str, where: str) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("corpora: [demo]\n" + PRICED + budget, encoding="utf-8")
    with pytest.raises(InputError, match=where.replace("[", r"\[").replace("]", r"\]")):
        load_run_config(path)


def test_dumped_config_reads_back_equal(tmp_path: Path) -> None:
    path = tmp_path / "run.yaml"
    path.write_text("name: x\ncorpora: [demo]\n" + PRICED + "repeats: 3\nbudget: {max_cost: 1.5}\n", encoding="utf-8")
    config = load_run_config(path)
    again = parse_run_config(dump_run_config(config), path)
    assert again.model_dump() == config.model_dump()
    assert dump_run_config(again) == dump_run_config(config)
