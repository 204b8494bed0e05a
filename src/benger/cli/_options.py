"""Options shared by several commands: the store, and the run selection of the core pipeline commands."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated, Any

import typer

from benger.config import MAX_RESAMPLES
from benger.errors import InputError

DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="BENGER_DB",
        help="Store: an SQLite file path (default ./benger.db) or a database URL (postgresql+psycopg://...).",
    ),
]

_CONFIG_HELP = "Run config (YAML); see examples/."
ConfigArg = Annotated[Path | None, typer.Argument(help=_CONFIG_HELP, show_default=False)]
CorpusOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--corpus", "-c", help="Corpus: a stored name, 'demo', a .jsonl/.csv file, 'zjs:PATH', 'release:PATH'."
    ),
]
SystemOpt = Annotated[list[str] | None, typer.Option("--system", "-s", help="System (catalog name); repeatable.")]
JudgeOpt = Annotated[list[str] | None, typer.Option("--judge", "-j", help="Judge (catalog name); repeatable.")]
TasksOpt = Annotated[str | None, typer.Option("--tasks", help="Comma-separated task ids to run.")]
LimitOpt = Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N tasks of each corpus.")]
ConcOpt = Annotated[int | None, typer.Option("--concurrency", min=1, help="Items in flight at once.")]
ExecOpt = Annotated[str | None, typer.Option("--executor", help="local (asyncio) or celery (benger worker processes).")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress display.")]


def seed_option(help_text: str = "Bootstrap seed.") -> Any:
    """``--seed``: an integer >= 0 (numpy refuses a negative seed, which was an internal error)."""
    return typer.Option("--seed", min=0, help=f"{help_text} An integer >= 0.")


def port_option(help_text: str = "Port.") -> Any:
    """``--port`` of every command that listens (serve, view, stub-server): 1 to 65535, checked before anything
    runs (a usage error, exit 2; 70000 was an OverflowError traceback from uvicorn, 0 a random port shown as 0)."""
    return typer.Option("--port", min=1, max=65535, help=f"{help_text} 1 to 65535.")


def require_free_port(host: str, port: int) -> None:
    """Refuse (InputError on ``--port``, exit 2) a ``port`` another program already listens on at ``host``, before a
    command that listens does any work: uvicorn logged the bind error and exited 3 (the exit code of an incomplete
    run), the stub server's OSError was reported as a bug. Probed as the servers bind (``SO_REUSEADDR``: a port
    left in TIME_WAIT by an earlier run is free)."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]  # fmt: skip
    except socket.gaierror as exc:
        raise InputError(f"cannot listen on {host!r}: {exc.strerror}; pass --host with an address of this machine",
                         field="--host") from None  # fmt: skip
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise InputError(f"port {port} on {host} is in use (another program listens there); pass --port "
                                 "with a free one", field="--port") from None  # fmt: skip
            raise InputError(f"cannot listen on {host}:{port}: {exc.strerror}", field="--port") from None


def resamples_option(flag: str = "--resamples", help_text: str = "Bootstrap resamples B.") -> Any:
    """``--resamples`` / ``--n-boot``: 100 to :data:`MAX_RESAMPLES` bootstrap resamples."""
    return typer.Option(flag, min=100, max=MAX_RESAMPLES, help=f"{help_text} 100 to {MAX_RESAMPLES:,}.")


def out_folder(value: Path | None) -> Path | None:
    """Typer callback of every ``--out PATH`` option: make sure PATH is a folder benger can write, before any work.

    An existing file (``--out /etc/passwd``) is ``a file, not a folder``; a folder that cannot be created or written
    (``--out /proc/x``) is ``cannot create``: both one-line input errors on ``--out`` (exit 2), as every output
    folder's refusal is (``view --bundle``, ``export hf``: benger.outputs), instead of an internal error after the
    command has done its work. The check creates the missing folders and one
    temporary probe file, then removes what it created (the command creates the folder when it writes), so a
    command that fails later leaves no empty folder. ``None`` (option not given) passes through unchanged.
    """
    if value is None:
        return None
    if value.exists() and not value.is_dir():
        raise InputError(f"{value}: a file, not a folder", field="--out")
    missing = [p for p in (value, *value.parents) if not p.exists()]
    try:
        value.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=value):
            pass
    except OSError as exc:
        why = exc.strerror or exc
        raise InputError(f"{value}: cannot create or write this folder ({why})", field="--out") from None
    finally:
        for created in missing:  # deepest first
            try:
                created.rmdir()
            except OSError:
                break
    return value


def out_option(help_text: str) -> Any:
    """A ``--out`` option with ``help_text`` whose value :func:`out_folder` validates (one place for all commands)."""
    return typer.Option("--out", help=help_text, callback=out_folder)


