"""Engines for SQLite and PostgreSQL, and programmatic Alembic upgrades (no alembic.ini at run time)."""

from __future__ import annotations

import os
import re
import sqlite3
import weakref
import zlib
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

from benger.errors import ConfigError, MissingDependencyError
from benger.store._fulltext import FOLD_FUNCTION, fold

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: Seconds a writer waits for a lock held by another connection or process (SQLite busy timeout).
SQLITE_BUSY_TIMEOUT_S = 60.0
#: Execution option: the SQLite ``BEGIN`` flavour of a transaction ("IMMEDIATE" takes the write lock upfront).
SQLITE_BEGIN = "benger_sqlite_begin"
#: Key of the PostgreSQL advisory lock that serialises concurrent migrations.
_PG_MIGRATION_LOCK = zlib.crc32(b"benger.store.migrations")


def shown(url: URL) -> str:
    """The URL as text with any password hidden."""
    return url.render_as_string(hide_password=True)


#: Engines opened read-only (an SQLite file or folder this process may not write); migrations are not run.
_READ_ONLY: weakref.WeakSet[Engine] = weakref.WeakSet()
_READ_ONLY_ADVICE = (
    "make the file and its folder writable for this user, or copy the store to a writable folder and pass "
    "--db with the copy"
)


def parse_url(value: str) -> URL:
    """Parse an SQLAlchemy URL, or raise a ConfigError that names it and shows the expected forms."""
    try:
        url = make_url(value)
        port = url.port
    except (ArgumentError, ValueError) as exc:
        raise ConfigError(
            f"cannot parse the store URL {value!r}: expected a file path, sqlite:///PATH or "
            "postgresql+psycopg://USER@HOST:PORT/DBNAME"
        ) from exc
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise ConfigError(f"unsupported store URL {shown(url)}: benger stores data in SQLite or PostgreSQL")
    if port is not None and not 0 < port < 65536:
        raise ConfigError(f"cannot parse the store URL {shown(url)}: port {port} is not in 1..65535")
    return url


def is_read_only(engine: Engine) -> bool:
    """Whether ``engine`` was opened read-only (see :func:`create_store_engine`)."""
    return engine in _READ_ONLY


def _sqlite_read_only(path: Path) -> str | None:
    """The SQLite URI query for opening ``path`` read-only, or None when this process may write it.

    A reader leaves the folder as it found it. ``mode=ro`` on a WAL store creates the ``-wal`` and ``-shm`` files
    when they are missing, and a read-only connection never removes them (only the last writer to close does):
    a read-only store file in a writable folder kept two files owned by the reader after every read, which its
    owner's next writer could not use. So ``mode=ro`` only joins a WAL that is in use (both files there: a writer
    has the store open, or one was killed); otherwise no connection has the store open, its file holds all of it,
    and it is read as an immutable file (``immutable=1``: no lock, no WAL index), as in a read-only folder, which
    cannot hold the WAL index at all (tests/store/test_read_only_leaves_no_files.py)."""
    if not path.exists():
        return None
    folder_writable = os.access(path.parent, os.W_OK)
    if os.access(path, os.W_OK) and folder_writable:
        return None
    in_use = all(Path(f"{path}{suffix}").exists() for suffix in ("-wal", "-shm"))  # stat only: no open()
    return "mode=ro" if folder_writable and in_use else "mode=ro&immutable=1"


def _read_only_events(engine: Engine, path: Path) -> None:
    @event.listens_for(engine, "handle_error")
    def _on_error(context: Any) -> Exception | None:
        if "readonly database" in str(context.original_exception):
            return ConfigError(f"the store {path} is read-only for this user: {_READ_ONLY_ADVICE}")
        return None


