"""Validation runs from the browser (issue 28): a finished run's judge validated against the organisation's own
reviews of the run's corpus, in-process; its page shows progress and the CLI's table; refusals read as the CLI
says them; the form's bad choices are a 422 naming the field, and store nothing."""

from __future__ import annotations

import json
import re
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from runs_helpers import form_token, org_with_corpus, stub_form, wait_status
from study_helpers import user
from typer.testing import CliRunner
from validation_helpers import BLIND, import_reviews
from web_helpers import login
from workbench_world import dump

from benger.store import Store, open_store
from benger.testing.stub_server import run_stub_server
from benger.web import create_app


@pytest.fixture
def finished(tmp_path: Path) -> Iterator[tuple[Store, TestClient, str, str, Any]]:
    """A finished stub run of 6 tasks (6 generations, each judged once) of the organisation's corpus."""
    store = open_store(tmp_path / "vj.db")
    org_id, corpus = org_with_corpus(store, user(store, "olga", "participant"))
    client = login(TestClient(create_app(store), raise_server_exceptions=False), "olga")
    base = f"/orgs/{org_id}"
    with run_stub_server(latency_ms=1) as stub:
        form = stub_form(stub.base_url, corpus=corpus, limit=6)
        resp = client.post(base + "/runs", data={**form, "csrf_token": form_token(client, base + "/runs/new")},
                           follow_redirects=False)  # fmt: skip
        url = resp.headers["location"]
        client.post(url + "/launch", data={"csrf_token": form_token(client, url)})
        assert wait_status(client, url)["status"] == "finished"
        yield store, client, url, corpus, stub
    store.close()


def launch(client: TestClient, run_url: str, **form: str) -> Any:
    page = client.get(run_url + "/validations/new")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert token is not None, page.text[:400]
    return client.post(run_url + "/validations", data={**form, "csrf_token": token.group(1)}, follow_redirects=False)


def wait_validation(client: TestClient, url: str, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        state: dict[str, Any] = client.get(url + "/progress").json()
        if state["status"] not in ("queued", "running"):
            return state
        assert time.monotonic() < deadline, state
        time.sleep(0.1)


def _cells(html: str) -> dict[str, str]:
    row = html.split('<tr id="candidate">', 1)[1].split("</tr>", 1)[0]
    return dict(re.findall(r'<td data-col="([^"]+)">([^<]*)</td>', row))


def test_a_finished_runs_judge_is_validated_on_own_reviews_as_the_cli_does(
    finished: tuple[Store, TestClient, str, str, Any], tmp_path: Path
) -> None:
    store, client, run_url, corpus, stub = finished
    blind = import_reviews(store, tmp_path / "reviews.csv", corpus)
    calls = len(stub.log)
    assert 'id="validate-link"' in client.get(run_url).text
    resp = launch(client, run_url, judge="stub-judge", source="corpus", corpus=corpus)
    assert resp.status_code == 303, resp.text[:400]
    url = resp.headers["location"]
    state = wait_validation(client, url)
    assert (state["status"], state["done"], state["total"]) == ("finished", 0, 0), state  # all 6 reused
    assert len(stub.log) == calls  # the run's judgements were reused: nothing asked again
    page = client.get(url).text
    # by hand: the judge's totals (of 100: percent) against the mean blind raw per generation
    judged = {j.target_id: j.total for j in store.judgements() if j.status == "scored"}
    ids = sorted(blind)
    judge, mean = [judged[i] for i in ids], [statistics.fmean(blind[i]) for i in ids]
    pearson = statistics.correlation(judge, mean)
    mae = statistics.fmean(abs(a - b) for a, b in zip(judge, mean, strict=True))
    shown = re.search(r"llm solutions \(n = 6\): r ([-0-9.]+), rho [-0-9.–]+, MAE ([0-9.]+)", page)
    assert shown is not None, page[-3000:]
    assert shown.groups() == (f"{pearson:.2f}", f"{mae:.1f}")
    assert (
        _cells(page)["offset LLM (% points)"]
        == f"{statistics.fmean(a - b for a, b in zip(judge, mean, strict=True)):.1f}"
    )
    assert 'id="alt-llm"' in page and '<th scope="row">R1</th>' in page
    # the CLI on the run's downloaded config and the same store prints the same table
    from benger.cli import app
    from benger.cli._app import _register_commands

    _register_commands()
    config = tmp_path / "run.yaml"
    config.write_text(client.get(run_url + "/config.yaml").text, encoding="utf-8")
    out = tmp_path / "vj"
    done = CliRunner().invoke(app, ["validate-judge", str(config), "--db", str(tmp_path / "vj.db"), "--corpus",
                                    corpus, "--out", str(out), "--quiet"])  # fmt: skip
    assert done.exit_code == 0, done.output
    cli = json.loads((out / "validate-judge.json").read_text())
    row = _cells(page)
    llm = cli["candidate"]["agreement"]["llm"]
    assert llm["pearson"] == pytest.approx(pearson) and llm["mae_raw"] == pytest.approx(mae)
    assert row["offset LLM (% points)"] == f"{llm['offset_raw']:.1f}"
    listing = client.get(run_url.rsplit("/runs/", 1)[0] + "/validations").text
    assert f'href="{url.split("://")[-1].split("testserver")[-1]}"' in listing


def test_too_few_blind_reviewers_is_refused_as_the_cli_says(
    finished: tuple[Store, TestClient, str, str, Any], tmp_path: Path
) -> None:
    store, client, run_url, corpus, _ = finished
    import_reviews(store, tmp_path / "one.csv", corpus, blind={"R1": BLIND["R1"]})
    url = launch(client, run_url, judge="stub-judge", source="corpus", corpus=corpus).headers["location"]
    state = wait_validation(client, url)
    assert state["status"] == "failed"
    said = "has 1 blind reviewer(s); the blind pool, the ICC and the alt-test need at least 2"
    assert said in state["message"] and said in client.get(url).text
    assert 'id="validation-table"' not in client.get(url).text


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"judge": "nobody", "source": "corpus"}, "field &#39;judge&#39;"),
        ({"judge": "stub-judge", "source": "corpus", "corpus": "other/corpus"}, "field &#39;corpus&#39;"),
        ({"judge": "stub-judge", "source": "elsewhere"}, "field &#39;source&#39;"),
        ({"judge": "stub-judge", "source": "release"}, "no release to validate against"),
    ],
)
def test_a_bad_choice_is_refused_on_the_form_naming_the_field(
    finished: tuple[Store, TestClient, str, str, Any], monkeypatch: pytest.MonkeyPatch, form: dict[str, str],
    message: str,
) -> None:  # fmt: skip
    store, client, run_url, _, _ = finished
    monkeypatch.delenv("BENGER_RELEASE", raising=False)
    before = dump(store)
    resp = launch(client, run_url, **form)
    assert resp.status_code == 422, resp.text[:400]
    assert 'id="validation-error"' in resp.text and message in resp.text
    assert dump(store) == before
