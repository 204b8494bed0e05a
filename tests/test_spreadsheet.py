"""The one CSV writer of spreadsheet exports (benger.spreadsheet): formula prefixes are neutralised, every
other cell is kept; no other module writes CSV for people to open (issue 25, observation 5)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benger.spreadsheet import FORMULA_PREFIXES, safe_cell, write_csv

SRC = Path(__file__).resolve().parents[1] / "src" / "benger"


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ('=HYPERLINK("http://x","klick")', '\'=HYPERLINK("http://x","klick")'),
        ("+49 30 123", "'+49 30 123"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1:A2)", "'@SUM(A1:A2)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("ChatGPT, Claude", "ChatGPT, Claude"),
        ("a=b", "a=b"),
        ("", ""),
        (None, ""),
        (-1.5, -1.5),
        (3, 3),
        (True, True),
    ],
)
def test_known_cells(value: object, cell: object) -> None:
    assert safe_cell(value) == cell


@given(st.lists(st.text(), min_size=1, max_size=5))
def test_property_no_cell_reads_back_as_a_formula(values: list[str]) -> None:
    columns = [f"c{i}" for i in range(len(values))]
    text = write_csv([dict(zip(columns, values, strict=True))], columns)
    [header, row] = list(csv.reader(io.StringIO(text, newline="")))
    assert header == columns
    for original, cell in zip(values, row, strict=True):
        assert not cell.startswith(FORMULA_PREFIXES)
        assert cell == ("'" + original if original.startswith(FORMULA_PREFIXES) else original)


def test_every_spreadsheet_export_uses_the_one_writer() -> None:
    writers = {
        str(p.relative_to(SRC))
        for p in SRC.rglob("*.py")
        if re.search(r"csv\.(writer|DictWriter)\(", p.read_text(encoding="utf-8"))
    }
    # the corpus CSV writer writes data benger reads back (exact text); everything else goes through spreadsheet.py
    assert writers == {"spreadsheet.py", "corpora/_user.py"}
