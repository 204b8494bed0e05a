"""Full-text search over the solution texts (generations, human solutions): what matches, and its indexes.

A text matches a query ``q`` when ``q.lower()`` is a substring of ``text.lower()``: Unicode lower case (Ä = ä,
ẞ = ß; ß is not "ss"; no accent folding), LIKE's wildcards ``%`` and ``_`` are plain characters. Both backends
answer the same (tests/store/test_fulltext.py); migration ``0014_fulltext`` creates the indexes
(:func:`install`), each kept up to date by the database itself on every write, whichever path writes
(see below for when):

- **SQLite**: a contentless FTS5 table per text table (``generations_fts``, ``human_solutions_fts``) with the
  ``trigram`` tokenizer (case folded; SQLite 3.34+), its rowid the text row's. Indexing a text on every write cost
  the runner ~0.6 ms per saved generation (issue 26), so a write only queues the row: an ``AFTER INSERT`` trigger
  adds its rowid to ``<fts>_pending`` (``AFTER UPDATE OF text`` un-indexes the old text and queues the row;
  ``AFTER DELETE`` un-indexes or un-queues it), whichever path writes (the ORM, Core ``executemany``, a raw
  ``sqlite3`` connection). :func:`sync` indexes the queued rows in one statement (migration
  ``0017_lazy_fulltext``): called when a writer opens the store, after a run's generation stage and in an import's
  transaction; a search reads the index *and* scans the rows still queued (a run in progress, a killed one, a
  read-only store), so its answer never depends on when the index was synced. A query of three characters or more
  is a phrase of trigrams (an exact substring match). A rebuild of ``generations`` or ``human_solutions`` (an
  Alembic batch copy) drops the triggers and renumbers rowids: such a migration calls :func:`install` again
  afterwards. When the index does not narrow (``PROBE`` or more matches) and the query is ASCII, SQLite's own
  ``LIKE`` (case-insensitive for ASCII, the same answer) scans the texts instead, ~3x faster than reading the long
  posting lists; a query shorter than three characters (no trigram) scans with :func:`fold` per text.
- **PostgreSQL**: a stored generated column ``text_folded = lower(text)`` matched with ``LIKE`` (a byte
  comparison; ``ILIKE`` lower-cases every text on every query, ~40x slower), and a ``pg_trgm`` GIN index over it
  where the extension is available (the planner uses it for selective queries); without ``pg_trgm`` the same
  query scans ``text_folded`` (same answers) and the migration logs a warning saying how to add it.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import and_, column, func, literal, literal_column, or_, select, table

_LOG = logging.getLogger(__name__)

#: (text table, its FTS5 table on SQLite) per solution kind.
TABLES: dict[str, tuple[str, str]] = {
    "generation": ("generations", "generations_fts"),
    "human_solution": ("human_solutions", "human_solutions_fts"),
}
#: The PostgreSQL column and the index names (not on the ORM models: tests/store compares the rest).
FOLDED = "text_folded"
TRGM_INDEXES = {name: f"ix_{name}_text_trgm" for name, _ in TABLES.values()}
#: FTS matches counted before SQLite decides the index narrows the search (else an ASCII query scans).
PROBE = 500
#: SQL function (registered on every SQLite connection, ``benger.store._engine``) that applies :func:`fold`.
FOLD_FUNCTION = "benger_lower"


def fold(value: Any) -> Any:
    """The case folding of the search: Python's (Unicode) ``str.lower``; anything else as it is."""
    return value.lower() if isinstance(value, str) else value


