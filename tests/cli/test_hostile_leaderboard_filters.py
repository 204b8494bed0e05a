"""Each ``leaderboard --system`` / ``--judge`` value must select rows (2026-12-01 (c), hostile user).

Before: ``--system gpt-5.4 --system nobody`` and ``--judge J --judge nobody`` ignored the typo silently (exit 0);
``--judge J --system nobody`` blamed the judge ("no judgement by J in the selected rows"); and ``--system
Opus-4.7`` (the label the table shows) said only "the --corpus/--system filters select no generation", never
which names --system takes.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.testing.stub_server import run_stub_server

_register_commands()
runner = CliRunner()


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("lbf")
    db = folder / "run.db"
    with run_stub_server(latency_ms=1) as stub:
        model = "provider: openai-compatible, base_url: '" + stub.base_url + "'"
        config = folder / "run.yaml"
        config.write_text(
            "corpora: [demo-grundprinzipien]\n"
            f"systems:\n  - {{name: sys-a, model: a, {model}}}\n  - {{name: sys-b, model: b, {model}}}\n"
            f"judges:\n  - {{name: judge-j, model: j, {model}}}\nfilters: {{limit: 2}}\n",
            encoding="utf-8",
        )
        result = runner.invoke(app, ["run", str(config), "--db", str(db), "-q"])
    assert result.exit_code == 0, result.output
    return db


CASES = [
    (["--system", "sys-a", "--system", "nobody"], "field '--system': unknown system 'nobody'; --system takes the name"),
    (["--judge", "judge-j", "--system", "nobody"], "unknown system 'nobody'"),
    (["--system", "SYS-A"], "unknown system 'SYS-A'; --system takes the name, not the label"),
    (["--judge", "judge-j", "--judge", "nobody"], "field '--judge': unknown judge 'nobody'; --judge takes a judge"),
    (["--corpus", "demo-falloesung"], "field '--corpus': unknown corpus 'demo-falloesung'"),
]


@pytest.mark.parametrize(("args", "message"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_a_filter_value_that_selects_nothing_is_named(args: list[str], message: str, store: Path) -> None:
    result = runner.invoke(app, ["leaderboard", "--db", str(store), *args], env={"COLUMNS": "300"})
    assert result.exit_code == 2, result.output
    assert message in result.output
    if "unknown system" in message:
        assert "stored systems: " in result.output and "sys-a, sys-b" in result.output


def test_filters_that_all_select_rows_rank(store: Path) -> None:
    args = ["--system", "sys-a", "--system", "sys-b", "--judge", "judge-j", "--ci", "normal"]
    result = runner.invoke(app, ["leaderboard", "--db", str(store), *args], env={"COLUMNS": "300"})
    assert result.exit_code == 0, result.output
    assert "sys-a" in result.output and "sys-b" in result.output
