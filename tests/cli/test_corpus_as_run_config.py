"""A corpus file passed where a run config is expected says what the file is and what the command expects.

Observed (2026-12-04): ``benger generate corpus.jsonl`` said "corpus.jsonl:2: not valid YAML: expected
'<document start>', but found '{'", and ``benger run corpus.csv`` "a run config must be a YAML mapping": true,
but neither says that the file is a corpus nor what the command wants instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.errors import InputError
from benger.pipeline import load_run_config

_register_commands()
runner = CliRunner()

RECORDS = [
    {"id": "zr-01", "bereich": "Zivilrecht", "sachverhalt": "K kauft bei V.", "musterlösung": "A. Anspruch ..."},
    {"id": "zr-02", "bereich": "Zivilrecht", "sachverhalt": "V liefert nicht.", "musterlösung": "A. Anspruch ..."},
]
JSONL = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in RECORDS)
CSV = "id,bereich,sachverhalt,musterlösung\nzr-01,Zivilrecht,K kauft bei V.,A. Anspruch ...\n"


@pytest.mark.parametrize("command", ["generate", "run", "estimate", "judge"])
def test_a_jsonl_corpus_given_as_config_is_named_a_corpus(tmp_path: Path, command: str) -> None:
    path = tmp_path / "corpus.jsonl"
    path.write_text(JSONL, encoding="utf-8")
    result = runner.invoke(app, [command, str(path), "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 2, result.output
    assert f"error: {path}: this is a JSONL corpus file (one task per line), not a run config" in result.output
    assert f"--corpus {path}" in result.output
    assert "not valid YAML" not in result.output and "Traceback" not in result.output
    assert not (tmp_path / "s.db").exists()


#: (file name, text, what it is): by suffix, or by content under another suffix; None: read as a run config
CASES = [
    ("c.jsonl", JSONL, "a JSONL corpus file"),
    ("c.ndjson", JSONL, "a JSONL corpus file"),
    ("c.jsonl", JSONL.splitlines()[0], "a JSONL corpus file"),  # one line: still the corpus suffix
    ("c.csv", CSV, "a CSV corpus file"),
    ("c.CSV", CSV, "a CSV corpus file"),
    ("c.yaml", JSONL, "a JSONL corpus file"),
    ("c.txt", CSV, "a CSV corpus file"),
    ("c.yaml", "task_id,kind,area,case,question\n", "a CSV corpus file"),
    ("run.yaml", "corpora: [demo]\nsystems: [gpt-5.4]\n", None),
    ("run.json", '{"corpora": ["demo"], "systems": ["gpt-5.4"]}\n', None),  # a config as one JSON object
    ("run.yaml", "# id, facts\ncorpora: [demo]\nsystems: [gpt-5.4]\n", None),
]


@pytest.mark.parametrize(("name", "text", "what"), CASES)
def test_corpus_files_are_told_from_run_configs(tmp_path: Path, name: str, text: str, what: str | None) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    if what is None:
        assert load_run_config(path).corpora == ["demo"]
        return
    with pytest.raises(InputError) as err:
        load_run_config(path)
    assert err.value.file == str(path) and err.value.reason.startswith(f"this is {what}")
    assert "the command expects a run config" in err.value.reason
