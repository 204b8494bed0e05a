"""The commands that start a server listen on distinct default ports: the README starts the stub server in the
background (`benger stub-server &`, 8001) and then `benger serve` and `benger view`, which must not collide with it
(`benger view` on 8001 failed with "address already in use" after the README's stub line)."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import typer.main
from typer.core import TyperGroup
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _register_commands


def _port_defaults(group: TyperGroup, prefix: str = "") -> dict[str, int]:
    found: dict[str, int] = {}
    for name, command in group.commands.items():
        if isinstance(command, TyperGroup):
            found |= _port_defaults(command, f"{prefix}{name} ")
            continue
        for param in command.params:
            if "--port" in getattr(param, "opts", ()):
                found[prefix + name] = int(str(param.default))
    return found


def test_server_commands_have_distinct_default_ports() -> None:
    _register_commands()
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    ports = _port_defaults(group)
    assert {"stub-server", "serve", "view"} <= set(ports)
    assert ports["stub-server"] == 8001  # examples/stub.yaml and the docs point at it
    assert ports["serve"] == 8000 and ports["view"] == 8002
    assert len(set(ports.values())) == len(ports), ports


def test_every_listening_command_refuses_a_port_in_use_before_any_work(tmp_path: Path) -> None:
    """uvicorn logged the bind error and exited 3 (an "incomplete" run), the stub server's OSError was reported as
    a bug in benger (attack of 2026-12-04): every command with ``--port`` says which port is taken, exit 2, and
    creates nothing (the store named by ``--db`` is not created)."""
    _register_commands()
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    commands = sorted(_port_defaults(group))
    assert {"stub-server", "serve", "view"} <= set(commands)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for command in commands:
            db = tmp_path / f"{command.replace(' ', '-')}.db"
            extra = ["--db", str(db)] if any("--db" in p.opts for p in _command(group, command).params) else []
            result = CliRunner().invoke(app, [*command.split(), "--port", str(port), *extra])
            assert result.exit_code == 2, (command, result.output)
            assert result.output.strip().splitlines() == [
                f"error: field '--port': port {port} on 127.0.0.1 is in use (another program listens there); "
                "pass --port with a free one"
            ], command
            assert not db.exists(), command


def _command(group: TyperGroup, name: str) -> Any:
    found: Any = group
    for part in name.split():
        found = found.commands[part]  # a group's subcommand (typer vendors its own click classes)
    return found
