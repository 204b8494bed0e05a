"""An incomplete run says why its items failed (2026-12-01 (c), hostile user).

Before: ``benger run CONFIG -q`` against a model that cannot be reached stored 13 failed generations, each with
its reason, and printed only "incomplete: items failed or remain (generate 13); run the same command again to
\\ncontinue (exit code 3)" - no reason, and broken at 80 columns when piped; an item that raised printed a
literal "[red]error[/red]" (the consoles print text literally). Now the first stored reasons are listed, one
message per line.
"""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()


def test_the_reasons_of_failed_generations_are_printed(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(
        "corpora: [demo-grundprinzipien]\n"
        "systems:\n  - {name: dead, provider: openai-compatible, model: a, base_url: 'http://127.0.0.1:9/v1'}\n"
        "retry: {max_retries: 0, initial_wait: 0.1, max_wait: 1}\nfilters: {limit: 7}\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["generate", str(config), "--db", str(tmp_path / "s.db"), "-q"], env={"COLUMNS": "80"})
    assert result.exit_code == 3, result.output
    lines = result.output.splitlines()
    failed = [line for line in lines if line.startswith("failed: dead on demo-grundprinzipien/")]
    assert len(failed) == 5 and all(": dead: " in line for line in failed), lines
    assert "... 7 failed generation(s) in all" in lines
    assert "incomplete: items failed or remain (generate 7); run the same command again to continue (exit code 3)" in (
        lines
    )
    assert "[red]" not in result.output
