"""benger.store: SQLAlchemy 2 + Alembic; an SQLite file by default, PostgreSQL by URL.

``open_store(db)`` resolves ``db`` (a path or URL; env ``BENGER_DB``; default ``./benger.db``),
creates or upgrades the database to the newest migration and returns a :class:`Store`; ``open_store(db,
create=False)`` refuses what is not a benger store yet (a missing or empty file, another program's database).
``open_reader(db)`` returns a :class:`StoreReader` instead (never creating a store): the reads and aggregates
of ``benger leaderboard`` in SQLAlchemy Core, without the ORM (issue 26).

Identity: a task is (corpus, task id), so two corpora may each hold a task ``t1``; a generation's unit key is
(corpus, task id, config hash, run index), a judgement's (target kind, target id, judge config hash, rubric id,
repeat). See ``benger.store._tables`` and docs/store.md.

Each name loads its module on first use (PEP 562 ``__getattr__``), so a Core-only reader imports neither the ORM
models nor the write paths; importing :class:`Store` or ``Base`` registers every core and organisation table.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from benger.store._base import Base, JSONType
    from benger.store._convert import MetricValue
    from benger.store._digest import store_file_sha256
    from benger.store._import import RecordBundle
    from benger.store._reads import StoreReader, open_reader
    from benger.store._rubrics import StoredRubric
    from benger.store._store import Store
    from benger.store._tables import CORE_TABLES

_LAZY = {
    "Base": "benger.store._models",  # the models register the tables on Base's metadata
    "JSONType": "benger.store._tables",
    "MetricValue": "benger.store._convert",
    "RecordBundle": "benger.store._import",
    "StoreReader": "benger.store._reads",
    "open_reader": "benger.store._reads",
    "StoredRubric": "benger.store._rubrics",
    "Store": "benger.store._store",
    "CORE_TABLES": "benger.store._tables",
    "store_file_sha256": "benger.store._digest",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'benger.store' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def open_store(db: str | Path | None = None, *, create: bool = True, read_only: bool = False) -> Store:
    """Open (and create or upgrade) the store at ``db``: an SQLite path, ``sqlite:///...`` or ``postgresql+psycopg://...``.

    ``create=False`` (what the commands that only read use): ``db`` must already hold a benger store; a missing
    or empty file, another program's database or a newer benger's store is refused with an InputError and left
    as it is (:mod:`benger.store._open`). ``read_only=True`` (with ``create=False``; a dry run): a store that writes
    nothing and is not upgraded (``benger.store._engine.pending_upgrade`` tells whether a writer would)."""
    from benger.store._open import open_engine
    from benger.store._store import Store

    return Store(open_engine(db, create=create, read_only=read_only))


__all__ = [
    "CORE_TABLES",
    "Base",
    "JSONType",
    "MetricValue",
    "RecordBundle",
    "Store",
    "StoreReader",
    "StoredRubric",
    "open_reader",
    "open_store",
    "store_file_sha256",
]
