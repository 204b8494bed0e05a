"""Alembic environment: runs on the connection ``open_store`` passes in, or on a URL for developers."""

from __future__ import annotations

import contextlib

from alembic import context
from sqlalchemy import create_engine

from benger.config import database_url
from benger.store import (
    _models,  # noqa: F401  (registers the core tables on Base.metadata)
    _orgs,  # noqa: F401  (the organisation tables)
)
from benger.store._base import Base

with contextlib.suppress(ImportError):
    import benger.study._models  # (the human-study tables, when that module exists)
    import benger.study._workbench_models  # noqa: F401  (the workbench's keys and runs)

target_metadata = Base.metadata


def _run(connection: object) -> None:
    context.configure(
        connection=connection,  # type: ignore[arg-type]
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",  # type: ignore[attr-defined]
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Use the caller's connection (``config.attributes['connection']``) or connect to the configured URL."""
    config = context.config
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url") or database_url(None)
    engine = create_engine(url)
    with engine.connect() as own:
        _run(own)
        own.commit()
    engine.dispose()


def run_migrations_offline() -> None:
    """Emit SQL instead of executing it (``alembic upgrade head --sql``)."""
    url = context.config.get_main_option("sqlalchemy.url") or database_url(None)
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
