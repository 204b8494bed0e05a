"""A legitimate long CSV cell (a whole Falllösung: 200,000 characters, past the csv module's default field limit
of 131,072) is read by every CSV reader, which all read through ``corpora._reading.csv_rows``; a truly malformed
file keeps one message naming the file and the line (it was "malformed CSV: field larger than field limit")."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.corpora import load_corpus_file
from benger.corpora._reading import csv_records
from benger.errors import InputError

LONG = "A. Anspruch des K gegen V aus § 433 Abs. 1 S. 1 BGB. " * 3800  # ~ 200,000 characters
assert len(LONG) > 200_000


def _write(path: Path, rows: list[list[str]]) -> Path:
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def _corpus(path: Path) -> Any:
    return load_corpus_file(path).tasks[-1].reference


def _records(path: Path) -> Any:
    return [row for _, row in csv_records(path, ("task_id", "reference"), "task_id, reference")][-1]["reference"]


READERS: list[tuple[str, Callable[[Path], Any]]] = [("corpus file", _corpus), ("csv_records", _records)]
ROWS = [["task_id", "area", "facts", "reference"], ["f1", "Zivilrecht", "K kauft von V.", "kurz"]]


@pytest.mark.parametrize(("name", "read"), READERS, ids=[name for name, _ in READERS])
def test_a_long_cell_is_read(tmp_path: Path, name: str, read: Callable[[Path], Any]) -> None:
    path = _write(tmp_path / "faelle.csv", [*ROWS, ["f2", "Zivilrecht", LONG, LONG]])  # facts and reference
    assert read(path) == LONG
    assert load_corpus_file(path).tasks[-1].facts == LONG


MALFORMED = [
    ("unclosed quote", 'task_id,area,facts,reference\nf1,Zivilrecht,"K kauft,kurz\nf2,x,y,z\n', 2, "unclosed quote"),
    ("text after a quote", 'task_id,area,facts,reference\nf1,Zivilrecht,"K" kauft,kurz\n', 2, "closing quote"),
    ("long unclosed quote", f'task_id,area,facts,reference\nf1,Zivilrecht,K,"{LONG}\n', 2, "unclosed quote"),
]


@pytest.mark.parametrize(("name", "read"), READERS, ids=[name for name, _ in READERS])
@pytest.mark.parametrize(("kind", "text", "line", "says"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_a_malformed_file_is_one_message_with_file_and_line(
    tmp_path: Path, name: str, read: Callable[[Path], Any], kind: str, text: str, line: int, says: str
) -> None:
    path = tmp_path / "faelle.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        read(path)
    message = str(info.value)
    assert f"{path}:{line}" in message and says in message, message
    assert "field limit" not in message


def test_import_reads_a_corpus_with_a_long_cell(tmp_path: Path) -> None:
    _register_commands()
    path = _write(tmp_path / "faelle.csv", [*ROWS[:1], ["f1", "Zivilrecht", "K kauft von V.", LONG]])
    result = CliRunner().invoke(app, ["import", str(path), "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 0, result.output
