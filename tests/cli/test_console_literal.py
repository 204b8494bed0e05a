"""benger prints data literally: rich markup in names, ids and captions is never interpreted.

Observed: the release demo's leaderboard caption lost "[a441f5cf, falloesung@1]" (it looks like a style tag)
but kept "[5a514ce5, grundprinzipien@1+0a6137a3]"; a closing tag such as "[/]" in a system name would raise.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from rich.table import Table

import benger
from benger._console import console
from benger.cli._execute import print_table

TEXTS = [
    "judge config [a441f5cf, falloesung@1]",  # the observed caption
    "[bold]Opus-4.7[/bold]",
    "[red]x",
    "closing [/] tag",
    "[link=https://example.org]paper[/link]",
    "Qwen [0388ba5c]",
    "[/i]",
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_table_prints_names_and_caption_literally(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    table = Table(title=f"T {text}", caption=f"cap {text}")
    table.add_column("System")
    table.add_row(text)
    print_table(table)
    out = capsys.readouterr().out
    assert out.count(text) >= 2  # the cell and the caption (the title too, unless wrapped)


@pytest.mark.parametrize("text", TEXTS)
def test_console_prints_text_literally(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    console(width=200).print(text)
    assert capsys.readouterr().out == text + "\n"


def test_every_console_comes_from_the_one_factory() -> None:
    """No module but benger/_console.py constructs a rich Console (each one would default to markup on)."""
    root = Path(benger.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        if path.name == "_console.py" and path.parent == root:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
                if name == "Console":
                    offenders.append(f"{path.relative_to(root)}:{node.lineno}")
    assert offenders == []
