"""``cli._execute.print_table`` piped: the table is laid out once (measuring it first to size the console laid it
out three times; issue 26), and the output is the table at its natural width as before, at any COLUMNS."""

from __future__ import annotations

import io

import pytest
from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from benger.cli._execute import PIPED_WIDTH, print_table


class Counted:
    """A cell that counts how often the table measures it."""

    measured = 0

    def __init__(self, text: str) -> None:
        self.text = Text(text)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        Counted.measured += 1
        return Measurement.get(console, options, self.text)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.text


def _table(cell: str = "Gemini-3.1-Flash-Lite-Preview", columns: int = 3) -> Table:
    table = Table(title="T", caption="a caption long enough to be wrapped at the table's width " * 3)
    for i in range(columns):
        table.add_column(f"c{i}", overflow="fold")
    table.add_row(*(f"{cell}{i}" for i in range(columns)))
    return table


def _at_natural_width(table: Table, columns: int) -> str:
    """What print_table printed before: a console as wide as the table's natural width (at least COLUMNS, at
    most PIPED_WIDTH), the table measured first."""
    probe = Console(width=columns)
    natural = Measurement.get(probe, probe.options.update_width(PIPED_WIDTH), table).maximum
    out = io.StringIO()
    Console(file=out, width=min(max(natural, columns), PIPED_WIDTH), markup=False).print(table)
    return out.getvalue()


def test_a_piped_table_is_measured_once(capsys: pytest.CaptureFixture[str]) -> None:
    table = Table()
    table.add_column("System")
    table.add_row(Counted("Gemini-3.1-Flash-Lite-Preview"))
    Counted.measured = 0
    print_table(table)
    assert "Gemini-3.1-Flash-Lite-Preview" in capsys.readouterr().out
    assert Counted.measured == 1


@pytest.mark.parametrize("columns", [40, 80, 160, 300, 2000])
@pytest.mark.parametrize(("cell", "n"), [("x", 2), ("Gemini-3.1-Flash-Lite-Preview", 6), ("w" * 120, 12)])
def test_a_piped_table_prints_as_at_its_natural_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, columns: int, cell: str, n: int
) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    print_table(_table(cell, n))
    printed = capsys.readouterr().out
    assert printed == _at_natural_width(_table(cell, n), columns)
    widest = max(len(line) for line in printed.splitlines())
    assert widest == (PIPED_WIDTH if len(cell) > 100 else len(printed.splitlines()[1]))  # 12 x 120: collapsed
