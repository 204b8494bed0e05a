"""Root Typer app and the one error boundary of the ``benger`` command.

Every command runs inside :class:`_Boundary` (the app's group class), so the console script and
``typer.testing.CliRunner`` behave the same way:

* usage errors (unknown command or option, a bad option value, a missing argument) are typer's own
  exception classes (``typer.TyperException``: typer >= 0.24 ships its own copy of click); typer prints
  the usage and the message and exits with :data:`~benger.errors.EXIT_USAGE` (2);
* a :class:`~benger.errors.BengerError` (bad input, config or store) prints ``error: <message>`` and
  exits with :data:`~benger.errors.EXIT_INPUT` (2); so does an ``OSError`` that names a file (``error: FILE:
  Is a directory``: an output file that cannot be written, an input that cannot be read);
* any other exception is a bug: one line naming it and "run with --debug for the traceback", exit
  :data:`~benger.errors.EXIT_INTERNAL` (1). ``--debug`` (or ``BENGER_DEBUG=1``) prints the traceback first.
"""

from __future__ import annotations

import os
import sys
import traceback
import warnings
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from benger.errors import EXIT_INPUT, EXIT_INTERNAL, EXIT_USAGE, BengerError, InputError, InputWarning

#: Environment variable that turns on tracebacks (same as ``--debug``).
DEBUG_ENV = "BENGER_DEBUG"
_DEBUG_KEY = "benger.debug"


def _env_debug() -> bool:
    return os.environ.get(DEBUG_ENV, "").strip().lower() not in ("", "0", "false", "no", "off")


def benger_version() -> str:
    """The installed distribution's version (the package's ``__version__`` when not installed)."""
    from importlib import metadata

    try:
        return metadata.version("benger")
    except metadata.PackageNotFoundError:
        from benger import __version__

        return __version__


def _missing_extra(exc: ModuleNotFoundError) -> str | None:
    """'pip install ...' advice when ``exc`` names a package of one of benger's optional extras."""
    from importlib import metadata

    missing = (exc.name or "").split(".")[0].replace("_", "-").lower()
    if not missing:
        return None
    try:
        requirements = metadata.requires("benger") or []
    except metadata.PackageNotFoundError:
        return None
    for requirement in requirements:
        spec, _, marker = requirement.partition(";")
        name = spec.strip().split("[")[0]
        for sep in "<>=!~ (":
            name = name.split(sep)[0]
        if name.replace("_", "-").lower() == missing and "extra ==" in marker:
            extra = marker.split("extra ==")[1].strip().strip("'\"")
            return f"this feature needs the optional package '{name}': pip install 'benger[{extra}]'"
    return None


def english(exc: BengerError) -> str:
    """The message of ``exc`` in English, the CLI's language.

    A study error (``benger.study.StudyError``) carries a German template for the web UI; the CLI prints the
    English text of the UI's own table (``benger.web._i18n``), with the same file/line/field prefix. Without
    the web extra (no study errors can arise then) the German text is printed as it is.
    """
    template = getattr(exc, "template", None)
    if template is None or not isinstance(exc, InputError):
        return str(exc)
    try:
        from benger.web._i18n import message
    except ImportError:
        return str(exc)
    return str(InputError(message(exc, "en"), file=exc.file, line=exc.line, field=exc.field, record=exc.record))


#: what SQLite says of a file that is not (or no longer) a whole database
_DAMAGE = ("database disk image is malformed", "file is not a database")


def damaged_store(exc: BaseException) -> str | None:
    """SQLite's words when ``exc`` (or the driver error SQLAlchemy wraps in it) says the database file is damaged,
    else None. A truncated file is refused when the store opens; damage in the middle shows on the first read
    of the damaged page, in any command."""
    import sqlite3

    for err in (exc, getattr(exc, "orig", None), exc.__cause__):
        if isinstance(err, sqlite3.DatabaseError) and any(m in str(err) for m in _DAMAGE):
            return (str(err).strip().splitlines() or [""])[0]
    return None


def report_error(exc: BaseException, *, debug: bool) -> int:
    """Print ``exc`` the way the CLI does and return the exit code (2 for BengerError, 1 for a bug)."""
    if debug:
        traceback.print_exception(exc, file=sys.stderr)
    if isinstance(exc, BengerError):
        typer.secho(f"error: {english(exc)}", fg=typer.colors.RED, err=True)
        return EXIT_INPUT
    if isinstance(exc, EOFError):  # a prompt met the end of stdin (piped or closed input)
        typer.secho(
            "error: the input ended while benger was asking for a value; give it as an option instead",
            fg=typer.colors.RED,
            err=True,
        )
        return EXIT_USAGE
    if isinstance(exc, OSError) and exc.filename is not None:
        # a file benger must read or write is in the way (a folder named like an output file, a read-only file,
        # a full disk): the environment, not a bug; name the file (for a rename: its destination) and the reason
        path = exc.filename2 if exc.filename2 is not None else exc.filename
        typer.secho(f"error: {os.fsdecode(path)}: {exc.strerror or exc}", fg=typer.colors.RED, err=True)
        return EXIT_INPUT
    damage = damaged_store(exc)
    if damage is not None:  # a store file overwritten in the middle: SQLite meets it only when it reads there
        typer.secho(
            f"error: the SQLite store file is damaged ({damage}); restore it from a copy",
            fg=typer.colors.RED,
            err=True,
        )
        return EXIT_INPUT
    if isinstance(exc, ModuleNotFoundError):
        advice = _missing_extra(exc)
        if advice is not None:
            typer.secho(f"error: {advice}", fg=typer.colors.RED, err=True)
            return EXIT_INPUT
    first = (str(exc).strip().splitlines() or [""])[0]
    hint = "" if debug else "; run with --debug for the traceback"
    typer.secho(f"internal error: {type(exc).__name__}: {first} (a bug in benger{hint})", fg=typer.colors.RED, err=True)
    return EXIT_INTERNAL


