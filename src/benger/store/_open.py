"""Opening a store: the one place that decides whether opening may create or migrate what ``--db`` names.

:func:`benger.store.open_store`, :func:`benger.store.open_reader` and :meth:`Store.reopen` call :func:`open_engine`.

* ``create=True`` (the commands that write: import, run, generate, judge, demo, metrics, serve, study
  create-user, ...): a store is created only where nothing is yet: a missing or empty (0-byte) SQLite file, or
  a database without any table. Another program's database (tables, but no ``alembic_version``) is refused
  as a reader refuses it, left byte for byte as it was; an older store is upgraded.
* ``create=False`` (the commands that read a store, or write only into one that exists: leaderboard, corpora,
  view, analyze, errors, inspect-solution, export, every ``study`` command but create-user, import-reviews,
  validate-judge --corpus): the location must hold a benger store already. A missing file, an empty file or
  database, a file that is no SQLite database (a text file), another program's database (no ``alembic_version``
  table) and a store of a newer benger (a schema revision this benger does not know) are refused with an
  :class:`~benger.errors.InputError` that names the file or URL, before anything is written: the file is left
  byte for byte as it was (the SQLite check reads it through a plain connection of its own, since the store's
  connections switch the journal mode to WAL). A benger store of an older revision is upgraded, as for a writer.
* Either way a store of a newer benger (a revision this benger does not know) is refused before anything is
  written, naming the SQLite file (the URL for a server database), not Alembic's complaint about the URL.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import Engine, inspect, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import SQLAlchemyError

from benger.errors import ConfigError, InputError
from benger.store import _fulltext
from benger.store._engine import (
    SQLITE_BEGIN,
    _first_line,
    _sqlite_read_only,
    create_store_engine,
    is_read_only,
    known_revisions,
    parse_url,
    shown,
    upgrade,
)

#: what to do instead, in every refusal
_CREATE = "run benger import/generate first, or pass --db"
#: what to do instead when a writer meets another program's database
_WRITE = "pass --db with a new file or a benger store"
#: what SQLite says of a file that is not (or no longer) a whole database: the CLI reports the damage
_DAMAGE = ("database disk image is malformed", "file is not a database")


def open_engine(db: str | Path | None, *, create: bool, read_only: bool = False) -> Engine:
    """The engine of the store at ``db`` (a path or URL; ``BENGER_DB``; ``./benger.db``), upgraded to the newest
    migration. ``create=False``: refuse (InputError, nothing written) what is not a benger store yet.
    ``read_only`` (a dry run, with ``create=False``): an engine that writes nothing, left at the store's revision
    (:func:`benger.store._engine.pending_upgrade` says whether a writer would upgrade it)."""
    from benger.config import database_url

    if read_only and create:
        raise ValueError("a read-only store is never created")
    url = parse_url(database_url(db))
    path = _sqlite_file(url)
    if not create and path is not None and not path.exists():
        raise InputError(f"no benger store here ({_CREATE})", file=path)
    engine = create_store_engine(url, read_only=read_only)  # checks the path; connects only when first used
    name = str(path) if path is not None else shown(url)  # what a refusal names: the file, else the URL
    try:
        if not create:
            tables, revisions = _sqlite_contents(path) if path is not None else _server_contents(engine)
            require_benger_store(name, tables, revisions)
        else:  # a writer creates and upgrades, but never in another program's database or a newer store
            tables, revisions = _writer_contents(path, engine)
            if tables:
                require_benger_store(name, tables, revisions, advice=_WRITE)
        if not read_only:
            upgrade(engine)
        if create:  # a writer indexes what earlier writers queued (a killed run, a study's submissions)
            sync_search_index(engine)
    except BaseException:
        engine.dispose()
        raise
    return engine


def sync_search_index(engine: Engine) -> int:
    """Index the rows written since the last sync (:func:`benger.store._fulltext.sync`) in one write transaction;
    how many. Nothing is locked when nothing is queued (one read per text table)."""
    if engine.dialect.name != "sqlite" or is_read_only(engine):
        return 0
    with engine.connect() as connection:
        if not _fulltext.queued(connection):
            return 0
    with engine.execution_options(**{SQLITE_BEGIN: "IMMEDIATE"}).begin() as connection:
        return _fulltext.sync(connection)


def _sqlite_file(url: URL) -> Path | None:
    """The file of an SQLite URL (None for other backends, and for forms that create_store_engine refuses)."""
    database = url.database or ""
    if url.get_backend_name() != "sqlite" or database in ("", ":memory:") or database.startswith("file:"):
        return None
    return Path(database).expanduser()


def _writer_contents(path: Path | None, engine: Engine) -> tuple[list[str], list[str]]:
    """What a writer finds at its location: nothing in a missing or empty (0-byte) file, else its tables and
    ``alembic_version`` rows (read without writing, as for a reader)."""
    if path is not None:
        return _sqlite_contents(path) if path.exists() and path.stat().st_size else ([], [])
    return _server_contents(engine)


def _sqlite_contents(path: Path) -> tuple[list[str], list[str]]:
    """(table names, rows of ``alembic_version``) of the SQLite file, read through a plain connection of its own:
    no pragma, no write (``mode=rw`` creates no file; the last connection to close removes a WAL store's -wal and
    -shm files, which a ``mode=ro`` one would leave behind), read-only where the store's engine would be."""
    if path.stat().st_size == 0:
        raise InputError(f"empty file, not a benger store ({_CREATE})", file=path)
    # SQLite itself reads the header: a file opened and closed by anything but SQLite drops every POSIX lock this
    # process holds on it, and another connection's WAL then looks unused and is checkpointed away under a writer
    # (sqlite.org/howtocorrupt.html, 2.2): a killed run's store came back "malformed" (tests/store/test_open_locks.py)
    mode = _sqlite_read_only(path) or "mode=rw"
    try:
        connection = sqlite3.connect(f"file:{quote(path.resolve().as_posix())}?{mode}", uri=True)
        try:
            tables = [r[0] for r in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
            revisions = []
            if "alembic_version" in tables:
                revisions = [str(r[0]) for r in connection.execute("SELECT version_num FROM alembic_version")]
        finally:
            connection.close()
    except sqlite3.DatabaseError as exc:
        if "file is not a database" in str(exc):  # a text file, a CSV, a header damaged ...: never a store
            raise InputError(f"not an SQLite database, not a benger store ({_CREATE})", file=path) from exc
        if any(words in str(exc) for words in _DAMAGE):
            raise  # the CLI says the file is damaged (benger.cli._app.damaged_store)
        raise ConfigError(f"cannot read the store {path}: {exc}") from exc
    return [t for t in tables if not t.startswith("sqlite_")], revisions


def _server_contents(engine: Engine) -> tuple[list[str], list[str]]:
    """(table names, rows of ``alembic_version``) of a PostgreSQL database (its default schema)."""
    try:
        with engine.connect() as connection:
            tables = list(inspect(connection).get_table_names())
            revisions = []
            if "alembic_version" in tables:
                found = connection.execute(text("SELECT version_num FROM alembic_version")).scalars()
                revisions = [str(v) for v in found]
    except SQLAlchemyError as exc:
        raise ConfigError(f"cannot open the store at {shown(engine.url)}: {_first_line(exc)}") from exc
    return tables, revisions


def require_benger_store(name: str, tables: list[str], revisions: list[str], *, advice: str = _CREATE) -> None:
    """InputError naming ``name`` unless its tables and ``alembic_version`` rows are those of a benger store of
    a revision this benger knows (its own head or an older one, which opening upgrades); ``advice``: what to
    do instead (a reader's or a writer's)."""
    if "alembic_version" not in tables:
        if not tables:
            raise InputError(f"empty database, not a benger store ({advice})", file=name)
        listed = ", ".join(sorted(tables)[:5]) + (f" and {len(tables) - 5} more" if len(tables) > 5 else "")
        raise InputError(
            f"not a benger store (no alembic_version table; it holds: {listed}); benger leaves it as it is: "
            f"{advice if advice != _CREATE else f'{_CREATE} with a benger store'}",
            file=name,
        )
    if len(revisions) != 1:
        raise InputError(
            f"not a benger store: its alembic_version table holds {len(revisions)} revisions, not one ({advice})",
            file=name,
        )
    require_known_revision(name, revisions[0])


def require_known_revision(name: str, revision: str) -> None:
    """InputError naming ``name`` (the SQLite file, else the URL) unless ``revision`` is one of this benger's
    migrations (its head or an older one, which opening upgrades)."""
    known = known_revisions()
    if known is not None and revision not in known:
        raise InputError(
            f"its schema revision {revision!r} is unknown to this benger (a store of a newer benger, or "
            "another program's database); it was left as it is: read it with the benger that wrote it, or "
            "upgrade benger",
            file=name,
        )
