"""A command that loads its run config's corpora leaves no new store behind when a corpus source is bad.

H3's hostile run: `benger run CFG --db bc.db` with `corpora: [nofile.jsonl]` said "file not found" (exit 2) and
left a 344 KB empty store; `estimate` the same. The store is now created after the corpus sources are read.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()

SOURCES = {
    "missing file": ("nofile.jsonl", None, "file not found"),
    "bad JSON line": ("bad.jsonl", '{"id": "a", "bereich": \n', "bad.jsonl"),
    "unknown corpus name": ("no-such-corpus", None, "no-such-corpus"),
}
COMMANDS = [["run"], ["generate"], ["judge"], ["estimate"]]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("source", list(SOURCES))
def test_a_bad_corpus_source_leaves_no_new_store(tmp_path: Path, command: list[str], source: str) -> None:
    name, text, message = SOURCES[source]
    if text is not None:
        (tmp_path / name).write_text(text, encoding="utf-8")
    spec = str(tmp_path / name) if text is not None or name.endswith(".jsonl") else name
    config = tmp_path / "run.yaml"
    config.write_text(
        f"corpora: ['{spec}']\n"
        "systems:\n  - {name: s, provider: openai-compatible, model: m, base_url: 'http://127.0.0.1:9/v1'}\n"
        "judges:\n  - {name: j, provider: openai-compatible, model: m, base_url: 'http://127.0.0.1:9/v1'}\n",
        encoding="utf-8",
    )
    db = tmp_path / "new.db"
    result = runner.invoke(app, [*command, str(config), "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert message in result.output and "internal error" not in result.output
    assert not db.exists()
