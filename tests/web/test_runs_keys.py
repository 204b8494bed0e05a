"""An organisation's API keys (issue 28): encrypted at rest under BENGER_SECRET_KEY, write-only in the UI, and
never in any page, JSON answer, log line, export, downloaded config or store column but the ciphertext."""

from __future__ import annotations

import logging
import re
import sys
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy import inspect, select, text

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))

from runs_helpers import PLAIN_KEY, SECRET, form_token, org_with_corpus, stub_form, wait_status
from study_helpers import mini_corpus, new_store
from web_helpers import login, populate

from benger.llm._keys import SECRET_ENV, decrypt_key
from benger.study._workbench_models import OrgApiKey
from benger.testing.stub_server import run_stub_server
from benger.web import create_app


def _get_routes(app: object) -> list[str]:
    return [r.path for r in app.routes if isinstance(r, APIRoute) and "GET" in r.methods]  # type: ignore[attr-defined]


def test_no_key_in_anything_the_app_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(SECRET_ENV, SECRET)
    caplog.set_level(logging.DEBUG)
    world = populate(new_store(tmp_path))
    org_id, corpus = org_with_corpus(world.store, world.ids["admin"], corpus=mini_corpus("lab"))
    org = f"/orgs/{org_id}"
    app = create_app(world.store)
    client = login(TestClient(app), "admin")
    token = form_token(client, org + "/keys")
    resp = client.post(org + "/keys", data={"csrf_token": token, "name": "OPENAI_API_KEY", "key": PLAIN_KEY})
    assert resp.status_code == 200 and "OPENAI_API_KEY" in resp.text
    assert re.search(r"set, gesetzt von admin|gesetzt, gesetzt von admin", resp.text)
    with run_stub_server() as stub:
        run = client.post(org + "/runs", data={**stub_form(stub.base_url, corpus=corpus), "csrf_token": token},
                          follow_redirects=False).headers["location"]  # fmt: skip
        client.post(run + "/launch", data={"csrf_token": token})
        assert wait_status(client, run)["status"] == "finished"
    written: list[str] = []
    ids = {"org_id": str(org_id), "run_id": run.rsplit("/", 1)[-1], "study_id": str(world.study), "name": "study.json"}
    for path in _get_routes(app):
        url = re.sub(r"{(\w+)}", lambda m: ids.get(m.group(1), "1"), path)
        for accept in ("text/html", "application/json"):
            written.append(client.get(url, headers={"Accept": accept}).text)
    for name in ("submissions.csv", "reviews.csv", "study.json"):
        written.append(client.get(f"/admin/studies/{world.study}/export/{name}").text)
    written.append(client.get("/view/").text)
    written += [record.getMessage() for record in caplog.records]
    with world.store.engine.connect() as conn:
        for table in inspect(conn).get_table_names():
            for row in conn.execute(text(f'SELECT * FROM "{table}"')).mappings():
                written += [str(v) for k, v in row.items() if (table, k) != ("org_api_keys", "ciphertext")]
        sealed = conn.execute(select(OrgApiKey.ciphertext)).scalar_one()
    assert decrypt_key(sealed) == PLAIN_KEY  # stored, encrypted
    assert len(written) > 60
    leaks = [w[:200] for w in written if PLAIN_KEY in w or PLAIN_KEY[-4:] in w]
    assert leaks == []
