"""The web's run form and corpus page offer every registered rubric (benger.judge.RUBRICS), not only the paper's
two, and the organisation's uploaded rubrics (never another organisation's): an uploaded rubric travels inline in
the run config, so the browser run judges with its dimensions and the downloaded YAML runs under `benger run`
with the same config hashes (issue 31)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient
from runs_helpers import SECRET, form_token, org_with_corpus, stub_form, wait_status
from sqlalchemy import select
from study_helpers import mini_corpus, new_store, user
from typer.testing import CliRunner
from web_helpers import login

from benger.cli import app as cli_app
from benger.cli._app import _register_commands
from benger.judge import RUBRICS, load_rubric, rubric_data, rubric_from_data
from benger.store import Store
from benger.store._orgs import Organisation
from benger.study._workbench_models import WorkbenchRun
from benger.testing.stub_server import run_stub_server
from benger.web import create_app
from benger.web._orgcore import Member, OrgInfo, OrgRole
from benger.web._orgscope import OrgScope

_register_commands()
KURZ3 = Path(__file__).resolve().parents[2] / "examples" / "own-study" / "rubrics" / "kurz3.yaml"


@pytest.fixture
def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Store, int, str]]:
    monkeypatch.setenv("BENGER_SECRET_KEY", SECRET)
    RUBRICS.add("kurz3-web", KURZ3)
    store = new_store(tmp_path)
    try:
        org_id, corpus = org_with_corpus(store, user(store, "admin", "admin"))
        yield store, org_id, corpus
    finally:
        store.close()
        RUBRICS.remove("kurz3-web")


def _scope(store: Store, org_id: int) -> OrgScope:
    with store.session() as session:
        org = session.get(Organisation, org_id)
        assert org is not None
        info = OrgInfo(org.id, org.name, org.slug)
    return OrgScope(store, info, Member(1, "admin", OrgRole.OWNER))


def _post(client: TestClient, org_id: int, corpus: str, rubric: str) -> tuple[int, str]:
    url = f"/orgs/{org_id}/runs"
    form = {**stub_form("http://127.0.0.1:9/v1", corpus=corpus, rubric=rubric)}
    form["csrf_token"] = form_token(client, url + "/new")
    resp = client.post(url, data=form, follow_redirects=False)
    return resp.status_code, resp.headers.get("location", "") or html.unescape(resp.text)


def _rubrics_of(client: TestClient, location: str) -> dict[str, str] | None:
    return yaml.safe_load(client.get(location + "/config.yaml").text).get("rubrics")


def test_the_form_offers_and_runs_a_registered_rubric(world: tuple[Store, int, str]) -> None:
    store, org_id, corpus = world
    client = login(TestClient(create_app(store)), "admin")
    page = client.get(f"/orgs/{org_id}/runs/new").text
    for name in ("falloesung", "grundprinzipien", "kurz3-web"):
        assert f'<option value="{name}">{name}</option>' in page
    status, location = _post(client, org_id, corpus, "kurz3-web")
    assert status == 303 and _rubrics_of(client, location) == {corpus: "kurz3-web"}


def test_a_registered_rubric_attached_on_the_corpus_page_is_the_runs_default(world: tuple[Store, int, str]) -> None:
    store, org_id, corpus = world
    client = login(TestClient(create_app(store)), "admin")
    page = client.get(f"/orgs/{org_id}/corpora/mini").text
    assert '<option value="builtin:kurz3-web" >registriert: kurz3-web</option>' in page.replace("  ", " ")
    assert '<option value="builtin:falloesung" >aus dem Paper: falloesung</option>' in page.replace("  ", " ")
    _scope(store, org_id).attach_rubric("mini", "builtin:kurz3-web")
    status, location = _post(client, org_id, corpus, "")
    assert status == 303 and _rubrics_of(client, location) == {corpus: "kurz3-web"}


def test_an_attached_uploaded_rubric_is_the_runs_default_inline(world: tuple[Store, int, str]) -> None:
    store, org_id, corpus = world
    scope = _scope(store, org_id)
    rubric = load_rubric(KURZ3)
    ref = scope.add_rubric(rubric, "kurz3.yaml")
    scope.attach_rubric("mini", f"ref:{ref}")
    client = login(TestClient(create_app(store)), "admin")
    status, location = _post(client, org_id, corpus, "")
    assert status == 303
    inline = _rubrics_of(client, location)
    assert inline is not None and rubric_from_data(inline[corpus]).id == rubric.id  # the content, not a name
    status, location = _post(client, org_id, corpus, "falloesung")  # the form's choice: runs under it
    assert status == 303 and _rubrics_of(client, location) == {corpus: "falloesung"}


def test_an_uploaded_rubric_is_offered_and_a_browser_run_judges_with_its_dimensions(
    world: tuple[Store, int, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store, org_id, corpus = world
    monkeypatch.setenv("OPENAI_API_KEY", "sk-stub")  # the form's system names it; the stub takes any
    rubric = load_rubric(KURZ3)
    ref = _scope(store, org_id).add_rubric(rubric, "kurz3.yaml")
    client = login(TestClient(create_app(store)), "admin")
    page = client.get(f"/orgs/{org_id}/runs/new").text
    assert f'<option value="ref:{ref}">hochgeladen: kurz3.yaml ({rubric.id})</option>' in page
    with run_stub_server(latency_ms=5) as stub:
        url = f"/orgs/{org_id}/runs"
        form = {**stub_form(stub.base_url, corpus=corpus, limit=2, rubric=f"ref:{ref}")}
        form["csrf_token"] = form_token(client, url + "/new")
        resp = client.post(url, data=form, follow_redirects=False)
        assert resp.status_code == 303, resp.text[:1000]
        run = resp.headers["location"]
        text = client.get(run + "/config.yaml").text
        assert yaml.safe_load(text)["rubrics"] == {corpus: rubric_data(rubric)}
        client.post(run + "/launch", data={"csrf_token": form_token(client, run)})
        assert wait_status(client, run)["status"] == "finished"
        judged = store.judgements()
        assert len(judged) == 2
        for j in judged:  # kurz3's three dimensions, maxima and steps (aufbau in steps of 2)
            assert j.status == "scored" and j.rubric_id == rubric.id, j.reason
            assert sorted(j.dimensions or {}) == sorted(rubric.keys)
            assert all(0 <= v <= rubric.maxima()[k] and v % rubric.step_of(k) == 0 for k, v in j.dimensions.items())
            assert j.grade_points == rubric.grade_points(j.total) and j.passed == rubric.passed(j.total)
        assert [r.content_hash for r in store.stored_rubrics([rubric.id])] == [rubric.content_hash]
        before = _keys(store)
        calls = len(stub.log)
        # the downloaded YAML under the CLI, on the same store: the same config hashes, nothing asked again
        path = tmp_path / "run.yaml"
        path.write_text(text, encoding="utf-8")
        done = CliRunner().invoke(cli_app, ["run", str(path), "--db", store.url, "--quiet"])
        assert done.exit_code == 0, done.output
        assert _keys(store) == before and len(stub.log) == calls


def _keys(store: Store) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    gens = sorted((g.corpus or "", g.task_id, g.config_hash, str(g.run_index)) for g in store.generations())
    judged = sorted((j.target_id, j.judge_config_hash, j.rubric_id, str(j.repeat_index)) for j in store.judgements())
    return gens, judged


def test_another_organisations_uploaded_rubric_cannot_be_chosen(world: tuple[Store, int, str]) -> None:
    store, org_a, _corpus = world
    ref_a = _scope(store, org_a).add_rubric(load_rubric(KURZ3), "kurz3.yaml")
    other = user(store, "orgb", "admin")
    org_b, corpus_b = org_with_corpus(store, other, name="Andere", corpus=mini_corpus("mini-b"))
    client = login(TestClient(create_app(store)), "orgb")
    assert f"ref:{ref_a}" not in client.get(f"/orgs/{org_b}/runs/new").text
    with store.session() as session:
        runs_before = session.scalars(select(WorkbenchRun.id)).all()
    status, _ = _post(client, org_b, corpus_b, f"ref:{ref_a}")
    assert status == 404
    with store.session() as session:
        assert session.scalars(select(WorkbenchRun.id)).all() == runs_before  # nothing stored
    ref_b = _scope(store, org_b).add_rubric(load_rubric(KURZ3), "kurz3.yaml")
    assert ref_b != ref_a
    status, _ = _post(client, org_b, corpus_b, f"ref:{ref_b}")  # its own copy of the same rubric: fine
    assert status == 303
