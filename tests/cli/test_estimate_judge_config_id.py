"""The judge config id ``benger estimate`` shows is the one the store and the leaderboard use (2026-12-04
attack, item 8).

Before: the judge row showed ``SystemConfig.config_hash()`` (``aabc2da4``: the same as a system row with the
same model and URL), while its judgements were stored under ``PromptSet.judge_config_hash`` (``80c3d986``,
``9b7d8ad2``: one per rubric), the ids the leaderboard names. A user could not match estimate rows to results.
"""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store import open_store
from benger.testing.stub_server import run_stub_server

_register_commands()
runner = CliRunner()


def test_the_estimated_judge_config_ids_are_the_stored_ones(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with run_stub_server() as stub:
        model = f"provider: openai-compatible, model: stub, base_url: '{stub.base_url}'"
        config = tmp_path / "run.yaml"
        config.write_text(  # two corpora of the two kinds: two rubrics, so two judge config ids
            "corpora: [demo-falloesung, demo-grundprinzipien]\n"
            f"systems: [{{name: s, {model}}}]\njudges: [{{name: j, {model}}}]\nfilters: {{limit: 1}}\n",
            encoding="utf-8",
        )
        estimate = runner.invoke(app, ["estimate", str(config), "--db", str(db), "--out", str(tmp_path / "est")])
        assert estimate.exit_code == 0, estimate.output
        rows = json.loads((tmp_path / "est" / "estimate.json").read_text(encoding="utf-8"))["rows"]
        run = runner.invoke(app, ["run", str(config), "--db", str(db), "-q"])
        assert run.exit_code == 0, run.output
    (judge_row,) = [r for r in rows if r["stage"] == "judge"]
    (system_row,) = [r for r in rows if r["stage"] == "generate"]
    store = open_store(db, create=False)
    try:
        stored = sorted({j.judge_config_hash[:8] for j in store.judgements(judge="j")})
    finally:
        store.close()
    assert len(stored) == 2
    assert judge_row["config_id"] == ", ".join(stored)
    assert judge_row["config_id"] != system_row["config_id"]  # the judge's ids, not the model's own
    for config_id in stored:
        assert config_id in estimate.output  # the printed table shows them too
