"""Settings read from the environment: where the store and the model cache live."""

from __future__ import annotations

import os
from pathlib import Path

DB_ENV = "BENGER_DB"
CACHE_ENV = "BENGER_CACHE_DIR"
DEFAULT_DB_FILE = "benger.db"
#: The most bootstrap resamples a command or run config takes: 50 x the paper's 2,000. More only costs memory (the
#: draws of a row are one array: B = 10^8 asked for 763 MiB per row and ended as "internal error: MemoryError").
#: Here rather than in pipeline/_config, so that the CLI's option definitions import no pipeline module.
MAX_RESAMPLES = 100_000
#: The most repetitions per system, judge repeats per solution and concurrent calls a run config takes (the
#: estimate and the planner loop over the first two: 10^23 repetitions from the workbench's form never ended).
MAX_REPEATS = 1000


def database_url(db: str | Path | None = None) -> str:
    """Resolve a store location to an SQLAlchemy URL.

    ``db`` may be a URL (``postgresql+psycopg://...``, ``sqlite:///...``) or a file path; when it is
    None the ``BENGER_DB`` environment variable is used, else ``./benger.db``. An empty ``db`` (``--db ""``)
    is an :class:`benger.errors.InputError` ("empty store path"), never the current folder.
    """
    if db is not None and not str(db).strip():
        from benger.errors import InputError

        raise InputError("empty store path: name an SQLite file or a database URL (--db PATH or BENGER_DB)")
    value = str(db) if db is not None else os.environ.get(DB_ENV) or DEFAULT_DB_FILE
    if "://" in value:
        if value.startswith("postgresql://"):
            return "postgresql+psycopg://" + value[len("postgresql://") :]
        return value
    return f"sqlite:///{Path(value).expanduser().resolve()}"


def cache_dir() -> Path:
    """Directory for assembled model files and other caches (``BENGER_CACHE_DIR`` or ~/.cache/benger)."""
    value = os.environ.get(CACHE_ENV)
    path = Path(value).expanduser() if value else Path.home() / ".cache" / "benger"
    path.mkdir(parents=True, exist_ok=True)
    return path
