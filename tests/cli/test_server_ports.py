"""The commands that start a server listen on distinct default ports: the README starts the stub server in the
background (`benger stub-server &`, 8001) and then `benger serve` and `benger view`, which must not collide with it
(`benger view` on 8001 failed with "address already in use" after the README's stub line)."""

from __future__ import annotations

import typer.main
from typer.core import TyperGroup

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
