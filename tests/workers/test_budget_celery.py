"""Budget caps hold on Celery workers (issue 28): a browser run with ``max_tokens`` in its config, executed by
2 real ``benger worker`` processes on Redis and PostgreSQL.

Before, the cap was kept by the launching server's in-process model wrapper only; on Celery the workers build
their own models, so every call was made (the stub answered all 4 and the run ended ``finished``). Now the cap
is one ledger row in the store that the server opens and every worker reserves in before a call.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))

from runs_helpers import SECRET, form_token, org_with_corpus, stub_form, wait_status
from study_helpers import mini_corpus, user
from web_helpers import login

from benger.store import open_store
from benger.store._models import BudgetRow
from benger.testing.stub_server import run_stub_server
from benger.web import create_app

from .conftest import Workers

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.slow]


def test_a_token_cap_in_the_run_config_holds_on_two_celery_workers(
    pg_url: str, shared_redis: str, workers: Workers, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("BENGER_SECRET_KEY", SECRET)
    store = open_store(pg_url)
    org_id, corpus = org_with_corpus(store, user(store, "admin", "admin"), corpus=mini_corpus("capped"))
    workers.start(2, concurrency=1)
    client = login(TestClient(create_app(store, run_executor="celery")), "admin")
    org = f"/orgs/{org_id}"
    with run_stub_server() as stub:
        # every call's worst case is its prompt plus max_output_tokens (thousands): a cap of 100 admits none
        form = stub_form(stub.base_url, corpus=corpus, limit=2, max_tokens="100")
        token = form_token(client, org + "/runs/new")
        url = client.post(org + "/runs", data={**form, "csrf_token": token}, follow_redirects=False)
        url = url.headers["location"]
        assert "max_tokens: 100" in client.get(url + "/config.yaml").text
        client.post(url + "/launch", data={"csrf_token": token})
        state = wait_status(client, url, timeout=120)
        calls = list(stub.log)
    assert calls == []  # was 4: both generations and both judgements made on the workers
    assert state["status"] == "incomplete", state
    assert state["message"].startswith("budget cap reached: 2 call(s) not made"), state
    generations = store.generations()
    assert [g.status for g in generations] == ["failed", "failed"]
    assert all("--max-tokens 100" in (g.reason or "") for g in generations), [g.reason for g in generations]
    with store.session() as session:
        (ledger,) = session.query(BudgetRow).all()
    assert (ledger.max_tokens, ledger.spent_tokens, ledger.reserved_tokens, ledger.refused) == (100, 0, 0, 2)
    # the refusals were the workers': the server made no call of its own
    worker_logs = workers.log(0) + workers.log(1)
    assert worker_logs.count(b"benger.generate[") >= 2
    store.close()
