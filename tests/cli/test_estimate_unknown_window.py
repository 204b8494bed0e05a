"""``benger estimate`` says when it cannot check prompt lengths, rather than a misleading "too long 0".

Observed (2026-12-04): the estimate of a system without a known context window (an inline ``openai`` system, no
``context_window``) printed "too long 0", as if every prompt had been checked and fitted. Now the row's
``too_long`` is None, the table says ``unknown`` and a line below it says why and what to set.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.pipeline import load_run_config
from benger.pipeline._estimate import estimate_run

_register_commands()
runner = CliRunner()


def test_an_estimate_says_too_long_is_unknown_without_a_context_window(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(
        "corpora: [demo-grundprinzipien]\nsystems:\n"
        "  - {name: ohne, provider: openai, model: m-ohne}\n"
        "  - {name: mit, provider: openai, model: m-mit, context_window: 100000}\n",
        encoding="utf-8",
    )
    rows = {r.system: r for r in estimate_run(load_run_config(config), None, stages=("generate",)).rows}
    assert rows["ohne"].too_long is None and rows["mit"].too_long == 0
    result = runner.invoke(
        app, ["estimate", str(config), "--stage", "generate", "--db", str(tmp_path / "s.db")], env={"COLUMNS": "250"}
    )
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert (
        "too long: unknown for ohne: the context window is unknown, so prompt lengths cannot be checked (set "
        "context_window in the run config or catalog)"
    ) in text
    table = [line for line in result.output.splitlines() if "m-ohne" in line or " ohne " in line]
    assert table and "unknown" in table[0]


#: an inline system -> its row's too_long on the 1 Grundprinzip item planned (None: window unknown, never 0)
SYSTEMS = {
    "no window": ("{name: s, provider: openai, model: m}", None),
    "window fits": ("{name: s, provider: openai, model: m, context_window: 100000}", 0),
    "window too small": ("{name: s, provider: openai, model: m, context_window: 600, max_output_tokens: 500}", 1),
    "anthropic, no window": ("{name: s, provider: anthropic, model: m}", None),
    "local: params.n_ctx": ("{name: s, provider: local, model: smollm2-135m, params: {n_ctx: 100000}}", 0),
}


@pytest.mark.parametrize("case", list(SYSTEMS))
def test_too_long_is_a_count_only_where_the_window_is_known(tmp_path: Path, case: str) -> None:
    system, expected = SYSTEMS[case]
    config = tmp_path / "run.yaml"
    text = f"corpora: [demo-grundprinzipien]\nsystems: [{system}]\nfilters: {{limit: 1}}\n"
    config.write_text(text, encoding="utf-8")
    (row,) = estimate_run(load_run_config(config), None, stages=("generate",)).rows
    assert row.calls == 1 and row.too_long == expected
