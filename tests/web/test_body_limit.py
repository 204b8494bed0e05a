"""The request-body limit of the web app (``create_app(max_body_bytes=...)``, ``benger serve --max-body-mb``):
a declared ``Content-Length`` above it is refused with 413 before one byte of the body is read; a body without
one (chunked) is read only until the count passes the limit, then 413; bodies within it reach the routes (an
upload is imported). Nothing is stored by a refused request."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from study_helpers import user
from web_helpers import csrf_of, login
from workbench_world import dump

from benger.store import Store, open_store
from benger.web import create_app
from benger.web._body_limit import DEFAULT_MAX_BODY
from benger.web._orgscope import create_organisation

LIMIT = 64 * 1024  # 0.0625 MiB
#: The start of a multipart file part (boundary ``x``): the rest of a streamed body is the file's bytes.
HEAD = b'--x\r\nContent-Disposition: form-data; name="file"; filename="f.jsonl"\r\n\r\n'
GOOD = '{"task_id": "f1", "area": "Zivilrecht", "facts": "A kauft ein Rad.", "reference": "§ 433 II BGB."}\n'


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Store, FastAPI, TestClient, str]]:
    store = open_store(tmp_path / "limit.db")
    org = create_organisation(store, "Lehrstuhl", user(store, "olga", "participant"))
    app = create_app(store, max_body_bytes=LIMIT)
    client = login(TestClient(app), "olga")
    yield store, app, client, f"/orgs/{org}"
    store.close()


def _drive(app: FastAPI, path: str, chunks: list[bytes], length: int | None, accept: str) -> tuple[int, bytes, int]:
    """One POST straight into the ASGI app: (status, body, how many chunks the app read)."""
    headers = [(b"accept", accept.encode()), (b"content-type", b"multipart/form-data; boundary=x")]
    headers += [(b"content-length", str(length).encode())] if length is not None else []
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}  # fmt: skip
    read = 0
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read == len(chunks):
            await asyncio.sleep(3600)  # a client that sends no more
        read += 1
        return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}

    async def send(msg: MutableMapping[str, Any]) -> None:
        sent.append(msg)

    asyncio.run(asyncio.wait_for(app(scope, receive, send), 30))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body"), read


@pytest.mark.parametrize(
    ("chunk", "count", "declared", "read"),
    [
        (1024, 200, 200 * 1024, 0),  # declared 200 KiB: refused before reading
        (1024, 1, LIMIT + 1, 0),  # one byte over, declared (the body sent is short): nothing read
        (1024, 200, None, 65),  # chunked: 64 chunks are the limit, the 65th passes it
        (10_000, 200, None, 7),  # 6 chunks are 60 000 bytes, the 7th passes 65 536
        (LIMIT + 1, 3, None, 1),  # one chunk over the limit
    ],
)
def test_a_body_over_the_limit_is_refused_with_413_reading_no_more(
    site: tuple[Store, FastAPI, TestClient, str], chunk: int, count: int, declared: int | None, read: int
) -> None:
    store, app, _client, base = site
    before = dump(store)
    chunks = [HEAD + b"a" * (chunk - len(HEAD))] + [b"a" * chunk] * (count - 1)
    status, body, taken = _drive(app, f"{base}/corpora", chunks, declared, "application/json")
    assert (status, taken) == (413, read)
    assert json.loads(body) == {"error": "Die Anfrage ist zu groß: höchstens 0.0625 MiB."}
    assert dump(store) == before


def test_the_page_names_the_limit_in_the_ui_language(site: tuple[Store, FastAPI, TestClient, str]) -> None:
    _store, _app, client, base = site
    resp = client.post(f"{base}/corpora", content=b"a" * (LIMIT + 1), headers={"content-type": "text/plain"})
    assert resp.status_code == 413 and "höchstens 0.0625 MiB" in resp.text
    assert resp.headers["x-frame-options"] == "DENY" and resp.headers["cache-control"] == "no-store"
    client.cookies.set("lang", "en")
    resp = client.post(f"{base}/corpora", content=b"a" * (LIMIT + 1), headers={"content-type": "text/plain"})
    assert resp.status_code == 413 and "The request is too large: at most 0.0625 MiB." in resp.text


def test_an_upload_within_the_limit_is_imported(site: tuple[Store, FastAPI, TestClient, str]) -> None:
    store, _app, client, base = site
    data = {"csrf_token": csrf_of(client, base)}
    resp = client.post(f"{base}/corpora", data=data, files={"file": ("faelle.jsonl", GOOD.encode())})
    assert resp.status_code in (200, 303)
    assert store.corpus_names() == ["lehrstuhl/faelle"]


def test_the_default_limit_is_above_the_upload_routes_limit() -> None:
    from benger.web.workbench._upload import MAX_UPLOAD

    assert DEFAULT_MAX_BODY == 80 * 2**20 > MAX_UPLOAD
