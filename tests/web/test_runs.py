"""Runs from the browser (issue 28): the set-up form builds the CLI's run config, the estimate is benger
estimate's, a launched run (in-process) ends complete with its progress read from the store, cancel and resume
pay nothing twice, YAML round-trips with the CLI's messages."""

from __future__ import annotations

import collections
import sys
import time
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "study"))

import runs_helpers
from runs_helpers import SECRET, form_token, org_with_corpus, wait_status
from study_helpers import new_store, user
from web_helpers import login

from benger.pipeline import load_run_config
from benger.pipeline._config import parse_run_config
from benger.pipeline._estimate import estimate_run
from benger.store import Store
from benger.testing.stub_server import run_stub_server
from benger.web import create_app

ORG: dict[str, object] = {}


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Store:
    """A store with an admin who owns the organisation "Lehrstuhl" holding the mini corpus (ORG: id, corpus)."""
    monkeypatch.setenv("BENGER_SECRET_KEY", SECRET)
    s = new_store(tmp_path)
    ORG["id"], ORG["corpus"] = org_with_corpus(s, user(s, "admin", "admin"))
    return s


def _client(store: Store) -> TestClient:
    return login(TestClient(create_app(store)), "admin")


def _org() -> str:
    return f"/orgs/{ORG['id']}"


def stub_form(base_url: str, **options: object) -> dict[str, object]:
    return runs_helpers.stub_form(base_url, corpus=str(ORG["corpus"]), **options)  # type: ignore[arg-type]


def _create(client: TestClient, form: dict[str, object]) -> str:
    form = {**form, "csrf_token": form_token(client, _org() + "/runs/new")}
    resp = client.post(_org() + "/runs", data=form, follow_redirects=False)
    assert resp.status_code == 303, resp.text[:2000]
    return str(resp.headers["location"])


def test_form_builds_the_cli_config_and_the_estimate_of_benger_estimate(store: Store, tmp_path: Path) -> None:
    client = _client(store)
    url = _create(client, stub_form("http://127.0.0.1:9/v1", limit=3, max_tokens="50000", repetitions="2"))
    text = client.get(url + "/config.yaml").text
    data = yaml.safe_load(text)
    assert data["corpora"] == [ORG["corpus"]] and data["filters"] == {"limit": 3} and data["repetitions"] == 2
    assert data["systems"] == [{"name": "stub-gen", "provider": "openai-compatible", "model": "stub-gen",
                                "base_url": "http://127.0.0.1:9/v1", "api_key_env": "OPENAI_API_KEY"}]  # fmt: skip
    assert data["budget"] == {"max_tokens": 50000}
    path = tmp_path / "run.yaml"
    path.write_text(text, encoding="utf-8")
    config = load_run_config(path)  # the CLI takes the file as it is
    expected = estimate_run(config, store)
    page = client.get(url).text
    calls = {r.stage: r.calls for r in expected.rows}
    assert calls == {"generate": 6, "judge": 6}  # 3 tasks x 2 repetitions, then one judgement each
    for row in expected.rows:
        assert f'data-stage="{row.stage}" data-model="{row.system}"><td>{row.stage}</td><td>{row.system}</td>' \
               f'<td data-field="calls">{row.calls}</td>' in page  # fmt: skip
    assert 'id="launch"' in page


@pytest.mark.parametrize(
    ("yaml_text", "message"),
    [
        ("corpora: [CORPUS]\nsystems: [gpt-5.4]\nconcurency: 4\n", "run.yaml:3, field 'concurency': unknown key"),
        ("corpora: [CORPUS]\nsystems: [nope-model]\n", "run.yaml:2, field 'systems[0]'"),
        ("corpora: [/etc/passwd.jsonl]\nsystems: [gpt-5.4]\n", "field 'corpora[0]': "),
        ("corpora: [CORPUS]\ndb: other.db\nsystems: [gpt-5.4]\n", "field 'db': a run from the browser"),
        # nothing a config names on the server's disk is read: refused before the loader opens it
        ("corpora: [CORPUS]\nsystems: [gpt-5.4]\nprompts: {falloesung_user: /etc/hostname}\n", "remove prompts"),
        ("corpora: [CORPUS]\nsystems: [gpt-5.4]\nrubrics: {CORPUS: /etc/hostname}\n", "choose a registered rubric"),
        ("corpora: ['zjs:/etc/hostname']\nsystems: [gpt-5.4]\n", "'zjs:/etc/hostname' is not a corpus of this"),
        ("corpora: [CORPUS]\nsystems:\n- {name: l, provider: local, model: /tmp/x.gguf}\n", "by its catalog name"),
        (
            "corpora: [CORPUS]\nsystems:\n- {name: x, provider: openai-compatible, model: x, base_url: 'http://h/v1', "
            "api_key_env: BENGER_SECRET_KEY}\n",
            "field 'systems[0]': 'BENGER_SECRET_KEY' is not an API key name",
        ),
    ],
)
def test_upload_shows_the_cli_message(store: Store, tmp_path: Path, yaml_text: str, message: str) -> None:
    client = _client(store)
    yaml_text = yaml_text.replace("CORPUS", str(ORG["corpus"]))
    token = form_token(client, _org() + "/runs/new")
    resp = client.post(_org() + "/runs/upload", data={"csrf_token": token},
                       files={"file": ("run.yaml", yaml_text.encode(), "text/yaml")})  # fmt: skip
    assert resp.status_code == 422
    assert message in resp.text.replace("&#39;", "'")
    path = tmp_path / "run.yaml"
    path.write_text(yaml_text, encoding="utf-8")
    if not any(word in message for word in ("browser", "corpora", "API key", "prompts", "rubric", "corpus", "catalog")):
        with pytest.raises(Exception, match=message.split(": ", 1)[-1][:20]):
            load_run_config(path)


