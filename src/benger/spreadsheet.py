"""The one CSV writer of every export a person opens in a spreadsheet (the organiser's ``submissions.csv`` and
``reviews.csv``, ``leaderboard.csv``).

Spreadsheets (Excel, LibreOffice, Google Sheets) run a cell whose text begins with ``=``, ``+``, ``-`` or ``@``
as a formula, and some also after a leading tab or carriage return (CSV injection: a skip reason or an "AI tools
used" answer like ``=HYPERLINK(...)`` would run when the organiser opens the file). :func:`safe_cell` writes
such a *text* cell with a leading apostrophe (``'=1+1``), which spreadsheets show as the text itself; numbers
(int, float, bool) are written as the csv module writes them, so ``-1.5`` stays a number; None is the empty
cell. The rule follows OWASP's CSV injection guidance.

Data files that benger itself reads back (a user corpus written by ``benger corpus export --format csv``)
are not spreadsheets exports and keep their text exactly.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

#: A text cell starting with one of these is written with a leading apostrophe.
FORMULA_PREFIXES: tuple[str, ...] = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """``value`` as a spreadsheet shows it without running anything (see the module docstring)."""
    if value is None:
        return ""
    if isinstance(value, int | float):  # bool included: True/False as the csv module writes them
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_PREFIXES) else text


def write_csv(rows: Iterable[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """``rows`` (one mapping per line; missing keys are empty cells) under a header of ``columns``, as CSV
    text with ``\\n`` line ends, every cell passed through :func:`safe_cell`."""
    out = io.StringIO()
    plain = csv.writer(out, lineterminator="\n")
    # with "\n" line ends the csv module would leave a cell holding a lone CR unquoted (a broken row in
    # a spreadsheet): such a row is written with every cell quoted
    quoted = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for cells in ([safe_cell(c) for c in columns], *([safe_cell(row.get(c)) for c in columns] for row in rows)):
        (quoted if any(isinstance(c, str) and "\r" in c for c in cells) else plain).writerow(cells)
    return out.getvalue()
