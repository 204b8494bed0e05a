"""Issue 33, item 2: a UTF-16 file without a byte-order mark and a spreadsheet file are named as what they are.

Observed: ``benger import u16ascii.csv`` (UTF-16 without BOM) said "cannot tell the task kind", ``u16.jsonl``
"invalid JSON"/"not valid UTF-8"; ``benger import cases.xlsx`` (and ``.tsv``) said "field 'corpus': unknown
corpus source 'cases.xlsx'". Each is now one line naming the file, exit 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands
from benger.corpora._reading import read_text

_register_commands()
runner = CliRunner()

CSV = "task_id,area,title,facts,reference\nt1,Zivilrecht,Titel,Sachverhalt,Lösung\n"
JSONL = '{"task_id": "t1", "area": "Zivilrecht", "title": "T", "facts": "F", "reference": "Rä"}\n'


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
@pytest.mark.parametrize(("name", "text"), [("u16ascii.csv", CSV.replace("ö", "o")), ("u16.csv", CSV),
                                            ("u16.jsonl", JSONL)])  # fmt: skip
def test_utf16_without_bom_is_named(tmp_path: Path, codec: str, name: str, text: str) -> None:
    path = tmp_path / name
    path.write_bytes(text.encode(codec))
    result = runner.invoke(app, ["import", str(path), "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and "UTF-16" in lines[0] and "UTF-8" in lines[0], lines
    assert not (tmp_path / "s.db").exists()


@pytest.mark.parametrize("codec", ["utf-8", "utf-8-sig", "utf-16"])  # utf-16 writes its BOM
def test_utf8_and_utf16_with_bom_still_read(tmp_path: Path, codec: str) -> None:
    path = tmp_path / "c.csv"
    path.write_bytes(CSV.encode(codec))
    assert read_text(path) == CSV


@pytest.mark.parametrize(
    ("name", "what"),
    [("cases.xlsx", "Excel workbook"), ("cases.xls", "Excel workbook"), ("cases.ods", "OpenDocument"),
     ("cases.tsv", "tab-separated"), ("missing.xlsx", "Excel workbook")],
)  # fmt: skip
@pytest.mark.parametrize("command", ["import", "import-reviews"])
def test_a_spreadsheet_file_gets_the_save_as_csv_hint(tmp_path: Path, name: str, what: str, command: str) -> None:
    path = tmp_path / name
    if not name.startswith("missing"):
        path.write_bytes(b"PK\x03\x04" if name.endswith("x") else b"a\tb\n1\t2\n")
    db = tmp_path / "s.db"
    if command == "import-reviews":
        assert runner.invoke(app, ["import", "demo", "--db", str(db)]).exit_code == 0
    result = runner.invoke(app, [command, str(path), "--db", str(db)])
    assert result.exit_code == 2, result.output
    assert what in result.output and "CSV UTF-8" in result.output and str(path) in result.output
    assert "field 'corpus'" not in result.output and "unknown corpus source" not in result.output


def test_an_existing_file_of_another_type_is_named_as_a_file(tmp_path: Path) -> None:
    path = tmp_path / "cases.txt"
    path.write_text(CSV, encoding="utf-8")
    result = runner.invoke(app, ["import", str(path), "--db", str(tmp_path / "s.db")])
    assert result.exit_code == 2
    assert "unsupported file type '.txt'" in result.output and "field 'corpus'" not in result.output