def test_uploaded_yaml_is_the_downloaded_yaml(store: Store) -> None:
    client = _client(store)
    url = _create(client, stub_form("http://127.0.0.1:9/v1"))
    text = client.get(url + "/config.yaml").text
    token = form_token(client, _org() + "/runs/new")
    files = {"file": ("again.yaml", text.encode(), "text/yaml")}
    resp = client.post(_org() + "/runs/upload", data={"csrf_token": token}, files=files, follow_redirects=False)
    assert resp.status_code == 303
    assert client.get(resp.headers["location"] + "/config.yaml").text == text
    assert parse_run_config(text, "x.yaml").model_dump() == parse_run_config(text, "y.yaml").model_dump()


def test_launch_runs_to_the_end_then_resume_pays_nothing_twice(store: Store) -> None:
    client = _client(store)
    with run_stub_server(latency_ms=20) as stub:
        url = _create(client, stub_form(stub.base_url, limit=3))
        client.post(url + "/launch", data={"csrf_token": form_token(client, url)})
        state = wait_status(client, url)
        assert state["status"] == "finished", state
        stages = {s["stage"]: s for s in state["progress"]["stages"]}
        assert (stages["generate"]["total"], stages["generate"]["ok"], stages["generate"]["remaining"]) == (3, 3, 0)
        assert (stages["judge"]["total"], stages["judge"]["ok"], stages["judge"]["remaining"]) == (3, 3, 0)
        assert stages["generate"]["input_tokens"] > 0
        assert len(stub.log) == 6
        page = client.get(url).text
        assert 'id="leaderboard-link"' in page and "/view/browse?system=stub-gen&amp;judge=stub-judge" in page
        # the same config as a new run: every result is reused, no call made
        again = _create(client, stub_form(stub.base_url, limit=3))
        client.post(again + "/launch", data={"csrf_token": form_token(client, again)})
        state = wait_status(client, again)
        assert state["status"] == "finished" and state["progress"]["reused"] == 6
        assert len(stub.log) == 6
        assert max(collections.Counter(e["key"] for e in stub.log).values()) == 1


def test_cancel_then_resume_completes_without_paying_twice(store: Store) -> None:
    client = _client(store)
    with run_stub_server(latency_ms=400) as stub:
        url = _create(client, stub_form(stub.base_url, limit=6, concurrency="1"))
        client.post(url + "/launch", data={"csrf_token": form_token(client, url)})
        deadline = time.monotonic() + 30
        while len(stub.log) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        client.post(url + "/cancel", data={"csrf_token": form_token(client, url)})
        state = wait_status(client, url)
        assert state["status"] == "cancelled", state
        gen = next(s for s in state["progress"]["stages"] if s["stage"] == "generate")
        assert 0 < gen["ok"] < 6 and gen["remaining"] == 6 - gen["ok"]
        done_before = gen["ok"]
        client.post(url + "/launch", data={"csrf_token": form_token(client, url)})
        state = wait_status(client, url)
        assert state["status"] == "finished", state
        assert state["progress"]["reused"] == done_before  # the generations finished before the cancel
        per_prompt = collections.Counter(e["key"] for e in stub.log)
        assert max(per_prompt.values()) == 1  # no prompt asked twice: nothing paid twice
        assert len(per_prompt) == 12  # 6 generations + 6 judgements


