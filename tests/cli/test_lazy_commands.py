"""The root group loads each command on first use (issue 26: ``benger --help`` built all 24 commands): the table of
names and summaries in benger.cli._commands matches what the modules register, the root help reads the same as with
every command registered, and a command found lazily runs and suggests like a registered one."""

from __future__ import annotations

import inspect

import pytest
import typer
from typer.testing import CliRunner

from benger.cli import _commands
from benger.cli._app import _Boundary, _root

runner = CliRunner()


def _root_app(*, registered: bool) -> typer.Typer:
    """A root app as benger.cli._app builds it, with every command registered up front or none."""
    app = typer.Typer(name="benger", cls=_Boundary, no_args_is_help=True, add_completion=False)
    app.callback()(_root)
    if registered:
        _commands.register(app)
    return app


def test_the_table_names_every_registered_command_with_its_summary() -> None:
    registered: dict[str, str] = {}
    for module in _commands.COMMAND_MODULES:
        for name, command in _commands.load_module_commands(module.rsplit(".", 1)[1]).items():
            registered[name] = inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0]
    assert list(registered) == list(_commands.COMMANDS)  # same commands, in the help's order
    assert registered == {name: summary for name, (_, summary) in _commands.COMMANDS.items()}
    # the module the root loads for a command registers it (benger.cli._core registers _leaderboard's command
    # among its own, in the help's order; ``benger leaderboard`` loads _leaderboard alone)
    loaded = {module: _commands.load_module_commands(module) for module, _ in _commands.COMMANDS.values()}
    assert [name for name, (module, _) in _commands.COMMANDS.items() if name not in loaded[module]] == []


def test_the_root_help_reads_as_with_every_command_registered() -> None:
    lazy = runner.invoke(_root_app(registered=False), ["--help"], env={"COLUMNS": "100"})
    full = runner.invoke(_root_app(registered=True), ["--help"], env={"COLUMNS": "100"})
    assert lazy.exit_code == full.exit_code == 0
    assert lazy.output == full.output
    assert "leaderboard" in lazy.output and "import-reviews" in lazy.output


@pytest.mark.parametrize(
    ("argv", "code", "expected"),
    [
        (["systems"], 0, "qwen2.5-coder-0.5b-instruct"),  # a command loaded on first use runs
        (["export", "--help"], 0, "hf"),  # a sub-group (benger export hf) as well
        (["leaderbord"], 2, "Did you mean 'leaderboard'?"),  # typos are matched against every command name
        (["no-such-command"], 2, "No such command 'no-such-command'"),
    ],
)
def test_lazy_commands_run_and_suggest(argv: list[str], code: int, expected: str) -> None:
    result = runner.invoke(_root_app(registered=False), argv, env={"COLUMNS": "200"})
    assert result.exit_code == code, result.output
    assert expected in result.output


def test_a_lookup_loads_only_the_module_of_that_command() -> None:
    group = typer.main.get_command(_root_app(registered=False))
    assert isinstance(group, _Boundary) and isinstance(group.commands, _commands.LazyCommands)
    assert group.commands.loaded == {}
    assert group.get_command(None, "analyze") is not None  # type: ignore[arg-type]
    assert sorted(group.commands.loaded) == ["analyze", "reproduce"]  # benger.cli._report's two commands
