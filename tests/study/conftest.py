"""Fixtures of the study tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from study_helpers import new_store

from benger.store import Store


@pytest.fixture
def store(tmp_path: Path, copy_of_migrated_sqlite: Callable[[Path], Path]) -> Iterator[Store]:
    """The mini corpus with its generations on a new SQLite file (a copy of the session's migrated template)."""
    copy_of_migrated_sqlite(tmp_path / "benger.db")  # the file new_store opens
    s = new_store(tmp_path)
    yield s
    s.close()
