"""Fixtures of the web tests: a populated study on a real SQLite store and the app on it; the results viewer's small
store (``vw``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))  # study_helpers

from study_helpers import new_store
from viewer_helpers import ViewerWorld, build
from web_helpers import World, populate

from benger.web import create_app


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    store = new_store(tmp_path_factory.mktemp("web"))
    yield populate(store)
    store.close()


@pytest.fixture(scope="module")
def app(world: World) -> FastAPI:
    return create_app(world.store)


@pytest.fixture(scope="module")
def vw(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ViewerWorld]:
    """The viewer's small store (viewer_helpers.build), one per test module."""
    world = build(tmp_path_factory.mktemp("viewer"))
    yield world
    world.store.close()
