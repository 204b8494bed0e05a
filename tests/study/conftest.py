"""Fixtures of the study tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from study_helpers import new_store

from benger.store import Store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    s = new_store(tmp_path)
    yield s
    s.close()
