"""The web's run form and corpus page offer every registered rubric (benger.judge.RUBRICS), not only the paper's
two; a corpus with an uploaded rubric attached is not run silently under another one (issue 31)."""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient
from runs_helpers import SECRET, form_token, org_with_corpus, stub_form
from study_helpers import new_store, user
from web_helpers import login

from benger.judge import RUBRICS, load_rubric
from benger.store import Store
from benger.store._orgs import Organisation
from benger.web import create_app
from benger.web._orgcore import Member, OrgInfo, OrgRole
from benger.web._orgscope import OrgScope

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


def test_an_attached_uploaded_rubric_is_refused_not_replaced(world: tuple[Store, int, str]) -> None:
    store, org_id, corpus = world
    scope = _scope(store, org_id)
    rubric = load_rubric(KURZ3)
    ref = scope.add_rubric(rubric, "kurz3.yaml")
    scope.attach_rubric("mini", f"ref:{ref}")
    client = login(TestClient(create_app(store)), "admin")
    status, text = _post(client, org_id, corpus, "")
    assert status == 422
    assert f"the corpus {corpus} has an uploaded rubric ({rubric.id})" in " ".join(text.split())
    status, location = _post(client, org_id, corpus, "falloesung")  # the form's choice: runs under it
    assert status == 303 and _rubrics_of(client, location) == {corpus: "falloesung"}
