"""The report's document model: tables, figures, sections (atomic file writes: :mod:`benger.outputs`)."""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = str | int | float | None


@dataclass
class Table:
    """One table of the report. Cells are already formatted strings (``None`` prints as a dash).

    ``group_rows`` maps a row index to a group heading printed above that row (e.g. one block per judge).
    """

    id: str
    title: str
    columns: list[str]
    rows: list[list[Cell]]
    caption: str = ""
    inputs: str = ""
    method: str = ""
    notes: list[str] = field(default_factory=list)
    group_rows: dict[int, str] = field(default_factory=dict)


@dataclass
class Figure:
    """One figure, written as PNG and SVG; the paths are relative to the output folder."""

    id: str
    title: str
    path_png: str
    path_svg: str
    caption: str = ""
    inputs: str = ""
    method: str = ""


@dataclass
class Missing:
    """A placeholder for a table or figure whose inputs are absent: says what is missing and why."""

    id: str
    title: str
    reason: str


Item = Table | Figure | Missing


@dataclass
class Section:
    """A report section (one research question) holding tables, figures and placeholders in order."""

    id: str
    title: str
    intro: str = ""
    items: list[Item] = field(default_factory=list)
