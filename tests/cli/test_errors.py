"""The CLI's one error boundary: usage errors, benger's own errors and bugs, through the installed console script."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from benger.cli import app
from benger.cli._app import _Boundary, _register_commands
from benger.errors import EXIT_INPUT, EXIT_INTERNAL, EXIT_USAGE, InputError

_register_commands()
runner = CliRunner()
BENGER = Path(sys.executable).with_name("benger")


def _console(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """The installed ``benger`` console script (what a user runs)."""
    assert BENGER.is_file(), f"console script missing at {BENGER}: pip install -e ."
    base = {k: v for k, v in os.environ.items() if k != "BENGER_DEBUG"}
    full_env = {**base, "COLUMNS": "200", **(env or {})}
    return subprocess.run([str(BENGER), *args], capture_output=True, text=True, timeout=60, env=full_env)


# every usage error from the issue: unknown command, bad option values, a missing argument, an unknown option
USAGE_ERRORS = [
    (["frobnicate"], "No such command 'frobnicate'"),
    (["generate", "--limit", "0", "-s", "x"], "Invalid value for '--limit'"),
    (["generate", "--concurrency", "zwei", "-s", "x"], "Invalid value for '--concurrency'"),
    (["import"], "Missing argument"),
    (["leaderboard", "-q"], "No such option: -q"),
    (["run", "--repeats", "2"], "No such option: --repeats"),
    (["judge", "--repeats", "0", "-j", "x"], "Invalid value for '--repeats'"),
    (["leaderboard", "--resamples", "viele"], "Invalid value for '--resamples'"),
]


@pytest.mark.parametrize(("args", "message"), USAGE_ERRORS)
def test_usage_errors_in_process(args: list[str], message: str, tmp_path: Path) -> None:
    result = runner.invoke(app, [*args, "--db", str(tmp_path / "x.db")] if args[0] == "leaderboard" else args)
    assert result.exit_code == EXIT_USAGE, result.output
    assert message in result.output and "Usage: " in result.output
    assert "Traceback" not in result.output
    assert not isinstance(result.exception, Exception) or isinstance(result.exception, SystemExit)


def test_usage_errors_through_the_console_script() -> None:
    for args, message in USAGE_ERRORS[:5]:
        proc = _console(*args)
        assert proc.returncode == EXIT_USAGE, (args, proc.stderr)
        assert message in proc.stderr and "Traceback" not in proc.stderr + proc.stdout
        assert proc.stderr.count("Usage: ") == 1


def test_version() -> None:
    proc = _console("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"benger {metadata.version('benger')}"
    assert runner.invoke(app, ["--version"]).output.strip() == f"benger {metadata.version('benger')}"


def test_benger_error_is_one_line_and_exit_2(tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    proc = _console("leaderboard", "--db", str(missing))
    assert proc.returncode == EXIT_INPUT
    assert proc.stderr == f"error: {missing}: no benger store here (run benger import/generate first, or pass --db)\n"
    assert not missing.exists()


def test_debug_flag_and_env_show_the_traceback(tmp_path: Path) -> None:
    missing = str(tmp_path / "typo.db")
    for proc in (
        _console("--debug", "leaderboard", "--db", missing),
        _console("leaderboard", "--db", missing, env={"BENGER_DEBUG": "1"}),
    ):
        assert proc.returncode == EXIT_INPUT
        assert "Traceback (most recent call last)" in proc.stderr and "open_engine" in proc.stderr
        assert proc.stderr.rstrip().splitlines()[-1].startswith("error: ")


def _buggy_app() -> typer.Typer:
    """An app with the boundary of the benger command and one command that has a bug."""
    buggy = typer.Typer(cls=_Boundary)

    @buggy.callback()
    def root(ctx: typer.Context, debug: bool = typer.Option(False, "--debug")) -> None:
        ctx.meta["benger.debug"] = debug

    @buggy.command()
    def divide(n: int) -> None:
        typer.echo(str(1 // n))

    @buggy.command()
    def bad_input() -> None:
        raise InputError("expected a number", file="x.csv", line=3, field="y")

    return buggy


def test_an_unexpected_exception_is_one_line_naming_it() -> None:
    buggy = _buggy_app()
    result = runner.invoke(buggy, ["divide", "0"])
    assert result.exit_code == EXIT_INTERNAL
    lines = result.output.strip().splitlines()
    assert lines == [
        "internal error: ZeroDivisionError: integer division or modulo by zero "
        "(a bug in benger; run with --debug for the traceback)"
    ]
    debug = runner.invoke(buggy, ["--debug", "divide", "0"])
    assert debug.exit_code == EXIT_INTERNAL
    assert "Traceback (most recent call last)" in debug.output and "1 // n" in debug.output
    result = runner.invoke(buggy, ["bad-input"])
    assert result.exit_code == EXIT_INPUT
    assert result.output == "error: x.csv:3, field 'y': expected a number\n"


def test_a_bug_in_a_real_command_through_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    import benger.llm

    def broken_catalog() -> None:
        raise KeyError("tier")

    monkeypatch.setattr(benger.llm, "load_catalog", broken_catalog)
    result = runner.invoke(app, ["systems"])
    assert result.exit_code == EXIT_INTERNAL
    assert result.output.strip().splitlines() == [
        "internal error: KeyError: 'tier' (a bug in benger; run with --debug for the traceback)"
    ]


def test_missing_optional_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import benger.llm

    def needs_sacrebleu() -> None:
        raise ModuleNotFoundError("No module named 'sacrebleu'", name="sacrebleu")

    monkeypatch.setattr(benger.llm, "load_catalog", needs_sacrebleu)
    result = runner.invoke(app, ["systems"])
    assert result.exit_code == EXIT_INPUT
    assert result.output.strip() == (
        "error: this feature needs the optional package 'sacrebleu': pip install 'benger[metrics]'"
    )


def test_a_prompt_that_meets_the_end_of_input(tmp_path: Path) -> None:
    # before: "internal error: EOFError" (exit 1) when `study create-user` asked for a password on closed stdin
    result = runner.invoke(app, ["study", "create-user", "anna", "--role", "reviewer", "--db", str(tmp_path / "s.db")])
    assert result.exit_code == EXIT_USAGE
    assert (
        result.output.strip()
        .splitlines()[-1]
        .endswith("error: the input ended while benger was asking for a value; give it as an option instead")
    )