def _shown(other: Any) -> Any:
    """A ``warnings.showwarning`` that prints an :class:`~benger.errors.InputWarning` as ``warning: <message>``
    on stderr (it names file, line and field) and hands every other warning to ``other``."""

    def show(message: Any, category: Any, filename: str, lineno: int, file: Any = None, line: Any = None) -> None:
        if isinstance(message, InputWarning):
            typer.secho(f"warning: {message}", fg=typer.colors.YELLOW, err=True)
        else:
            other(message, category, filename, lineno, file, line)

    return show


class _Boundary(TyperGroup):
    """The root group: runs the chosen command and turns its exceptions into one message and an exit code.

    Commands load on first use (``benger.cli._commands.COMMANDS``): ``benger CMD`` imports the module of CMD
    only, and the root's help lists stand-ins that carry each command's name and summary."""

    _listing = False  # True while the root's help is written: stand-ins instead of imported commands

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        from benger.cli._commands import LazyCommands

        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(self.commands)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)  # the names alone: TyperGroup's own reads every command

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        from benger.cli import _commands

        if self._listing and isinstance(self.commands, _commands.LazyCommands) and cmd_name not in self.commands.loaded:
            return _commands.listed_command(cmd_name)
        return self.commands.get(cmd_name)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        from benger.cli._options import refuse_opposite_flags

        name, command, rest = super().resolve_command(ctx, args)
        if command is not None:  # both sides of a flag pair: a usage error before the command parses its line
            refuse_opposite_flags(ctx, command, rest, name)
        return name, command, rest

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def invoke(self, ctx: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("default", InputWarning)  # each distinct warning once per command
            warnings.showwarning = _shown(warnings.showwarning)
            return self._invoke(ctx)

    def _invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except (typer.Exit, typer.Abort, typer.TyperException):
            raise  # exit codes, Ctrl-C and usage errors: typer prints these itself
        except BrokenPipeError:  # stdout's reader went away (benger systems | head -1): no error of benger
            from benger._console import leave_on_broken_pipe

            leave_on_broken_pipe()
        except Exception as exc:
            from benger.cli._execute import discard_new_empty_stores

            discard_new_empty_stores()  # a refused input leaves no new empty store file behind
            debug = bool(ctx.meta.get(_DEBUG_KEY)) or _env_debug()
            raise typer.Exit(report_error(exc, debug=debug)) from None


app = typer.Typer(
    name="benger",
    cls=_Boundary,
    help="BenGER: benchmark LLM systems on German subsumption-based legal reasoning.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"benger {benger_version()}")
        raise typer.Exit(0)


@app.callback()
def _root(
    ctx: typer.Context,
    debug: Annotated[
        bool,
        typer.Option("--debug", help=f"Show the full traceback of an error (or set {DEBUG_ENV}=1).", envvar=DEBUG_ENV),
    ] = False,
    version: Annotated[
        bool,
        typer.Option("--version", help="Print the benger version and exit.", callback=_print_version, is_eager=True),
    ] = False,
) -> None:
    """BenGER: benchmark LLM systems on German subsumption-based legal reasoning."""
    ctx.meta[_DEBUG_KEY] = debug


def _register_commands() -> None:
    """Register every command on ``app`` at once (the root group also loads each one on first use)."""
    from benger.cli import _commands

    if not app.registered_commands:
        _commands.register(app)


def _reader_gone() -> bool:
    """stdout is a pipe whose reader has closed it, or /dev/null because rich's own console (typer's help) found
    it so; the cause of an exit code 1 that typer gives a broken pipe outside a command (``--help``, ``--version``)."""
    import select
    import stat

    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else 1
        status = os.fstat(fd)
        if not stat.S_ISFIFO(status.st_mode):
            return os.path.samestat(status, os.stat(os.devnull))
        poll = select.poll()
    except (OSError, ValueError, AttributeError):
        return False
    poll.register(fd, select.POLLOUT)
    return any(events & (select.POLLERR | select.POLLHUP) for _, events in poll.poll(0))


def _stdout_is_pipe() -> bool:
    import stat

    try:
        return stat.S_ISFIFO(os.fstat(1).st_mode)
    except OSError:
        return False


def main() -> None:
    """Console entry point: the app in standalone mode; exits with the codes of :mod:`benger.errors`. A broken
    pipe on stdout (``benger systems | head -1``) ends quietly with exit code 141 wherever it happens."""
    from benger._console import leave_on_broken_pipe

    piped = _stdout_is_pipe()
    try:
        app()
    except SystemExit as exc:
        if exc.code == EXIT_INTERNAL and piped and _reader_gone():
            leave_on_broken_pipe()
        raise
    except BrokenPipeError:
        leave_on_broken_pipe()
    except Exception as exc:  # raised outside a command (registration, argument parsing of the root)
        sys.exit(report_error(exc, debug=_env_debug() or "--debug" in sys.argv[1:]))