def _sqlite_events(engine: Engine, *, read_only: bool = False) -> None:
    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, decide when transactions begin (so BEGIN IMMEDIATE works).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {int(SQLITE_BUSY_TIMEOUT_S * 1000)}")
        if read_only:  # SQLite refuses every change to the file (a writable store opened to read only)
            cursor.execute("PRAGMA query_only = ON")
        else:  # switching the journal mode writes the file
            cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()
        dbapi_connection.create_function(FOLD_FUNCTION, 1, fold, deterministic=True)  # full-text search

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        # a read-only engine never takes the write lock (query_only refuses BEGIN IMMEDIATE): its writes fail alone
        mode = "" if read_only else connection.get_execution_options().get(SQLITE_BEGIN, "")
        connection.exec_driver_sql(f"BEGIN {mode}".strip())


def create_store_engine(url: URL, *, read_only: bool = False) -> Engine:
    """An engine for ``url`` with WAL, busy timeout and foreign keys on SQLite; pooled on PostgreSQL.

    ``read_only`` (a dry run: it writes nothing): the engine refuses every write, on a store this process could
    write too (SQLite ``query_only``, a PostgreSQL session of read-only transactions); it counts as read-only
    (:func:`is_read_only`). A writable SQLite file is still opened read-write underneath, so the connection takes
    part in the WAL's locking and the last one to close removes the ``-wal``/``-shm`` files as a writer does."""
    backend = url.get_backend_name()
    try:
        if backend == "sqlite":
            database = url.database or ""
            if database in ("", ":memory:") or database.startswith("file:"):
                raise ConfigError(f"the store needs an SQLite file, not {shown(url)}: give a file path")
            path = Path(database).expanduser()
            if not path.parent.is_dir():
                raise ConfigError(f"cannot create the store {database}: the folder {path.parent} does not exist")
            if path.is_dir():
                raise ConfigError(f"the store {database} is a folder: give the path of an SQLite file")
            if not path.exists() and not os.access(path.parent, os.W_OK):
                raise ConfigError(
                    f"cannot create the store {database}: the folder {path.parent} is not writable for this user; "
                    "pass --db with a path in a writable folder"
                )
            forced = _sqlite_read_only(path)
            connect_args: dict[str, Any] = {"timeout": SQLITE_BUSY_TIMEOUT_S, "check_same_thread": False}
            if forced is None:
                engine = create_engine(url, connect_args=connect_args)
            else:
                uri = f"file:{path.resolve().as_posix()}?{forced}"
                engine = create_engine(url, creator=lambda: sqlite3.connect(uri, uri=True, **connect_args))
                _read_only_events(engine, path)
            _sqlite_events(engine, read_only=read_only or forced is not None)
            if read_only or forced is not None:
                _READ_ONLY.add(engine)
        else:
            options = {"connect_args": {"options": "-c default_transaction_read_only=on"}} if read_only else {}
            engine = create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=20, pool_timeout=60, **options)
            if read_only:
                _READ_ONLY.add(engine)
    except NoSuchModuleError as exc:
        raise ConfigError(f"unsupported store URL {shown(url)}: unknown database driver") from exc
    except ModuleNotFoundError as exc:
        if backend == "postgresql":
            raise MissingDependencyError("a PostgreSQL store", "postgres", "psycopg[binary]") from exc
        raise
    return engine


_REVISION = re.compile(r"""^revision(?:\s*:[^=\n]*)?\s*=\s*["']([^"'\n]+)["']\s*$""", re.MULTILINE)
_DOWN_REVISION = re.compile(r"""^down_revision(?:\s*:[^=\n]*)?\s*=\s*(?:None|["']([^"'\n]+)["'])\s*$""", re.MULTILINE)


def _history() -> tuple[set[str], set[str]] | None:
    """(revisions, down revisions) read from the text of the version files (no Alembic import); None unless
    every file names one revision and one (or no) down revision."""
    revisions: set[str] = set()
    downs: set[str] = set()
    for path in (MIGRATIONS_DIR / "versions").glob("[0-9]*.py"):
        text = path.read_text(encoding="utf-8")
        revision, down = _REVISION.findall(text), _DOWN_REVISION.findall(text)
        if len(revision) != 1 or len(down) != 1:
            return None
        revisions.add(revision[0])
        if down[0]:
            downs.add(down[0])
    return revisions, downs


