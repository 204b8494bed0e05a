"""benger.store: SQLAlchemy 2 + Alembic; an SQLite file by default, PostgreSQL by URL.

``open_store(db)`` resolves ``db`` (a path or URL; env ``BENGER_DB``; default ``./benger.db``),
upgrades the database to the newest migration and returns a :class:`Store`.

Identity: a task is (corpus, task id), so two corpora may each hold a task ``t1``; a generation's unit key is
(corpus, task id, config hash, run index), a judgement's (target kind, target id, judge config hash, rubric id,
repeat). See ``benger.store._models`` and docs/store.md.
"""

from __future__ import annotations

from pathlib import Path

from benger.config import database_url
from benger.store import (
    _aggregate,  # noqa: F401  (registers the indexes of migrations 0005 and 0012 on Base)
    _orgs,  # noqa: F401  (registers the organisation tables of migration 0010 on Base)
)
from benger.store._base import Base, JSONType
from benger.store._convert import MetricValue
from benger.store._engine import create_store_engine, parse_url, upgrade
from benger.store._import import RecordBundle
from benger.store._models import CORE_TABLES
from benger.store._rubrics import StoredRubric
from benger.store._store import Store


def open_store(db: str | Path | None = None) -> Store:
    """Open (and create or upgrade) the store at ``db``: an SQLite path, ``sqlite:///...`` or ``postgresql+psycopg://...``."""
    url = parse_url(database_url(db))
    engine = create_store_engine(url)
    try:
        upgrade(engine)
    except BaseException:
        engine.dispose()
        raise
    return Store(engine)


__all__ = ["CORE_TABLES", "Base", "JSONType", "MetricValue", "RecordBundle", "Store", "StoredRubric", "open_store"]
