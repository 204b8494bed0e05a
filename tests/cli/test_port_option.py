"""Issue 33, item 3: a port out of range is a usage error of the one shared ``--port`` option.

Observed: ``benger view --db R --port 70000`` (also -1; also ``serve``, ``stub-server``) printed a uvicorn
traceback ending "internal error: OverflowError ... (a bug in benger)", exit 1; ``--port 0`` printed the URL
``http://127.0.0.1:0/view/``; ``serve`` with a bad port wrote a secret_key into the store first.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import typer.main
from typer.core import TyperGroup
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands

_register_commands()
runner = CliRunner()
COMMANDS = ("view", "serve", "stub-server")


def _port_params(group: TyperGroup, prefix: str = "") -> dict[str, object]:
    found: dict[str, object] = {}
    for name, command in group.commands.items():
        if isinstance(command, TyperGroup):
            found |= _port_params(command, f"{prefix}{name} ")
        else:
            for param in command.params:
                if "--port" in getattr(param, "opts", ()):
                    found[prefix + name] = param
    return found


def test_every_port_option_is_1_to_65535() -> None:
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    params = _port_params(group)
    assert set(COMMANDS) <= set(params)
    for name, param in params.items():
        assert (getattr(param, "min", None), getattr(param, "max", None)) == (1, 65535), name


@pytest.mark.parametrize("port", ["70000", "65536", "-1", "0", "99999999999999999999"])
@pytest.mark.parametrize("command", COMMANDS)
def test_a_port_out_of_range_is_a_usage_error_before_anything_is_written(
    tmp_path: Path, command: str, port: str
) -> None:
    db = tmp_path / "s.db"
    args = [command, f"--port={port}"] + ([] if command == "stub-server" else ["--db", str(db)])
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Invalid value for '--port'" in result.output
    assert "internal error" not in result.output and "Traceback" not in result.output
    assert not db.exists()  # serve created the store and wrote its secret_key before the port failed
