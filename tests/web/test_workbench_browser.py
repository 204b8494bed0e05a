"""The workbench in Debian Chromium: an organiser of the platform creates an organisation, invites an organiser
who accepts the link in another browser, uploads a corpus with one bad line (the message names the line and
field), then a good one, opens a task, uploads a rubric and attaches the paper's; every page type of the
workbench is axe-core clean (no serious or critical WCAG 2.1 A/AA violation)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from study_helpers import user

from benger.store import Store, open_store
from benger.web import create_app
from browser_helpers import axe_violations, logged_in_page, serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]
GOOD = '{"task_id": "f1", "area": "Zivilrecht", "title": "Fahrrad", "facts": "A kauft.", "reference": "§ 433 BGB."}\n'
BAD = GOOD + GOOD.replace("f1", "f2").replace("Zivilrecht", "Kirchenrecht")
RUBRIC = Path(__file__).resolve().parents[2] / "src/benger/judge/rubrics/falloesung.yaml"


@dataclass
class Site:
    store: Store
    url: str


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    store = open_store(tmp_path_factory.mktemp("workbench") / "benger.db")
    user(store, "admin", "admin")
    user(store, "orga", "participant")
    with serve(create_app(store)) as url:
        yield Site(store, url)
    store.close()


def test_organisation_corpus_and_rubric_walk_is_accessible(browser: object, site: Site, tmp_path: Path) -> None:
    problems: dict[str, list[str]] = {}

    def check(page: object, what: str) -> None:
        found = axe_violations(page)
        if found:
            problems[what] = found

    admin = logged_in_page(browser, site.url, "admin")
    admin.goto(site.url + "/orgs")  # type: ignore[attr-defined]
    check(admin, "organisations")
    admin.fill("#new-org input[name=name]", "Lehrstuhl für Zivilrecht")  # type: ignore[attr-defined]
    admin.click("#new-org button[type=submit]")  # type: ignore[attr-defined]
    admin.wait_for_selector("#org-links")  # type: ignore[attr-defined]
    org_url = admin.url  # type: ignore[attr-defined]
    check(admin, "organisation")
    admin.goto(org_url + "/members")  # type: ignore[attr-defined]
    admin.select_option("#invite select[name=role]", "organiser")  # type: ignore[attr-defined]
    admin.click("#invite button[type=submit]")  # type: ignore[attr-defined]
    link = admin.input_value("#invitation-link")  # type: ignore[attr-defined]
    assert "/orgs/join/" in link
    check(admin, "members")

    visitor = browser.new_context().new_page()  # type: ignore[attr-defined]
    visitor.goto(link)
    assert visitor.locator("#new-account").is_visible() and visitor.locator("#login-first").is_visible()
    check(visitor, "invitation, logged out")
    orga = logged_in_page(browser, site.url, "orga")
    orga.goto(link)  # type: ignore[attr-defined]
    assert "Lehrstuhl für Zivilrecht" in orga.inner_text("#invitation")  # type: ignore[attr-defined]
    check(orga, "invitation")
    orga.click("#accept")  # type: ignore[attr-defined]
    orga.wait_for_selector("#org-links")  # type: ignore[attr-defined]
    assert "Organisator*in" in orga.inner_text("#org-nav")  # type: ignore[attr-defined]

    bad = tmp_path / "faelle.jsonl"
    bad.write_text(BAD, encoding="utf-8")
    orga.goto(org_url + "/corpora")  # type: ignore[attr-defined]
    orga.set_input_files("#upload input[type=file]", str(bad))  # type: ignore[attr-defined]
    orga.click("#upload button[type=submit]")  # type: ignore[attr-defined]
    shown = orga.inner_text("#problems")  # type: ignore[attr-defined]
    assert "line 2, field 'area'" in shown and "unknown area 'Kirchenrecht'" in shown
    check(orga, "corpora with problems")
    assert site.store.corpus_names() == []
    bad.write_text(GOOD, encoding="utf-8")
    orga.set_input_files("#upload input[type=file]", str(bad))  # type: ignore[attr-defined]
    orga.click("#upload button[type=submit]")  # type: ignore[attr-defined]
    orga.wait_for_selector("#notice")  # type: ignore[attr-defined]
    check(orga, "corpora")
    orga.click("#corpora a")  # type: ignore[attr-defined]
    orga.wait_for_selector("#attach")  # type: ignore[attr-defined]
    orga.select_option("#attach select", "builtin:falloesung")  # type: ignore[attr-defined]
    orga.click("#attach button[type=submit]")  # type: ignore[attr-defined]
    assert "Rubrik: falloesung" in orga.inner_text("#corpus-facts")  # type: ignore[attr-defined]
    check(orga, "corpus")
    orga.click("#tasks a")  # type: ignore[attr-defined]
    assert "§ 433 BGB." in orga.inner_text("#reference")  # type: ignore[attr-defined]
    check(orga, "task")
    orga.goto(org_url + "/rubrics")  # type: ignore[attr-defined]
    orga.set_input_files("#rubric-upload input[type=file]", str(RUBRIC))  # type: ignore[attr-defined]
    orga.click("#rubric-upload button[type=submit]")  # type: ignore[attr-defined]
    orga.wait_for_selector("#dimensions")  # type: ignore[attr-defined]
    check(orga, "rubric")
    orga.goto(org_url + "/rubrics")  # type: ignore[attr-defined]
    check(orga, "rubrics")
    orga.goto(org_url + "/audit")  # type: ignore[attr-defined]
    actions = orga.inner_text("#audit")  # type: ignore[attr-defined]
    assert all(word in actions for word in ("create", "invite", "accept", "import", "attach-rubric"))
    check(orga, "audit log")
    orga.goto(site.url + "/orgs/join/kein-link")  # type: ignore[attr-defined]
    check(orga, "invalid invitation")
    orga.goto(site.url + "/lang/en?next=" + org_url.replace(site.url, "") + "/corpora")  # type: ignore[attr-defined]
    assert "Upload a corpus" in orga.inner_text("#upload")  # type: ignore[attr-defined]
    check(orga, "corpora in English")
    assert problems == {}
