"""Options shared by several commands: the store, and the run selection of the core pipeline commands."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

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
RequiredConfigArg = Annotated[Path, typer.Argument(help=_CONFIG_HELP)]
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
OutOpt = Annotated[Path | None, typer.Option("--out", help="Write leaderboard.csv/.md/.json into this folder.")]
