"""X-Forwarded-For counts for the login limit only when ``benger serve --trusted-proxy`` names the proxy."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from study_helpers import new_store, user

from benger.study._accounts import MAX_FAILURES
from benger.web import create_app
from browser_helpers import serve


@contextmanager
def _serve(tmp: Path, trusted: list[str]) -> Iterator[str]:
    tmp.mkdir()
    store = new_store(tmp)
    user(store, "ziel", "participant")
    try:
        with serve(create_app(store), trusted) as url:
            yield url
    finally:
        store.close()


def _codes(url: str, n: int) -> list[int]:
    """``n`` wrong logins for one account, each claiming another client address in X-Forwarded-For."""
    with httpx.Client(base_url=url) as client:
        token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/login").text)
        assert token is not None
        form = {"username": "ziel", "password": "falsch-falsch", "csrf_token": token.group(1)}
        return [
            client.post("/login", data=form, headers={"X-Forwarded-For": f"203.0.113.{i}"}).status_code
            for i in range(n)
        ]


@pytest.mark.slow
def test_forwarded_for_is_ignored_unless_the_proxy_is_trusted(tmp_path: Path) -> None:
    with _serve(tmp_path / "plain", []) as url:
        # the spoofed addresses do not count: all attempts come from 127.0.0.1, so the 6th is refused
        assert _codes(url, MAX_FAILURES + 1) == [401] * MAX_FAILURES + [429]
    with _serve(tmp_path / "proxied", ["127.0.0.1"]) as url:
        # behind a trusted proxy each forwarded address has its own per-address limit
        assert _codes(url, MAX_FAILURES + 1) == [401] * (MAX_FAILURES + 1)
