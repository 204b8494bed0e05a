"""Every fault a dry run names stops a real run before its first model call (2026-12-04 attack, item 2).

Before: ``rubrics: {faelle: grundprinzipien}`` on a Falllösung corpus: ``benger estimate`` and ``benger run
--dry-run`` exited 2 before any call, but ``benger run`` made (and paid for) every generation and only then exited
2 ("scores grundprinzip tasks, but task 'mm-01' is a falloesung"), when judging began. The dry run and the real
run now share one preflight (``benger.pipeline._orchestrate.check_run``), so the table holds every kind of config
fault the dry run detects: each one exits 2 in the dry run, and in the real run exits 2 with the stub server
having received no request at all and the store (missing or existing) left byte for byte as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.store import open_store
from benger.testing.stub_server import run_stub_server

_register_commands()
runner = CliRunner()

RUBRIC_GP = """name: mine
version: "1"
title: T
kind: grundprinzip
graded: false
total: 20
step: 1
dimensions:
  - {key: a, label: A, label_en: A, max: 10}
  - {key: b, label: B, label_en: B, max: 10}
"""

# fault -> (run-config lines replacing the defaults (key -> YAML), extra options, a phrase of the one error)
FAULTS: dict[str, tuple[dict[str, str], list[str], str]] = {
    "rubric-kind-builtin": (
        {"rubrics": "{faelle: grundprinzipien}"},
        [],
        "scores grundprinzip tasks, but task 'f1' is a falloesung",
    ),
    "rubric-kind-file": ({"rubrics": "{faelle: mine.yaml}"}, [], "scores grundprinzip tasks, but task 'f1'"),
    "rubrics-corpus": ({"rubrics": "{faelleX: falloesung}"}, [], "'faelleX' is not a corpus of this run"),
    "task-filter": ({"filters": "{tasks: [nosuch]}"}, [], "selects no task"),
    "system-option": ({}, ["--system", "nosuch"], "selects no system"),
    "missing-corpus-file": ({"corpora": "[nosuch.jsonl]"}, [], "nosuch.jsonl"),
    "unknown-provider": ({"judges": "[{name: j, provider: nosuch, model: m}]"}, [], "nosuch"),
    "unknown-executor": ({"executor": "bogus"}, [], "field 'executor'"),
}


@pytest.fixture(scope="module")
def stub() -> Iterator[object]:
    with run_stub_server() as server:
        yield server


def _config(folder: Path, base_url: str, lines: dict[str, str]) -> Path:
    record = {"id": "f1", "bereich": "Zivilrecht", "sachverhalt": "K kauft ein Rad.", "musterlösung": "K hat ..."}
    (folder / "faelle.jsonl").write_text(json.dumps(record, ensure_ascii=False) + "\n", encoding="utf-8")
    (folder / "mine.yaml").write_text(RUBRIC_GP, encoding="utf-8")
    model = f"provider: openai-compatible, model: stub, base_url: '{base_url}'"
    fields = {"corpora": "[faelle.jsonl]", "systems": f"[{{name: s, {model}}}]", "judges": f"[{{name: j, {model}}}]"}
    fields.update(lines)
    config = folder / "run.yaml"
    config.write_text("".join(f"{key}: {value}\n" for key, value in fields.items()), encoding="utf-8")
    return config


def _state(path: Path) -> tuple[bytes, int, list[str]] | None:
    if not path.exists():
        return None
    return path.read_bytes(), os.stat(path).st_mtime_ns, sorted(p.name for p in path.parent.iterdir())


@pytest.mark.parametrize("store", ["missing", "existing"])
@pytest.mark.parametrize("fault", list(FAULTS), ids=str)
def test_a_fault_the_dry_run_names_stops_the_run_before_any_call(
    fault: str, store: str, stub: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines, options, phrase = FAULTS[fault]
    monkeypatch.chdir(tmp_path)  # the config's relative corpus and rubric paths
    config = _config(tmp_path, stub.base_url, lines)  # type: ignore[attr-defined]
    db = tmp_path / "db" / "s.db"
    db.parent.mkdir()
    if store == "existing":
        open_store(db).close()  # not ``benger import`` in this process: its new-store list outlives the command
    before = _state(db)
    dry = runner.invoke(app, ["run", str(config), "--db", str(db), "--dry-run", *options])
    assert dry.exit_code == 2 and phrase in dry.output, dry.output
    stub.log.clear()  # type: ignore[attr-defined]
    real = runner.invoke(app, ["run", str(config), "--db", str(db), "-q", *options])
    assert real.exit_code == 2 and phrase in real.output, real.output
    assert list(stub.log) == []  # type: ignore[attr-defined]  # not one request, so nothing paid for
    assert _state(db) == before


def test_the_rubric_kind_error_names_the_config_file(stub: object, tmp_path: Path) -> None:
    """As the config's other faults do (``run.yaml, field 'rubrics.falle'``)."""
    config = _config(tmp_path, stub.base_url, {"rubrics": "{faelle: grundprinzipien}"})  # type: ignore[attr-defined]
    config.write_text(config.read_text(encoding="utf-8").replace("[faelle.jsonl]", f"['{tmp_path}/faelle.jsonl']"))
    result = runner.invoke(app, ["run", str(config), "--db", str(tmp_path / "s.db"), "-q"])
    assert result.exit_code == 2, result.output
    assert result.output.startswith(f"error: {config}, field 'rubrics': "), result.output
