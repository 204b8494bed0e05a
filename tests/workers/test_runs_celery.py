"""A run launched from the browser on 2 real Celery workers (issue 28): two systems and a judge against the
stub, one worker SIGKILLed mid-run; the run ends finished with every unit stored once, and no finished result
is paid twice (the stub counts every call: only the one call in flight on the killed worker, whose answer died
with it, is asked again)."""

from __future__ import annotations

import collections
import re
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from runs_helpers import SECRET, form_token, org_with_corpus, stub_form, wait_status
from study_helpers import mini_corpus, user
from web_helpers import login

from benger.store import open_store
from benger.testing.stub_server import run_stub_server
from benger.web import create_app

from .conftest import Workers

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.slow]


def _task_ids(log: bytes, event: bytes) -> set[bytes]:
    """Celery task ids of the worker log lines ``Task benger.generate|judge[ID] <event>``."""
    return set(re.findall(rb"benger\.(?:generate|judge)\[([0-9a-f-]+)\] " + event, log))


def test_browser_run_on_two_workers_survives_a_killed_worker(
    pg_url: str, shared_redis: str, workers: Workers, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BENGER_SECRET_KEY", SECRET)
    store = open_store(pg_url)
    org_id, corpus = org_with_corpus(store, user(store, "admin", "admin"), corpus=mini_corpus("celery"))
    # a killed worker's message comes back after 4 s; its lease expires 3 s after the last refresh
    workers.start(2, concurrency=1, BENGER_VISIBILITY_TIMEOUT="4", BENGER_LEASE_SECONDS="3")
    client = login(TestClient(create_app(store, run_executor="celery")), "admin")
    org = f"/orgs/{org_id}"
    with run_stub_server(latency_ms=500) as stub:
        form = stub_form(stub.base_url, corpus=corpus, limit=4)
        form["system_url"], form["system_model"] = [stub.base_url] * 2, ["stub-a", "stub-b"]
        form["system_key"] = ["", ""]
        token = form_token(client, org + "/runs/new")
        url = client.post(org + "/runs", data={**form, "csrf_token": token}, follow_redirects=False)
        url = url.headers["location"]
        client.post(url + "/launch", data={"csrf_token": token})
        deadline = time.monotonic() + 60
        while len(stub.log) < 3 and time.monotonic() < deadline:  # both workers busy with their next call
            time.sleep(0.05)
        time.sleep(0.2)
        workers.kill9(0)
        state = wait_status(client, url, timeout=180)
        log = list(stub.log)
    assert state["status"] == "finished", state
    stages = {s["stage"]: s for s in state["progress"]["stages"]}
    assert (stages["generate"]["total"], stages["generate"]["ok"], stages["generate"]["remaining"]) == (8, 8, 0)
    assert (stages["judge"]["total"], stages["judge"]["ok"], stages["judge"]["remaining"]) == (8, 8, 0)
    assert len(store.generations()) == 8 and len(store.judgements()) == 8  # every unit stored once
    # the two systems get the same prompts (the stub's key is the messages), so calls are counted per model
    per_call = collections.Counter((entry["model"], entry["key"]) for entry in log)
    generated = {k: n for k, n in per_call.items() if k[0] != "stub-judge"}
    assert len(generated) == 8  # 4 tasks x 2 systems, each asked
    judged = sum(n for k, n in per_call.items() if k[0] == "stub-judge")
    # 16 calls, plus at most the one call in flight on the killed worker (concurrency 1): its answer died
    # with the worker before it reached the store. No finished unit is asked again.
    assert len(log) - 16 in (0, 1) and sum(generated.values()) + judged == len(log)
    # the killed worker had a message it never finished, and the other worker finished it
    lost = _task_ids(workers.log(0), b"received") - _task_ids(workers.log(0), b"succeeded")
    assert lost and lost <= _task_ids(workers.log(1), b"succeeded")
    store.close()