def like_escaped(text: str) -> str:
    """``text`` with LIKE's wildcards and the escape character (backslash) escaped."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _phrase(q: str) -> str:
    """``q`` as one FTS5 string (a phrase of its trigrams: an exact substring)."""
    return '"' + q.replace('"', '""') + '"'


class TextSearch:
    """The full-text condition of one query ``q`` per solution kind, chosen once per request on ``connection``
    (on SQLite: the index, or a scan when an ASCII query has ``probe`` or more matches)."""

    def __init__(self, connection: Any, q: str, probe: int = PROBE) -> None:
        self.q = q
        self.dialect = connection.dialect.name
        self.use_index: dict[str, bool] = {}
        if self.dialect == "sqlite" and len(q) >= 3:
            for kind, (_, fts) in TABLES.items():
                first = select(literal(1)).select_from(table(fts)).where(self._match(fts)).limit(probe)
                queued = select(literal(1)).select_from(table(pending(fts))).limit(probe)  # each one scanned
                counts = (select(func.count()).select_from(part.subquery()) for part in (first, queued))
                found = sum(connection.execute(count).scalar_one() for count in counts)
                self.use_index[kind] = found < probe or not q.isascii()

    def _match(self, fts: str) -> Any:
        return literal_column(fts).op("MATCH")(literal(_phrase(self.q)))

    def clause(self, kind: str, text: Any) -> Any:
        """The condition on the ``kind`` rows (``text``: their text column) that ``q`` occurs in the text."""
        name, fts = TABLES[kind]
        if self.dialect == "postgresql":
            folded: Any = literal_column(f"{name}.{FOLDED}")
            return folded.like(func.lower(literal(f"%{like_escaped(self.q)}%")), escape="\\")
        if len(self.q) < 3:  # no trigram to look up
            return func.instr(getattr(func, FOLD_FUNCTION)(text), fold(self.q)) > 0
        if self.use_index[kind]:
            index, queued = table(fts, column("rowid")), table(pending(fts), column("rowid"))
            rowid: Any = literal_column(f"{name}.rowid")
            indexed = rowid.in_(select(index.c.rowid).where(self._match(fts)))
            holds = func.instr(getattr(func, FOLD_FUNCTION)(text), fold(self.q)) > 0
            scanned = and_(rowid.in_(select(queued.c.rowid)), holds)
            return or_(indexed, scanned)
        return text.like(f"%{like_escaped(self.q)}%", escape="\\")  # SQLite's LIKE: ASCII case-insensitive


# -- the indexes (migration 0014_fulltext) ---------------------------------------------------------------------
def pending(fts: str) -> str:
    """The queue table of the FTS table ``fts``: the rowids written since the last :func:`sync`."""
    return f"{fts}_pending"


def _sqlite_triggers(table: str, fts: str) -> list[str]:
    """The queueing triggers of ``table`` (idempotent; the pre-0017 indexing triggers dropped first)."""
    queue = pending(fts)
    queued = f"EXISTS (SELECT 1 FROM {queue} WHERE rowid = old.rowid)"
    unindex = f"INSERT INTO {fts}({fts}, rowid, text) SELECT 'delete', old.rowid, old.text WHERE NOT {queued};"
    # no OR IGNORE: an outer statement's conflict clause (an upsert) overrides the one of a trigger's statement
    enqueue = (
        f"INSERT INTO {queue}(rowid) SELECT new.rowid WHERE NOT EXISTS (SELECT 1 FROM {queue} WHERE rowid = new.rowid);"
    )
    return [
        *(f"DROP TRIGGER IF EXISTS {fts}_{event}" for event in ("insert", "delete", "update")),
        f"CREATE TABLE IF NOT EXISTS {queue} (rowid INTEGER PRIMARY KEY)",
        f"CREATE TRIGGER {fts}_insert AFTER INSERT ON {table} BEGIN {enqueue} END",
        # a contentless index must never be told to delete what it does not hold: a queued row is only un-queued
        f"CREATE TRIGGER {fts}_delete AFTER DELETE ON {table} BEGIN {unindex} "
        f"DELETE FROM {queue} WHERE rowid = old.rowid; END",
        f"CREATE TRIGGER {fts}_update AFTER UPDATE OF text ON {table} BEGIN {unindex} {enqueue} END",
    ]


def queue_writes(connection: Any) -> None:
    """Migration ``0017_lazy_fulltext``: writes queue their rows instead of indexing them (SQLite; idempotent)."""
    if connection.dialect.name == "sqlite":
        for name, fts in TABLES.values():
            for statement in _sqlite_triggers(name, fts):
                connection.exec_driver_sql(statement)


def index_on_write(connection: Any) -> None:
    """The downgrade of 0017: the queued rows indexed, then every write indexes its row again (SQLite)."""
    if connection.dialect.name != "sqlite":
        return
    sync(connection)
    for name, fts in TABLES.values():
        index = f"INSERT INTO {fts}(rowid, text) VALUES (new.rowid, new.text);"
        unindex = f"INSERT INTO {fts}({fts}, rowid, text) VALUES ('delete', old.rowid, old.text);"
        for statement in (
            *(f"DROP TRIGGER IF EXISTS {fts}_{event}" for event in ("insert", "delete", "update")),
            f"DROP TABLE IF EXISTS {pending(fts)}",
            f"CREATE TRIGGER {fts}_insert AFTER INSERT ON {name} BEGIN {index} END",
            f"CREATE TRIGGER {fts}_delete AFTER DELETE ON {name} BEGIN {unindex} END",
            f"CREATE TRIGGER {fts}_update AFTER UPDATE OF text ON {name} BEGIN {unindex} {index} END",
        ):
            connection.exec_driver_sql(statement)


def queued(connection: Any) -> bool:
    """Whether a row waits to be indexed (SQLite; False elsewhere)."""
    if connection.dialect.name != "sqlite":
        return False
    return any(
        connection.exec_driver_sql(f"SELECT 1 FROM {pending(fts)} LIMIT 1").first() is not None
        for _, fts in _queues(connection)
    )


def _queues(connection: Any) -> list[tuple[str, str]]:
    """(text table, FTS table) of the queues there are: a refused downgrade can leave its DDL behind on SQLite
    (see migration 0014), a store at the newest revision without them."""
    names = {row[0] for row in connection.exec_driver_sql("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return [(name, fts) for name, fts in TABLES.values() if pending(fts) in names]


def sync(connection: Any) -> int:
    """Index the queued rows and empty the queues, in the caller's transaction (SQLite; elsewhere nothing to do).

    Returns the number of rows indexed. Run it in a write transaction (``BEGIN IMMEDIATE``): the queue is read
    under the write lock, so two processes syncing at once index each row once."""
    if connection.dialect.name != "sqlite":
        return 0
    done = 0
    for name, fts in _queues(connection):
        queue = pending(fts)  # an empty queue costs two statements that find nothing (callers ask queued() first)
        done += connection.exec_driver_sql(
            f"INSERT INTO {fts}(rowid, text) SELECT t.rowid, t.text FROM {name} AS t JOIN {queue} AS q "
            "ON q.rowid = t.rowid"
        ).rowcount
        connection.exec_driver_sql(f"DELETE FROM {queue}")
    return done


def _pg_trgm(connection: Any) -> bool:
    """Whether ``pg_trgm`` is installed in the database (created here when the server has it and we may)."""
    from sqlalchemy.exc import DBAPIError

    if connection.exec_driver_sql("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'").first():
        return True
    advice = (
        "full-text search in the viewer scans the texts (same results, slower on a big store); to index them, "
        "install PostgreSQL's contrib package, then as a superuser: CREATE EXTENSION pg_trgm; "
        + "; ".join(
            f"CREATE INDEX {index} ON {name} USING gin ({FOLDED} gin_trgm_ops)" for name, index in TRGM_INDEXES.items()
        )
    )
    if not connection.exec_driver_sql("SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'").first():
        _LOG.warning("PostgreSQL has no pg_trgm extension: %s", advice)
        return False
    try:
        with connection.begin_nested():
            connection.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except DBAPIError as exc:  # e.g. not allowed to create extensions in this database
        _LOG.warning("cannot create the pg_trgm extension (%s): %s", str(exc.orig).strip(), advice)
        return False
    return True


def install(connection: Any) -> None:
    """Create the full-text indexes over the existing rows (and, on SQLite, the queueing triggers)."""
    if connection.dialect.name == "sqlite":
        version = connection.exec_driver_sql("SELECT sqlite_version()").scalar_one()
        for name, fts in TABLES.values():
            try:
                create = f"CREATE VIRTUAL TABLE {fts} USING fts5(text, content='', tokenize='trigram')"
                connection.exec_driver_sql(create)
                connection.exec_driver_sql(f"INSERT INTO {fts}(rowid, text) SELECT rowid, text FROM {name}")
                for statement in _sqlite_triggers(name, fts):
                    connection.exec_driver_sql(statement)
            except Exception as exc:
                if "trigram" in str(exc) or "fts5" in str(exc):
                    raise RuntimeError(
                        f"this SQLite ({version}) has no FTS5 trigram tokenizer, which full-text search needs "
                        "(SQLite 3.34 or newer built with FTS5): use a Python whose sqlite3 module is newer"
                    ) from exc
                raise
        return
    trgm = _pg_trgm(connection)
    for name, _ in TABLES.values():
        connection.exec_driver_sql(
            f"ALTER TABLE {name} ADD COLUMN {FOLDED} text GENERATED ALWAYS AS (lower(text)) STORED"
        )
        if trgm:
            connection.exec_driver_sql(f"CREATE INDEX {TRGM_INDEXES[name]} ON {name} USING gin ({FOLDED} gin_trgm_ops)")


def remove(connection: Any) -> None:
    """Drop what :func:`install` created (idempotent; the pg_trgm extension stays, others may use it)."""
    for name, fts in TABLES.values():
        if connection.dialect.name == "sqlite":
            for event in ("insert", "delete", "update"):
                connection.exec_driver_sql(f"DROP TRIGGER IF EXISTS {fts}_{event}")
            connection.exec_driver_sql(f"DROP TABLE IF EXISTS {fts}")
            connection.exec_driver_sql(f"DROP TABLE IF EXISTS {pending(fts)}")
        else:
            connection.exec_driver_sql(f"DROP INDEX IF EXISTS {TRGM_INDEXES[name]}")
            connection.exec_driver_sql(f"ALTER TABLE {name} DROP COLUMN IF EXISTS {FOLDED}")
