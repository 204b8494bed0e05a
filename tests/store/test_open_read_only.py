"""``open_store(db, create=False, read_only=True)`` (what a dry run opens, tests/cli/test_dry_run_older_store.py):
on SQLite and PostgreSQL a store of an older revision is left at its revision (``pending_upgrade`` names both), a
store at the newest one is read as usual, and every write is refused by the database itself, the content as it
was; on SQLite the folder holds the same files afterwards (no -wal/-shm left)."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy.exc import SQLAlchemyError

from benger.schema import Corpus, FalloesungTask
from benger.store import open_store
from benger.store._engine import head_revision, is_read_only, pending_upgrade, stored_revision

from .test_migration_0015 import _below, _migrate

TASK = FalloesungTask(task_id="t1", corpus="c", area="Zivilrecht", facts="SV", reference="ML")


def _files(db_url: str) -> list[str] | None:
    return None if "://" in db_url else sorted(p.name for p in Path(db_url).parent.iterdir())


@pytest.mark.parametrize("revision", ["older", "head"])
def test_a_read_only_store_is_not_upgraded_and_refuses_writes(revision: str, db_url: str) -> None:
    if revision == "older":
        _migrate(db_url, _below(), up=True)
    else:
        open_store(db_url).close()
    files = _files(db_url)
    store = open_store(db_url, create=False, read_only=True)
    try:
        assert is_read_only(store.engine)
        expected = _below() if revision == "older" else head_revision()
        assert stored_revision(store.engine) == expected
        assert pending_upgrade(store.engine) == ((_below(), head_revision()) if revision == "older" else None)
        if revision == "head":
            assert store.corpus_names() == []
            with pytest.raises(SQLAlchemyError):
                store.add_corpus(Corpus(name="c", tasks=[TASK]))
            assert store.corpus_names() == []
    finally:
        store.close()
    assert _files(db_url) == files
    reopened = open_store(db_url)  # a writer upgrades it
    try:
        assert stored_revision(reopened.engine) == head_revision()
    finally:
        reopened.close()
