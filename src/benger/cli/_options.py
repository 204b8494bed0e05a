"""Options shared by every command."""

from __future__ import annotations

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
