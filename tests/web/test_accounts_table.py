"""The admin's accounts table: search and paging on the server (query parameters ``q`` and ``page``)."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from study_helpers import new_store, user
from web_helpers import login

from benger.store import Store
from benger.study._accounts import ACCOUNTS_PER_PAGE
from benger.web import create_app
from browser_helpers import axe_violations, logged_in_page, serve


@pytest.fixture(scope="module")
def crowd(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    """An admin, 120 participants teilnehmer-000..119 and one account named with LIKE's wildcards."""
    store = new_store(tmp_path_factory.mktemp("accounts"))
    user(store, "admin", "admin")
    for n in range(120):
        user(store, f"teilnehmer-{n:03d}", "participant")
    user(store, "a_b%c", "grader")
    yield store
    store.close()


def _names(page: str) -> list[str]:
    return re.findall(r'<tr id="user-\d+"><td>([^<]*)</td>', page)


def _count(page: str) -> str:
    match = re.search(r'<p id="account-count"[^>]*>([^<]*)</p>', page)
    assert match is not None
    return match.group(1)


def test_the_accounts_table_pages_on_the_server(crowd: Store) -> None:
    admin = login(TestClient(create_app(crowd)), "admin")
    first = admin.get("/admin").text
    assert len(_names(first)) == ACCOUNTS_PER_PAGE == 50
    assert _names(first)[:2] == ["admin", "teilnehmer-000"]
    assert _count(first) == "122 Konten · Seite 1 von 3"
    assert 'rel="next" href="/admin?q=&amp;page=2#accounts"' in first and 'rel="prev"' not in first
    last = admin.get("/admin", params={"page": "3"}).text
    assert _names(last) == [f"teilnehmer-{n:03d}" for n in range(99, 120)] + ["a_b%c"]
    assert 'rel="next"' not in last and 'rel="prev" href="/admin?q=&amp;page=2#accounts"' in last
    # beyond the last page: the last page; not a number or below 1: the first
    assert _names(admin.get("/admin", params={"page": "99"}).text) == _names(last)
    for bad in ("0", "-1", "abc", "9" * 40):
        assert _names(admin.get("/admin", params={"page": bad}).text) == _names(first)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("teilnehmer-11", [f"teilnehmer-{n}" for n in range(110, 120)]),
        ("TEILNEHMER-00", [f"teilnehmer-00{n}" for n in range(10)]),  # case-insensitive
        ("%", ["a_b%c"]),  # LIKE wildcards are literal
        ("_", ["a_b%c"]),
        ("grader", ["a_b%c"]),  # by role
        ("  admin ", ["admin"]),
        ("niemand", []),
    ],
)
def test_the_accounts_table_is_searched_on_the_server(crowd: Store, query: str, expected: list[str]) -> None:
    admin = login(TestClient(create_app(crowd)), "admin")
    page = admin.get("/admin", params={"q": query}).text
    assert _names(page) == expected
    assert _count(page) == f"{len(expected)} Konten · Seite 1 von 1"
    assert f'name="q" value="{query.strip()}"' in page  # the search stays in the field


def test_a_search_by_pseudonym_finds_the_account(crowd: Store) -> None:
    admin = login(TestClient(create_app(crowd)), "admin")
    match = re.search(
        r'<tr id="user-\d+"><td>teilnehmer-007</td>.*?<td>(u-[0-9a-f]+)</td>', admin.get("/admin").text, re.S
    )
    assert match is not None
    assert _names(admin.get("/admin", params={"q": match.group(1)}).text) == ["teilnehmer-007"]
    # paging keeps the search: 120 participants match "teilnehmer", page 3 has the last 20
    page = admin.get("/admin", params={"q": "teilnehmer", "page": "3"}).text
    assert _names(page) == [f"teilnehmer-{n}" for n in range(100, 120)]
    assert 'href="/admin?q=teilnehmer&amp;page=2#accounts"' in page


@pytest.mark.slow
@pytest.mark.browser
def test_the_paged_and_searched_table_has_no_serious_accessibility_violation(browser: object, crowd: Store) -> None:
    with serve(create_app(crowd)) as url:
        page = logged_in_page(browser, url, "admin")  # type: ignore[arg-type]
        problems = {}
        for path in ("/admin?page=2", "/admin?q=teilnehmer&page=3", "/admin?q=niemand"):
            page.goto(url + path)
            found = axe_violations(page)
            if found:
                problems[path] = found
            if "page=3" in path:  # page 3 of 3: only "Vorherige Seite"
                assert page.locator("#account-pages a").count() == 1
    assert problems == {}
