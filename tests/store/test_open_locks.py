"""Opening a store never drops the SQLite locks this process holds on it.

POSIX advisory locks belong to the process: closing *any* descriptor of the database file releases all of them,
also those of SQLite connections that are still open (sqlite.org/howtocorrupt.html, section 2.2). A store check
that read the file's header with ``open()`` did that: another process's connection then saw no other user, took
the exclusive lock on closing, checkpointed and deleted the write-ahead log under the open connections, and a
killed ``benger generate``'s store came back "database disk image is malformed"
(tests/pipeline/test_kill_resume.py::test_kill9_then_rerun).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from benger.store import Store, open_reader, open_store

#: a second process that opens the store, reads, and closes its connection (the last one to close removes the WAL)
_VISIT = (
    "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('SELECT count(*) FROM sqlite_master'); c.close()"
)

OPENERS: dict[str, Callable[[Path], object]] = {
    "open_store": lambda db: open_store(db),
    "open_store(create=False)": lambda db: open_store(db, create=False),
    "open_reader": lambda db: open_reader(db),
    "Store.reopen": lambda db: Store.reopen(f"sqlite:///{db}"),
}


@pytest.mark.parametrize("opener", list(OPENERS))
def test_a_second_open_keeps_the_first_connections_locks(tmp_path: Path, opener: str) -> None:
    db = tmp_path / "held.db"
    first = open_store(db)
    try:
        first.generations()  # a connection of the first store has read and stays in its pool
        wal = db.with_name(db.name + "-wal")
        assert wal.exists()
        second = OPENERS[opener](db)
        try:
            subprocess.run([sys.executable, "-c", _VISIT, str(db)], check=True, timeout=60)
            # the visitor is not the last connection: it must leave the WAL (and what it holds) in place
            assert wal.exists(), "the visitor took the store's locks: this process's were dropped"
        finally:
            second.close()  # type: ignore[attr-defined]
    finally:
        first.close()
