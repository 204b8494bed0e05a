"""Hostile input to the workbench, found by trying it as a new user: every answer is a 4xx with one message,
never an HTTP 500, and a refused request stores nothing.

- An ``int`` path parameter above 64 bits, on every route of the app (also where the parameter belongs to a
  dependency, as ``org_id`` of ``org_access``): 404 (was 500 on /orgs/{org_id}...: the database refused it).
- An uploaded file name too long for a file system (corpus and rubric uploads): 422 naming the file (was 500:
  the name was written to disk as it came).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from study_helpers import user
from web_helpers import csrf_of, login
from workbench_world import RUBRIC_YAML, dump

from benger.store import Store, open_store
from benger.web import create_app
from benger.web._app import ROUTERS, int_path_params
from benger.web._orgscope import create_organisation

HUGE = "99999999999999999999"  # > 2**63 - 1
GOOD = b'{"task_id": "f1", "area": "Zivilrecht", "facts": "A kauft ein Rad.", "reference": "433 II BGB."}\n'


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Store, TestClient, str]]:
    store = open_store(tmp_path / "hostile.db")
    owner = user(store, "olga", "admin")
    org = create_organisation(store, "Lehrstuhl", owner)
    client = login(TestClient(create_app(store), raise_server_exceptions=False), "olga")
    yield store, client, f"/orgs/{org}"
    store.close()


def _huge_paths() -> list[tuple[str, str]]:
    """(method, path) of every route with an int path parameter, each int parameter set to HUGE, the others 1."""
    cases = []
    for router in ROUTERS:
        for route in router.routes:
            assert isinstance(route, APIRoute)
            ints = int_path_params(route.dependant)
            if not ints:
                continue

            def fill(match: re.Match[str], ints: set[str] = ints) -> str:
                return HUGE if match.group(1) in ints else "1"

            path = re.sub(r"\{(\w+)(?::\w+)?\}", fill, route.path)
            cases += [(method, path) for method in sorted(route.methods)]
    return cases


def test_the_table_holds_the_organisation_routes() -> None:
    paths = {path for _, path in _huge_paths()}
    assert f"/orgs/{HUGE}" in paths and f"/orgs/{HUGE}/members/{HUGE}/role" in paths
    assert f"/orgs/{HUGE}/rubrics/{HUGE}" in paths and f"/orgs/{HUGE}/runs/{HUGE}" in paths


@pytest.mark.parametrize(("method", "path"), _huge_paths())
def test_an_id_above_64_bits_is_not_found_on_every_route(
    site: tuple[Store, TestClient, str], method: str, path: str
) -> None:
    store, client, base = site
    token = csrf_of(client, base)
    before = dump(store)
    resp = client.request(method, path, headers={"X-CSRF-Token": token})
    assert resp.status_code == 404, (path, resp.status_code, resp.text[:300])
    assert dump(store) == before


LONG = "a" * 300


@pytest.mark.parametrize(
    ("route", "name", "data"),
    [
        ("corpora", f"{LONG}.jsonl", GOOD),
        ("corpora", f"{LONG}.csv", b"task_id,area,facts,reference\nf1,Zivilrecht,A,B\n"),
        ("corpora", f"{LONG}.zip", b"PK"),
        ("rubrics", f"{LONG}.yaml", RUBRIC_YAML),
    ],
)
def test_a_file_name_too_long_is_refused_naming_it(
    site: tuple[Store, TestClient, str], route: str, name: str, data: bytes
) -> None:
    store, client, base = site
    before = dump(store)
    resp = client.post(f"{base}/{route}", data={"csrf_token": csrf_of(client, base)}, files={"file": (name, data)})
    assert resp.status_code == 422, resp.text[:300]
    assert "file name longer than 120 characters" in resp.text
    assert dump(store) == before


def test_a_file_name_of_120_characters_is_imported(site: tuple[Store, TestClient, str]) -> None:
    _, client, base = site
    name = "b" * 114 + ".jsonl"
    resp = client.post(
        f"{base}/corpora",
        data={"csrf_token": csrf_of(client, base)},
        files={"file": (name, GOOD)},
        follow_redirects=False,
    )
    assert resp.status_code == 303, resp.text[:300]
    assert "b" * 114 in client.get(f"{base}/corpora").text


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("repetitions", "100000000000000000000000", "less than or equal to 1000"),  # the run page hung
        ("repeats", "1001", "less than or equal to 1000"),
        ("concurrency", "100000000", "less than or equal to 1000"),
        ("name", "n" * 81, "at most 80 characters"),  # workbench_runs.name holds 80
        ("name", "a\x00b", "printable"),
    ],
)
def test_the_run_form_refuses_sizes_the_store_or_the_estimate_cannot_take(
    tmp_path: Path, field: str, value: str, message: str
) -> None:
    from runs_helpers import form_token, org_with_corpus, stub_form

    store = open_store(tmp_path / "runs.db")
    org_id, corpus = org_with_corpus(store, user(store, "olga", "participant"))
    client = login(TestClient(create_app(store), raise_server_exceptions=False), "olga")
    base = f"/orgs/{org_id}/runs"
    before = dump(store)
    form = stub_form("http://127.0.0.1:9/v1", corpus=corpus, **{field: value})
    resp = client.post(base, data={"csrf_token": form_token(client, f"{base}/new"), **form}, follow_redirects=False)
    assert resp.status_code == 422, resp.text[:300]
    assert message in resp.text and f"field &#39;{field}&#39;" in resp.text
    assert dump(store) == before
    store.close()


@pytest.mark.parametrize(("name", "data"), [("leer.jsonl", b""), ("leer.csv", b""), ("nur-zeilen.jsonl", b"\n \n")])
def test_a_problem_of_the_whole_file_names_the_file(
    site: tuple[Store, TestClient, str], name: str, data: bytes
) -> None:
    _, client, base = site
    resp = client.post(f"{base}/corpora", data={"csrf_token": csrf_of(client, base)}, files={"file": (name, data)})
    assert resp.status_code == 422
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td></tr>", resp.text.split('id="problems"')[-1])
    assert rows and rows[0][0] == name, rows  # was "file"


@pytest.mark.parametrize(
    ("name", "lang", "text"),
    [
        ("Lehrstuhl", "de", "Name: Die Organisation Lehrstuhl gibt es schon."),
        ("  Lehrstuhl ", "de", "Name: Die Organisation Lehrstuhl gibt es schon."),
        ("L" * 201, "de", "Name: Ein Name braucht 1 bis 200 druckbare Zeichen."),
        ("a\x07b", "en", "Name: A name needs 1 to 200 printable characters."),
        ("   ", "en", "Name: A name needs 1 to 200 printable characters."),
    ],
)
def test_an_organisation_name_refused_is_shown_on_the_form_naming_the_field(
    site: tuple[Store, TestClient, str], name: str, lang: str, text: str
) -> None:
    """Was the general error page (the form and what was typed gone); now the form again with a 422, the
    message next to the field it names, the input marked invalid and pointing at it; nothing stored."""
    store, client, _ = site
    client.cookies.set("lang", lang)
    before = dump(store)
    resp = client.post("/orgs", data={"csrf_token": csrf_of(client, "/orgs"), "name": name}, follow_redirects=False)
    assert resp.status_code == 422, resp.text[:300]
    form = resp.text.split('id="new-org"', 1)[1].split("</form>", 1)[0]
    assert f'<p class="error" role="alert" id="name-error">{text}</p>' in form
    assert 'name="name"' in form and 'aria-invalid="true" aria-describedby="name-error"' in form
    assert dump(store) == before
