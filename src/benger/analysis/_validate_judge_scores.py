"""The scores of a recorded judge for ``benger validate-judge --recorded FILE.csv`` (columns ``solution_id,score``).

The file is read like every other input file of benger (:mod:`benger.corpora._reading`): UTF-8 with or
without a byte-order mark (or UTF-16 with its mark), comma-separated, a quoted cell may hold commas. Every
problem is one :class:`~benger.errors.InputError` naming the file, the line and the column: bad bytes, a
missing column, a row with too few or too many cells, an empty id, a score that is not a number in 0..100,
a pick scored twice (one value would silently replace the other), an id that is not a released pick, and a
file with no scores at all (nothing would be validated).
"""

from __future__ import annotations

import math
from collections.abc import Collection
from pathlib import Path

from benger.corpora._reading import csv_records
from benger.errors import InputError

COLUMNS = ("solution_id", "score")


def read_recorded_scores(path: Path, picks: Collection[str] | None = None) -> dict[str, float]:
    """Pick id -> raw score (0-100) from the CSV at ``path``; ``picks``: the released pick ids, when known."""
    scores: dict[str, float] = {}
    first_line: dict[str, int] = {}
    for line, cells in csv_records(path, COLUMNS, "expected the columns solution_id,score"):
        sid, raw = cells["solution_id"].strip(), cells["score"].strip()
        if not sid:
            raise InputError("empty solution_id", file=path, line=line, field="solution_id")
        if picks is not None and sid not in picks:
            raise InputError(f"{sid!r} is not a released validation pick", file=path, line=line, field="solution_id")
        if sid in first_line:
            raise InputError(
                f"{sid!r} is scored twice (first on line {first_line[sid]}); give one score per pick",
                file=path,
                line=line,
                field="solution_id",
            )
        try:
            value = float(raw)
        except ValueError:
            raise InputError(f"not a number: {raw!r}", file=path, line=line, field="score") from None
        if not (math.isfinite(value) and 0 <= value <= 100):
            raise InputError(f"{raw} is not a raw score in 0..100", file=path, line=line, field="score")
        scores[sid], first_line[sid] = value, line
    if not scores:
        raise InputError("no scores below the header: nothing to validate", file=path)
    return scores
