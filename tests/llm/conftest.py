"""Fixtures for the LLM tests: a stub server per test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from benger.testing import StubServer, run_stub_server


@pytest.fixture
def stub() -> Iterator[StubServer]:
    with run_stub_server(latency_ms=0) as server:
        yield server
