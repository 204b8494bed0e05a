"""Root Typer app; subcommand modules add themselves via ``register(app)``."""

from __future__ import annotations

import sys

import typer

from benger.errors import BengerError

app = typer.Typer(
    name="benger",
    help="BenGER: benchmark LLM systems on German subsumption-based legal reasoning.",
    no_args_is_help=True,
    add_completion=False,
)


def _register_commands() -> None:
    from benger.cli import _commands

    _commands.register(app)


def main() -> None:
    """Console entry point: runs the app and prints benger's own errors without a traceback."""
    _register_commands()
    try:
        app(standalone_mode=False)
    except BengerError as exc:
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        sys.exit(2)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        typer.secho("aborted", err=True)
        sys.exit(130)
    except Exception as exc:  # click usage errors
        import click

        if isinstance(exc, click.ClickException):
            exc.show()
            sys.exit(exc.exit_code)
        raise
