"""A run prints why its judgements are unscored, as it prints why generations failed (2026-12-04 attack, item 7).

Before: ``benger run`` with a judge that replies garbage printed ``judge: 6/6 (unscored 6)`` and exited 3 without
a reason, while a failed generation gets a ``failed: s on faelle/mm-01: ...`` line; the reasons were in the store
("unparseable after 4 attempts: dimension 'ergebnis': score 999 outside 0..10"). ``cli._reasons.failure_reasons``
lists both stages' reasons, the first five of each and how many in all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.testing._responder import default_responder
from benger.testing.stub_server import run_stub_server

_register_commands()
runner = CliRunner()


def _score_999(request: dict[str, Any]) -> str:
    """The stub's reply, but every judge score is 999 (out of any rubric's range)."""
    reply = default_responder(request)
    try:
        data = json.loads(reply)
    except ValueError:
        return reply
    if isinstance(data, dict) and isinstance(data.get("dimensionen"), dict):
        for dimension in data["dimensionen"].values():
            dimension["punkte"] = 999
        return json.dumps(data, ensure_ascii=False)
    return reply


@pytest.mark.parametrize("command", ["run", "judge"])
def test_the_reasons_of_unscored_judgements_are_printed(command: str, tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    with run_stub_server(responder=_score_999) as stub:
        model = f"provider: openai-compatible, model: stub, base_url: '{stub.base_url}'"
        config = tmp_path / "run.yaml"
        config.write_text(
            f"corpora: [demo-grundprinzipien]\nsystems: [{{name: s, {model}}}]\njudges: [{{name: j, {model}}}]\n"
            "filters: {limit: 7}\nretry: {max_retries: 1, initial_wait: 0.01, max_wait: 0.05}\n",
            encoding="utf-8",
        )
        if command == "judge":
            assert runner.invoke(app, ["generate", str(config), "--db", str(db), "-q"]).exit_code == 0
        result = runner.invoke(app, [command, str(config), "--db", str(db), "-q"], env={"COLUMNS": "80"})
    assert result.exit_code == 3, result.output
    lines = result.output.splitlines()
    unscored = [line for line in lines if line.startswith("unscored: j judging s on demo-grundprinzipien/")]
    assert len(unscored) == 5, lines
    assert all("unparseable after" in line and "999" in line for line in unscored), unscored
    assert "... 7 unscored judgement(s) in all" in lines
    assert not [line for line in lines if line.startswith("failed:")]  # every generation is ok


def test_the_unscored_judgements_of_human_solutions_are_printed_too(tmp_path: Path) -> None:
    """``judge --human-solutions``: a human solution's unscored judgement has its line, as a generation's has.

    Before: the lines listed the generations' unscored judgements only; a run whose human solutions the judge
    could not score exited 3 with ``judge: ... (unscored 1)`` and no reason for it."""
    from benger.schema import HumanSolution
    from benger.store import open_store

    db = tmp_path / "s.db"
    with run_stub_server(responder=_score_999) as stub:
        model = f"provider: openai-compatible, model: stub, base_url: '{stub.base_url}'"
        config = tmp_path / "run.yaml"
        config.write_text(
            f"corpora: [demo-falloesung]\nsystems: [{{name: s, {model}}}]\njudges: [{{name: j, {model}}}]\n"
            "filters: {limit: 1}\nretry: {max_retries: 1, initial_wait: 0.01, max_wait: 0.05}\n",
            encoding="utf-8",
        )
        assert runner.invoke(app, ["generate", str(config), "--db", str(db), "-q"]).exit_code == 0
        store = open_store(db)
        try:
            (generation,) = store.generations(corpus="demo-falloesung")
            store.add_human_solution(
                HumanSolution(solution_id="h-1", task_id=generation.task_id, corpus="demo-falloesung",
                              participant_id="p", condition="traditional", text="A. Anspruch aus § 433 Abs. 1 BGB ...")
            )  # fmt: skip
        finally:
            store.close()
        args = ["judge", str(config), "--db", str(db), "-q", "--human-solutions"]
        result = runner.invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 3, result.output
    unscored = [line for line in result.output.splitlines() if line.startswith("unscored: j judging ")]
    label = f"unscored: j judging human solution h-1 on demo-falloesung/{generation.task_id}: "
    human = [line for line in unscored if line.startswith(label)]
    assert len(unscored) == 2 and len(human) == 1, unscored
    assert "unparseable after" in human[0] and "999" in human[0], human
