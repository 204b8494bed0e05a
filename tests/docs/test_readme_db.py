"""README's sentence about `--db` names exactly the commands that take no store (checked against the CLI); a command
that names its store as the argument STORE (``export hf STORE DIR``) takes one."""

from __future__ import annotations

import re
from pathlib import Path

import typer.main
from typer.core import TyperGroup

from benger.cli import app
from benger.cli._app import _register_commands

README = Path(__file__).resolve().parents[2] / "README.md"


def _without_db(group: TyperGroup, prefix: str = "") -> set[str]:
    missing: set[str] = set()
    for name, command in group.commands.items():
        if isinstance(command, TyperGroup):
            missing |= _without_db(command, f"{prefix}{name} ")
        elif not any(
            "--db" in getattr(p, "opts", ()) or getattr(p, "metavar", None) == "STORE" for p in command.params
        ):
            missing.add(prefix + name)
    return missing


def test_readme_names_the_commands_without_db() -> None:
    text = " ".join(README.read_text(encoding="utf-8").split())
    match = re.search(r"Every command that reads or writes a store takes `--db`.*?; (.*?) use no store", text)
    assert match, "README lost its sentence on --db"
    named = set(re.findall(r"`([a-z-]+)`", match.group(1)))
    _register_commands()  # what `benger` does before it parses the command line
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    assert named == _without_db(group)
