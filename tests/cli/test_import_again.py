"""Importing the same records twice says that the second import wrote nothing (2026-12-02, new-user attack).

Before, ``benger import release:DIR`` run a second time on the same store printed the full counts again
("generations: 208", ...) with no hint that nothing new was written. Now each line says how many rows the import
wrote (new or changed: the database's own count of the upserts) and how many were in the store already, and a
last line says when nothing was written. One table: each bulk source of ``benger import``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()
LINE = re.compile(r"^(\w+): (\d+)(?: \((\d+) written(?:, (\d+) already in the store)?\))?$")


def _invoke(*args: str) -> str:
    result = runner.invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    return result.output


def _counts(output: str) -> dict[str, tuple[int, int, int]]:
    """kind -> (total, written, already in the store), from the count lines of an import."""
    counts = {}
    for line in output.splitlines():
        match = LINE.match(line)
        if match:
            total, written, present = (int(g) if g is not None else 0 for g in match.group(2, 3, 4))
            counts[match.group(1)] = (total, written, present)
    return counts


def _hf_folder(tmp_path: Path) -> str:
    source = tmp_path / "demo.db"
    _invoke("import", "demo", "--db", str(source))
    _invoke("export", "hf", str(source), str(tmp_path / "hf"))
    return f"hf:{tmp_path / 'hf'}"


# source -> (the import's source argument, made in tmp_path; its name in the last line; kinds it must hold)
SOURCES: dict[str, tuple[Callable[[Path, Path], str], str, set[str]]] = {
    "release": (lambda _t, release: f"release:{release}", "this release", {"generations", "human_reviews"}),
    "hf": (lambda tmp, _r: _hf_folder(tmp), "these records", {"corpora", "tasks"}),
}


@pytest.mark.release
@pytest.mark.parametrize("source", list(SOURCES), ids=str)
def test_a_second_import_says_nothing_new(source: str, tmp_path: Path, release_dir: Path) -> None:
    make, what, kinds = SOURCES[source]
    argument = make(tmp_path, release_dir)
    db = str(tmp_path / "s.db")
    first = _invoke("import", argument, "--db", db)
    counts = _counts(first)
    assert kinds <= set(counts), first
    assert all(written == total and present == 0 for total, written, present in counts.values()), first
    assert "nothing new" not in first
    again = _invoke("import", argument, "--db", db)
    assert _counts(again) == {k: (total, 0, total) for k, (total, _, _) in counts.items()}, again
    assert again.rstrip().splitlines()[-1] == f"nothing new: the store already holds {what} (nothing was written)"
