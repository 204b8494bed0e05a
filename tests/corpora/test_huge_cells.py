"""Huge texts in a user corpus are read with a warning naming file, line and field.

Observed (2026-12-04): a JSONL/CSV corpus whose one cell held 1.5 MB of text (a pasted document) imported without a
word. Now the import warns (``InputWarning``: the CLI prints ``warning: ...`` on stderr and goes on); whether a
prompt fits a model is the estimate's and the run's check (tests/cli/test_estimate_unknown_window.py).
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.corpora import load_corpus_file
from benger.corpora._user import LARGE_TEXT_CHARS
from benger.errors import InputWarning

_register_commands()
runner = CliRunner()

FALL = {"id": "zr-01", "bereich": "Zivilrecht", "sachverhalt": "K kauft.", "musterlösung": "A. Anspruch ..."}
PRINCIPLE = {"id": "gp-01", "bereich": "Strafrecht", "fall": "T lädt.", "frage": "Analogie?", "antwort": "Ja",
             "begründung": "Strom ist keine Sache."}  # fmt: skip


def _jsonl(path: Path, *records: dict[str, str]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def test_importing_a_corpus_with_a_huge_cell_warns_naming_file_line_and_field(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "gross.jsonl", {**FALL, "id": "a"}, {**FALL, "sachverhalt": "x" * 1_500_000})
    result = runner.invoke(app, ["import", str(path), "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 0, result.output
    assert (
        f"warning: {path}:2, field 'sachverhalt': a text of 1,500,000 characters (over 200,000): longer than the "
        "context window of many models"
    ) in " ".join(result.output.split())
    assert result.output.count("warning:") == 1


#: (record, field as spelled in the file, its length) -> warned?
CASES = [
    (FALL, "sachverhalt", LARGE_TEXT_CHARS, False),
    (FALL, "sachverhalt", LARGE_TEXT_CHARS + 1, True),
    (FALL, "musterlösung", 3 * LARGE_TEXT_CHARS, True),
    (PRINCIPLE, "fall", LARGE_TEXT_CHARS + 1, True),
    (PRINCIPLE, "frage", LARGE_TEXT_CHARS + 1, True),
    (PRINCIPLE, "begründung", LARGE_TEXT_CHARS + 1, True),
    (FALL, "notiz", 2 * LARGE_TEXT_CHARS, False),  # kept in meta, never part of a prompt
]


@pytest.mark.parametrize(("record", "field", "size", "warned"), CASES)
@pytest.mark.parametrize("suffix", [".jsonl", ".csv"])
def test_huge_text_fields_table(
    tmp_path: Path, record: dict[str, str], field: str, size: int, warned: bool, suffix: str
) -> None:
    data = {**record, field: "y" * size}
    path = tmp_path / f"c{suffix}"
    if suffix == ".csv":
        path.write_text(",".join(data) + "\n" + ",".join(data.values()) + "\n", encoding="utf-8")
    else:
        _jsonl(path, data)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        corpus = load_corpus_file(path)
    assert len(corpus.tasks) == 1  # read all the same
    mine = [str(w.message) for w in caught if issubclass(w.category, InputWarning)]
    line = 2 if suffix == ".csv" else 1
    if warned:
        assert len(mine) == 1 and mine[0].startswith(f"{path}:{line}, field '{field}': a text of {size:,} characters")
    else:
        assert mine == []