OutOpt = Annotated[Path | None, out_option("Write leaderboard.csv/.md/.json into this folder.")]


def local_threads(value: str | None) -> str | None:
    """Typer callback of ``--threads``: validate N or ``auto`` and set it for every local (llama.cpp) model this
    process runs, system and judge, over any ``params.n_threads`` of the config (benger.llm._llama)."""
    if value is None:
        return None
    from benger.errors import ConfigError
    from benger.llm._llama import parse_threads, set_threads_override

    try:
        set_threads_override(parse_threads(value, "--threads"))
    except ConfigError as exc:
        raise typer.BadParameter(str(exc).removeprefix("--threads: ")) from None
    return value


ThreadsOpt = Annotated[
    str | None,
    typer.Option(
        "--threads",
        envvar="BENGER_THREADS",
        callback=local_threads,
        help="llama.cpp threads of the local models: N, or auto (default: per call, the cores that other "
        "processes leave free, so a busy laptop never runs 2 threads on 1 free core).",
    ),
]


ModelOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--model",
        "-m",
        help="System as PROVIDER/MODEL (openai/gpt-5.4-mini, openai-compatible/qwen3-32b, local/smollm2-135m) or a "
        "catalog name; repeatable; replaces a config's systems.",
    ),
]
ModelBaseUrlOpt = Annotated[
    str | None, typer.Option("--model-base-url", help="base_url of --model (an OpenAI-compatible server).")
]
ModelArgOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--model-arg",
        "-M",
        metavar="KEY=VALUE",
        help="Setting of --model: temperature=0.2, max_output_tokens=4000, context_window=8192, or a provider "
        "parameter (top_p=0.9); repeatable.",
    ),
]
JudgeModelOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--judge-model", help="Judge as PROVIDER/MODEL or a catalog name; repeatable; replaces a config's judges."
    ),
]
JudgeModelBaseUrlOpt = Annotated[str | None, typer.Option("--judge-model-base-url", help="base_url of --judge-model.")]
JudgeModelArgOpt = Annotated[
    list[str] | None,
    typer.Option("--judge-model-arg", metavar="KEY=VALUE", help="Setting of --judge-model (as -M); repeatable."),
]
# benger serve
TrustedProxyOption = Annotated[
    list[str] | None,
    typer.Option(help="Address of a reverse proxy whose X-Forwarded-For is trusted (repeatable; default none)."),
]
RunExecutorOption = Annotated[
    str,
    typer.Option(
        help="Where runs launched from the browser make their model calls: local (threads of this server) "
        "or celery (benger worker processes on the same Redis and store)."
    ),
]
MaxBodyOption = Annotated[
    int,
    typer.Option(
        min=1,
        help="Largest request body taken, in MiB (413 above; uploads take at most 64 MiB). "
        "A reverse proxy in front should refuse larger bodies too.",
    ),
]


# --- flag pairs ------------------------------------------------------------------------------------------------
def flag_pairs(command: Any) -> list[tuple[Any, tuple[str, ...], tuple[str, ...]]]:
    """The flag pairs of ``command``: (option, its flags, the opposite flags) of each boolean option with two sides
    (Typer's ``"--x/--y"``, and a plain ``bool`` option without a name, which Typer makes ``--x/--no-x``)."""
    from typer.core import TyperOption

    return [
        (param, tuple(param.opts), tuple(param.secondary_opts))
        for param in command.params
        if isinstance(param, TyperOption) and param.is_bool_flag and param.secondary_opts
    ]


def refuse_opposite_flags(ctx: Any, command: Any, args: list[str], name: str | None = None) -> None:
    """A usage error (exit 2) naming both flags when ``args`` (the command line after ``command``'s name) gives
    both sides of one of its flag pairs: the parser would silently keep the last one given. For a group the
    check goes on with the subcommand that ``args`` names. The root group calls this for every command line."""
    from typer.core import TyperGroup

    tokens = args[: args.index("--")] if "--" in args else args
    here = typer.Context(command, parent=ctx, info_name=name) if name is not None else ctx
    for _, on, off in flag_pairs(command):
        given_on = next((t for t in tokens if t in on), None)
        given_off = next((t for t in tokens if t in off), None)
        if given_on is not None and given_off is not None:
            raise typer.BadParameter(
                "opposite flags: give one of them, not both", ctx=here, param_hint=[given_on, given_off]
            )
    if isinstance(command, TyperGroup):
        position = next((i for i, t in enumerate(tokens) if not t.startswith("-")), None)
        sub = None if position is None else command.get_command(here, tokens[position])
        if sub is not None and position is not None:
            refuse_opposite_flags(here, sub, tokens[position + 1 :], tokens[position])
