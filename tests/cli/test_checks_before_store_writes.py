"""A run's selection is checked before its store is written, and a dry run writes no store at all.

Tester (2026-12-03):

* ``benger generate r/run.yaml --db m.db --system nosuch`` exited 2 "selects no system" but corpus ``faelle``
  was added to m.db; the same with ``filters: {tasks: [nosuch]}`` and ``rubrics: {faelleX: ...}``
  (``benger.pipeline._orchestrate.check_run`` now runs first);
* ``benger run run.yaml --dry-run --db dry.db`` and ``benger estimate run.yaml --db est.db`` created a 550 KB
  store and imported the corpus, although the dry run "calls nothing" (``benger.cli._budget.estimate_store``:
  no store where none is, an existing one only read).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()
_UNUSED = "provider: openai-compatible, model: m, base_url: 'http://127.0.0.1:9/v1'"  # nothing is called


def _config(folder: Path, extra: str = "") -> Path:
    corpus = folder / "faelle.jsonl"
    record = {"id": "f1", "bereich": "Zivilrecht", "sachverhalt": "K kauft ein Rad.", "musterlösung": "K hat ..."}
    corpus.write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    config = folder / "run.yaml"
    config.write_text(
        f"corpora: ['{corpus}']\nsystems:\n  - {{name: s, {_UNUSED}}}\njudges:\n  - {{name: j, {_UNUSED}}}\n{extra}",
        encoding="utf-8",
    )
    return config


def _state(path: Path) -> tuple[bytes, int, list[str]] | None:
    if not path.exists():
        return None
    return path.read_bytes(), os.stat(path).st_mtime_ns, sorted(p.name for p in path.parent.iterdir())


# bad selection -> (the config's extra lines, extra options, a phrase of the error)
BAD: dict[str, tuple[str, list[str], str]] = {
    "system-option": ("", ["--system", "nosuch"], "selects no system"),
    "task-filter": ("filters: {tasks: [nosuch]}\n", [], "selects no task"),
    "rubrics-corpus": ("rubrics: {faelleX: falloesung}\n", [], "'faelleX' is not a corpus of this run"),
}
COMMANDS = ["generate", "run", "judge"]


@pytest.mark.parametrize("store", ["missing", "existing"])
@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("bad", list(BAD), ids=str)
def test_a_bad_selection_writes_nothing(
    bad: str, command: str, store: str, tmp_path: Path, copy_of_migrated_sqlite: object
) -> None:
    extra, options, phrase = BAD[bad]
    if bad == "system-option" and command == "judge":
        pytest.skip("judge --system picks stored generations, it is no run filter")
    config = _config(tmp_path, extra)
    db = tmp_path / "db" / "m.db"
    db.parent.mkdir()
    if store == "existing":
        copy_of_migrated_sqlite(db)  # type: ignore[operator]
    before = _state(db)
    result = runner.invoke(app, [command, str(config), "--db", str(db), *options])
    assert result.exit_code == 2, result.output
    if command == "judge" and store == "missing":  # judging consumes a store that must exist (test_not_a_store)
        phrase = "no benger store here"
    assert phrase in result.output, result.output
    assert _state(db) == before  # no corpus added, no store created


@pytest.mark.parametrize("command", [["run", "--dry-run"], ["generate", "--dry-run"], ["estimate"]], ids=" ".join)
def test_a_dry_run_creates_no_store(command: list[str], tmp_path: Path) -> None:
    db = tmp_path / "dry.db"
    result = runner.invoke(app, [command[0], str(_config(tmp_path)), *command[1:], "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "Dry run" in result.output and "cost:" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["faelle.jsonl", "run.yaml"]  # nothing created


@pytest.mark.parametrize("command", [["run", "--dry-run"], ["estimate"]], ids=" ".join)
def test_a_dry_run_only_reads_an_existing_store(command: list[str], tmp_path: Path) -> None:
    config = _config(tmp_path)
    db = tmp_path / "db" / "est.db"
    db.parent.mkdir()
    assert runner.invoke(app, ["import", "demo", "--db", str(db)]).exit_code == 0
    before = _state(db)
    result = runner.invoke(app, [command[0], str(config), *command[1:], "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert _state(db) == before  # corpus faelle not imported, nothing else written
    listing = runner.invoke(app, ["corpora", "--db", str(db)])
    assert "faelle" not in listing.output.replace("faelle.jsonl", ""), listing.output