def head_revision() -> str | None:
    """The newest migration's revision id, read from the text of the version files (no Alembic import).

    None unless every file names one revision and one (or no) down revision and exactly one revision is
    nobody's down revision: then :func:`upgrade` asks Alembic itself."""
    history = _history()
    if history is None:
        return None
    heads = history[0] - history[1]
    return heads.pop() if len(heads) == 1 else None


def known_revisions() -> set[str] | None:
    """Every revision of this benger's migrations (None when the version files cannot be read as
    :func:`head_revision` reads them: then Alembic decides)."""
    history = _history()
    return None if history is None else history[0]


def stored_revision(engine: Engine) -> str | None:
    """The revision in the store's ``alembic_version`` table; None for a new store (no table) or several rows."""
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    except (SQLAlchemyError, sqlite3.Error):
        return None
    return str(rows[0][0]) if len(rows) == 1 else None


def pending_upgrade(engine: Engine) -> tuple[str | None, str] | None:
    """(the store's revision, this benger's head) when opening it to write would upgrade it, else None."""
    head = head_revision()
    if head is None:
        from alembic.config import Config
        from alembic.script import ScriptDirectory

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS_DIR))
        head = ScriptDirectory.from_config(config).get_current_head()
    current = stored_revision(engine)
    return None if head is None or current == head else (current, head)


def upgrade(engine: Engine) -> None:
    """Upgrade the database to the newest migration; safe when several processes open it at once.

    A store already at the newest revision is left as it is without loading Alembic (one SELECT: opening a
    store loaded Alembic, every migration and the study's tables each time, ~0.4 CPU-s; issue 26). Otherwise
    SQLite takes the write lock first (``BEGIN IMMEDIATE``), PostgreSQL an advisory lock; the current revision
    is read after the lock, so a second process finds the work done.
    """
    head = head_revision()
    if head is not None and stored_revision(engine) == head:
        return
    from alembic import command
    from alembic.config import Config
    from alembic.util import CommandError

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", shown(engine.url).replace("%", "%%"))
    if is_read_only(engine):
        _check_read_only_revision(engine, config)
        return
    try:
        with engine.execution_options(**{SQLITE_BEGIN: "IMMEDIATE"}).begin() as connection:
            if engine.dialect.name == "postgresql":
                connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
            config.attributes["connection"] = connection
            command.upgrade(config, "head")
    except SQLAlchemyError as exc:
        raise ConfigError(f"cannot open the store at {shown(engine.url)}: {_first_line(exc)}") from exc
    except CommandError as exc:
        raise ConfigError(
            f"cannot open the store at {shown(engine.url)}: its schema revision is unknown to this benger "
            f"(written by a newer version?): {exc}"
        ) from exc


def _check_read_only_revision(engine: Engine, config: Any) -> None:
    """A read-only store is read as it is: it must already be at the newest migration."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    try:
        with engine.connect() as connection:
            current = MigrationContext.configure(connection).get_current_revision()
    except (SQLAlchemyError, sqlite3.Error) as exc:
        raise ConfigError(f"cannot read the store at {shown(engine.url)}: {exc}") from exc
    head = ScriptDirectory.from_config(config).get_current_head()
    if current != head:
        raise ConfigError(
            f"the store is read-only for this user and needs an upgrade by this benger (schema {current} -> "
            f"{head}): {_READ_ONLY_ADVICE}"
        )


def _first_line(exc: SQLAlchemyError) -> str:
    original = getattr(exc, "orig", None)
    message = str(original if original is not None else exc).strip()
    return message.splitlines()[0] if message else type(exc).__name__
