"""An incomplete run says why its items failed (2026-12-01 (c), hostile user).

Before: ``benger run CONFIG -q`` against a model that cannot be reached stored 13 failed generations, each with
its reason, and printed only "incomplete: items failed or remain (generate 13); run the same command again to
\\ncontinue (exit code 3)" - no reason, and broken at 80 columns when piped; an item that raised printed a
literal "[red]error[/red]" (the consoles print text literally). Now the first stored reasons are listed, one
message per line.

The model here is a server that answers every call with HTTP 500 (one that cannot be reached at all is now
refused before the first item: ``tests/cli/test_unreachable_base_url.py``).
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.testing import run_stub_server

_register_commands()
runner = CliRunner()


def test_the_reasons_of_failed_generations_are_printed(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    with run_stub_server(fault_rate=1.0, random_faults=("500",)) as stub:
        config.write_text(
            "corpora: [demo-grundprinzipien]\n"
            f"systems:\n  - {{name: dead, provider: openai-compatible, model: a, base_url: '{stub.base_url}'}}\n"
            "retry: {max_retries: 0, initial_wait: 0.1, max_wait: 1}\nfilters: {limit: 7}\n",
            encoding="utf-8",
        )
        db = str(tmp_path / "s.db")
        result = runner.invoke(app, ["generate", str(config), "--db", db, "-q"], env={"COLUMNS": "80"})
    assert result.exit_code == 3, result.output
    lines = result.output.splitlines()
    failed = [line for line in lines if line.startswith("failed: dead on demo-grundprinzipien/")]
    assert len(failed) == 5 and all(": dead HTTP 500: " in line for line in failed), lines
    assert "... 7 failed generation(s) in all" in lines
    assert "incomplete: items failed or remain (generate 7); run the same command again to continue (exit code 3)" in (
        lines
    )
    assert "[red]" not in result.output