def test_serve_refuses_an_unknown_run_executor(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from benger.cli import app
    from benger.cli._app import _register_commands

    _register_commands()
    result = CliRunner().invoke(app, ["serve", "--db", str(tmp_path / "s.db"), "--run-executor", "threads"])
    assert result.exit_code == 2 and "choose local or celery" in result.output


def test_a_restarted_server_marks_runs_left_running_interrupted_and_resume_continues(store: Store) -> None:
    from benger.study._workbench_models import WorkbenchRun

    client = _client(store)
    with run_stub_server() as stub:
        url = _create(client, stub_form(stub.base_url, limit=2))
        run_id = int(url.rsplit("/", 1)[-1])
        with store.session() as session:  # as a server killed mid-run leaves it
            row = session.get(WorkbenchRun, run_id)
            assert row is not None
            row.status = "running"
        client = _client(store)  # a new app on the store: its launcher finds no thread for the run
        state = client.get(url + "/progress").json()
        assert state["status"] == "interrupted" and "resume" in state["message"]
        client.post(url + "/launch", data={"csrf_token": form_token(client, url)})
        assert wait_status(client, url)["status"] == "finished"
        assert len(stub.log) == 4


@pytest.mark.parametrize(("attached", "chosen", "expected"), [
    ("builtin:falloesung", "", {"falloesung"}),  # the corpus's attached rubric
    ("", "", None),  # nothing attached: each task's kind decides
    ("builtin:falloesung", "grundprinzipien", {"grundprinzipien"}),  # the form's choice wins
])  # fmt: skip
def test_the_rubric_attached_to_the_corpus_is_the_default(
    store: Store, attached: str, chosen: str, expected: set[str] | None
) -> None:
    from benger.web.access import Member, OrgInfo, OrgRole, OrgScope

    with store.session() as session:
        from benger.store._orgs import Organisation

        org = session.get(Organisation, ORG["id"])
        assert org is not None
        info = OrgInfo(org.id, org.name, org.slug)
    OrgScope(store, info, Member(1, "admin", OrgRole.OWNER)).attach_rubric("mini", attached)
    client = _client(store)
    url = _create(client, stub_form("http://127.0.0.1:9/v1", rubric=chosen))
    rubrics = yaml.safe_load(client.get(url + "/config.yaml").text).get("rubrics")
    assert (set(rubrics.values()) if rubrics else None) == expected
    if rubrics:
        assert set(rubrics) == {ORG["corpus"]}


def test_events_of_a_run_that_is_not_active_are_its_state_then_end(store: Store) -> None:
    client = _client(store)
    url = _create(client, stub_form("http://127.0.0.1:9/v1"))
    resp = client.get(url + "/events")
    assert resp.headers["content-type"].startswith("text/event-stream")
    events = resp.text.split("\n\n")
    assert events[0].startswith("data: ") and '"status": "draft"' in events[0]
    assert events[1] == "event: end\ndata: {}" and events[2:] == [""]


def test_a_cost_cap_without_prices_fails_the_launch_before_any_call(store: Store) -> None:
    client = _client(store)
    with run_stub_server() as stub:
        url = _create(client, stub_form(stub.base_url, max_cost="1.5"))
        client.post(url + "/launch", data={"csrf_token": form_token(client, url)})
        state = wait_status(client, url)
        assert state["status"] == "failed" and "stub-gen, stub-judge has none" in state["message"]
        assert len(stub.log) == 0


def test_an_organiser_without_the_platform_admin_role_gets_the_results_links(store: Store) -> None:
    """An organiser of the organisation (platform role participant) reads its results (OrgCap.RESULTS_READ):
    the run page links to the leaderboard, and the leaderboard opens."""
    from benger.store._orgs import Organisation
    from benger.study._workbench_models import WorkbenchRun
    from benger.web.access import Member, OrgInfo, OrgRole, OrgScope, accept_invitation

    with store.session() as session:
        org = session.get(Organisation, ORG["id"])
        assert org is not None
        info = OrgInfo(org.id, org.name, org.slug)
    token = OrgScope(store, info, Member(1, "admin", OrgRole.OWNER)).invite("organiser")
    accept_invitation(store, token, user(store, "orga", "participant"), "orga")
    url = _create(_client(store), stub_form("http://127.0.0.1:9/v1"))
    with store.session() as session:
        row = session.get(WorkbenchRun, int(url.rsplit("/", 1)[-1]))
        assert row is not None
        row.status = "finished"
    admin_page = _client(store).get(url).text
    assert 'id="leaderboard-link"' in admin_page and 'id="results-note"' not in admin_page
    organiser_page = login(TestClient(create_app(store)), "orga").get(url).text
    assert 'id="leaderboard-link"' in organiser_page and 'id="results-note"' not in organiser_page
    assert login(TestClient(create_app(store)), "orga").get("/view/").status_code == 200


@pytest.mark.parametrize(
    ("field", "raw"),
    [("repeats", "²"), ("concurrency", "³"), ("limit", "¹⁰"), ("repeats", "-3"), ("concurrency", "2.5"),
     ("limit", "zehn"), ("max_tokens", "1e6")],
)  # fmt: skip
def test_a_count_on_the_form_that_is_no_whole_number_is_named_on_the_form(store: Store, field: str, raw: str) -> None:
    # before: a superscript digit passed str.isdigit() and int() raised ValueError: 500 instead of the form
    client = TestClient(create_app(store), raise_server_exceptions=False)
    login(client, "admin")
    token = form_token(client, _org() + "/runs/new")
    form = {**stub_form("http://127.0.0.1:9/v1", **{field: raw}), "csrf_token": token}
    resp = client.post(_org() + "/runs", data=form, follow_redirects=False)
    assert resp.status_code == 422, resp.text[:500]
    text = resp.text.replace("&#39;", "'")
    assert f"field '{field}': '{raw}' is not a whole number of 0 or more" in text
