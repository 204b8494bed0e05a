"""Full-text search over the solution texts (generations, human solutions): what matches, and its indexes.

A text matches a query ``q`` when ``q.lower()`` is a substring of ``text.lower()``: Unicode lower case (Ä = ä,
ẞ = ß; ß is not "ss"; no accent folding), LIKE's wildcards ``%`` and ``_`` are plain characters. Both backends
answer the same (tests/store/test_fulltext.py); migration ``0014_fulltext`` creates the indexes
(:func:`install`), each kept up to date by the database itself on every write, whichever path writes
(the ORM, Core ``executemany``, a raw ``sqlite3`` connection):

- **SQLite**: a contentless FTS5 table per text table (``generations_fts``, ``human_solutions_fts``) with the
  ``trigram`` tokenizer (case folded; SQLite 3.34+), its rowid the text row's; ``AFTER INSERT / DELETE /
  UPDATE OF text`` triggers index and un-index each row. A query of three characters or more is a phrase of
  trigrams (an exact substring match). A rebuild of ``generations`` or ``human_solutions`` (an Alembic batch
  copy) drops the triggers and renumbers rowids: such a migration calls :func:`install` again afterwards.
  When the index does not narrow (``PROBE`` or more matches) and the query is ASCII, SQLite's own ``LIKE``
  (case-insensitive for ASCII, the same answer) scans the texts instead, ~3x faster than reading the long
  posting lists; a query shorter than three characters (no trigram) scans with :func:`fold` per text.
- **PostgreSQL**: a stored generated column ``text_folded = lower(text)`` matched with ``LIKE`` (a byte
  comparison; ``ILIKE`` lower-cases every text on every query, ~40x slower), and a ``pg_trgm`` GIN index over it
  where the extension is available (the planner uses it for selective queries); without ``pg_trgm`` the same
  query scans ``text_folded`` (same answers) and the migration logs a warning saying how to add it.
"""

from __future__ import annotations

import logging
from typing import Any

from sqlalchemy import column, func, literal, literal_column, select, table

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
                found = connection.execute(select(func.count()).select_from(first.subquery())).scalar_one()
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
            index = table(fts, column("rowid"))
            return literal_column(f"{name}.rowid").in_(select(index.c.rowid).where(self._match(fts)))
        return text.like(f"%{like_escaped(self.q)}%", escape="\\")  # SQLite's LIKE: ASCII case-insensitive


# -- the indexes (migration 0014_fulltext) ---------------------------------------------------------------------
def _sqlite_ddl(table: str, fts: str) -> list[str]:
    index = f"INSERT INTO {fts}(rowid, text) VALUES (new.rowid, new.text);"
    unindex = f"INSERT INTO {fts}({fts}, rowid, text) VALUES ('delete', old.rowid, old.text);"
    return [
        f"CREATE VIRTUAL TABLE {fts} USING fts5(text, content='', tokenize='trigram')",
        f"INSERT INTO {fts}(rowid, text) SELECT rowid, text FROM {table}",
        f"CREATE TRIGGER {fts}_insert AFTER INSERT ON {table} BEGIN {index} END",
        f"CREATE TRIGGER {fts}_delete AFTER DELETE ON {table} BEGIN {unindex} END",
        f"CREATE TRIGGER {fts}_update AFTER UPDATE OF text ON {table} BEGIN {unindex} {index} END",
    ]


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
    """Create the full-text indexes over the existing rows (and, on SQLite, the triggers that keep them)."""
    if connection.dialect.name == "sqlite":
        version = connection.exec_driver_sql("SELECT sqlite_version()").scalar_one()
        for name, fts in TABLES.values():
            try:
                for statement in _sqlite_ddl(name, fts):
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
        else:
            connection.exec_driver_sql(f"DROP INDEX IF EXISTS {TRGM_INDEXES[name]}")
            connection.exec_driver_sql(f"ALTER TABLE {name} DROP COLUMN IF EXISTS {FOLDED}")
