"""Shared fixtures: where the released BenGER data lives, and the real services on this machine."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
RELEASE_DIR = Path(os.environ.get("BENGER_RELEASE_DIR", REPO_ROOT.parent / "shared" / "benger-release"))
REFERENCE_DIR = RELEASE_DIR.parent / "reference"


def _require(path: Path, what: str) -> Path:
    if path.exists():
        return path
    message = f"{what} not found at {path} (set BENGER_RELEASE_DIR or place ../shared next to the repo)"
    if os.environ.get("CI") == "true":
        pytest.fail(message + "; under CI=true its absence is a failure")
    pytest.skip(message)


@pytest.fixture(scope="session")
def release_dir() -> Path:
    """The paper's released data (Dataset_ARR layout), read in place from ../shared/benger-release."""
    return _require(RELEASE_DIR, "the BenGER release")


@pytest.fixture(scope="session")
def reference_dir() -> Path:
    """../shared/reference: targets.json and the method notes."""
    return _require(REFERENCE_DIR, "the reference targets")


PG_SERVER = "postgresql+psycopg://postgres@127.0.0.1:5432"


@contextmanager
def _pg_database(prefix: str) -> Iterator[str]:
    """Create ``<prefix>_<uuid8>`` on the local PostgreSQL server, yield its URL, drop it afterwards.

    Every test gets its own database, so suites running at the same time never see each other's rows.
    """
    psycopg = pytest.importorskip("psycopg")
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    try:
        admin = psycopg.connect("host=127.0.0.1 port=5432 user=postgres dbname=postgres", autocommit=True)
    except psycopg.OperationalError as exc:
        pytest.skip(f"PostgreSQL on 127.0.0.1:5432 is not reachable: {exc}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{PG_SERVER}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_database() -> Callable[[str], AbstractContextManager[str]]:
    """``with pg_database("benger_x") as url:`` gives a fresh PostgreSQL database (skips if the server is down)."""
    return _pg_database
