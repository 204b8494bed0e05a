"""A run config without the models a command calls is refused, not run as nothing (2026-12-01 (c), hostile user).

Before: ``benger judge CONFIG`` with no ``judges:`` printed nothing and exited 0; ``benger run CONFIG`` with no
``systems:`` printed an empty leaderboard, exit 0; ``benger estimate CONFIG --stage judge`` (or ``generate``)
printed an empty table and "total 0.0000 USD", exit 0 - a silent zero. The check lived only in the path
without a config file (``name at least one --system``); it is now made for both in ``cli._execute._config``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()
MODEL = "provider: openai-compatible, base_url: 'http://127.0.0.1:9/v1'"
ONLY_SYSTEMS = f"corpora: [demo]\nsystems:\n  - {{name: s, model: s, {MODEL}}}\n"
ONLY_JUDGES = f"corpora: [demo]\njudges:\n  - {{name: j, model: j, {MODEL}}}\n"

NO_CORPORA = f"systems:\n  - {{name: s, model: s, {MODEL}}}\njudges:\n  - {{name: j, model: j, {MODEL}}}\n"
CORPORA_ADVICE = "(add one under corpora:, e.g. corpora: [demo])"

CASES = [
    # corpora: may be left out of a judge-only config for validate-judge, never for a command that runs tasks
    (["run"], NO_CORPORA, "corpora", CORPORA_ADVICE),
    (["generate"], NO_CORPORA, "corpora", CORPORA_ADVICE),
    (["judge"], NO_CORPORA, "corpora", CORPORA_ADVICE),
    (["estimate"], NO_CORPORA, "corpora", CORPORA_ADVICE),
    (["run"], NO_CORPORA + "corpora: []\n", "corpora", CORPORA_ADVICE),
    (["judge"], ONLY_SYSTEMS, "judges", "(add one under judges: or pass --judge)"),
    (["judge", "--dry-run"], ONLY_SYSTEMS, "judges", "(add one under judges: or pass --judge)"),
    (["estimate", "--stage", "judge"], ONLY_SYSTEMS, "judges", "(add one under judges: or pass --judge)"),
    (["run"], ONLY_JUDGES, "systems", "(add one under systems:)"),
    (["run", "--dry-run"], ONLY_JUDGES, "systems", "(add one under systems:)"),
    (["generate"], ONLY_JUDGES, "systems", "(add one under systems:)"),
    (["estimate"], ONLY_JUDGES, "systems", "(add one under systems:)"),
    (["estimate", "--stage", "generate"], ONLY_JUDGES, "systems", "(add one under systems:)"),
]


@pytest.mark.parametrize(("command", "text", "section", "advice"), CASES, ids=[" ".join(c[0]) for c in CASES])
def test_a_config_without_the_models_to_call_is_refused(
    command: list[str], text: str, section: str, advice: str, tmp_path: Path
) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(text, encoding="utf-8")
    db = tmp_path / "s.db"
    quiet = [] if command[0] == "estimate" else ["-q"]
    result = runner.invoke(app, [command[0], str(config), *command[1:], "--db", str(db), *quiet])
    assert result.exit_code == 2, result.output
    assert f"error: {config}, field '{section}': nothing to run: no {section} {advice}" in result.output
    assert not db.exists()


def test_judge_names_a_judge_for_a_config_without_one(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(ONLY_SYSTEMS, encoding="utf-8")
    result = runner.invoke(app, ["judge", str(config), "--judge", "j-missing", "--db", str(tmp_path / "s.db"), "-q"])
    assert "nothing to run" not in result.output  # --judge replaces the config's (absent) judges
