"""Shared parts of the fuzz suite: the in-process command, the property check, the tally and copies.

The property for every bad input: exit code != 0 (2, the documented code for bad input or usage), one
message that names the input, no traceback, and the store unchanged. The tally of outcomes is printed at
the end of the run (``fuzz: ... bad inputs ...``) for the issue's notes.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from unittest import mock

import typer.main
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
RUNNER = CliRunner()
TALLY: Counter[str] = Counter()


COMMAND = typer.main.get_command(app)


def invoke(args: Sequence[str], stdin: str | None = None) -> Any:
    """The benger command in process, exactly as the console script runs it (the app's error boundary).

    The click command is built from the app once for the whole suite (typer rebuilds it per call otherwise).
    """
    with mock.patch("typer.testing._get_command", lambda _app: COMMAND):
        return RUNNER.invoke(app, list(args), input=stdin, env={"COLUMNS": "200", "BENGER_DEBUG": ""})


def outcome(result: Any, names: Sequence[str]) -> str:
    """clear | traceback | accepted | unclear: how the command answered a bad input."""
    output = result.output
    if "Traceback" in output or result.exit_code == 1 or not isinstance(result.exception, SystemExit | None):
        return "traceback"
    if result.exit_code == 0:
        return "accepted"
    # one message: one "error: ..." line of benger, or typer's one usage-error box
    starts = [line for line in output.splitlines() if line.startswith(("error: ", "Error: ", "╭─ Error"))]
    one_message = len(starts) == 1
    if result.exit_code == 2 and one_message and any(name in output for name in names):
        return "clear"
    return "unclear"


def check_rejected(result: Any, names: Sequence[str], store: Path | None = None, before: Any = None) -> None:
    """Assert the property for a known-bad input (and count the outcome)."""
    got = outcome(result, names)
    TALLY["bad inputs"] += 1
    TALLY[got] += 1
    changed = store is not None and dump(store) != before
    if changed:
        TALLY["stores changed"] += 1
    assert got == "clear", f"{got}: exit {result.exit_code}\n{result.output}"
    assert not changed, "the store changed"


def dump(store: Path) -> list[str]:
    """Every row of an SQLite store as SQL text (read-only)."""
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as connection:
        return list(connection.iterdump())


def store_copy(base: Path, folder: Path) -> Path:
    """A fresh copy of the demo store in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "store.db"
    shutil.copyfile(base, path)
    return path


def release_copy(release_dir: Path, root: Path) -> Path:
    """A release layout in ``root``: symlinks to the real files (a test replaces the one it mutates)."""
    for src in release_dir.rglob("*"):
        if src.is_file() and ".git" not in src.parts:
            dst = root / src.relative_to(release_dir)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.symlink_to(src)
    return root
