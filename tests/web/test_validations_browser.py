"""Validation runs and an organisation's studies in Debian Chromium (issue 28): a finished run (stub system and
judge, in-process) -> "validate this judge" -> against the organisation's own reviews -> its page with the
result table; axe-core finds no serious or critical WCAG 2.1 A/AA violation on each new page type (the
validation form, a validation's page, the validations list, the organisation's studies)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from runs_helpers import SECRET, org_with_corpus
from study_helpers import new_store, user
from validation_helpers import import_reviews

from benger.store import Store
from benger.testing.stub_server import run_stub_server
from benger.web import create_app
from browser_helpers import axe_violations, log_in, serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, Store, Path, str]]:
    os.environ.setdefault("BENGER_SECRET_KEY", SECRET)
    folder = tmp_path_factory.mktemp("validations-browser")
    store = new_store(folder)
    org_id, corpus = org_with_corpus(store, user(store, "admin", "admin"))
    with serve(create_app(store)) as url:
        yield url, org_id, store, folder, corpus
    store.close()


def test_finished_run_validate_its_judge_and_read_the_table(
    browser: object, site: tuple[str, int, Store, Path, str]
) -> None:
    url, org_id, store, folder, corpus = site
    errors: list[str] = []
    page = browser.new_context().new_page()  # type: ignore[attr-defined]
    page.set_default_timeout(30_000)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    violations: dict[str, list[str]] = {}
    log_in(page, url, "admin")
    with run_stub_server(latency_ms=20) as stub:
        page.goto(f"{url}/orgs/{org_id}/runs/new")
        page.check("input[name=corpora]")
        page.locator("input[name=system_url]").first.fill(stub.base_url)
        page.locator("input[name=system_model]").first.fill("stub-gen")
        page.fill("input[name=judge_url]", stub.base_url)
        page.fill("input[name=judge_model]", "stub-judge")
        page.fill("input[name=limit]", "6")
        page.click("#run-form button[type=submit]")
        page.click("#launch")
        page.wait_for_function("() => document.getElementById('run-status').dataset.status === 'finished'",
                               timeout=90_000)  # fmt: skip
        page.wait_for_selector("#validate-link")  # the finished page (reloaded at the stream's end)
        import_reviews(store, folder / "reviews.csv", corpus)  # the organisation's own reviews (benger import-reviews)
        calls = len(stub.log)
        page.click("#validate-link")
        page.wait_for_selector("#validation-form")
        violations["form"] = axe_violations(page)
        page.check("#source-corpus")
        page.click("#validate")
        page.wait_for_selector("#validation-facts")
        violations["validation"] = axe_violations(page)  # queued, running or finished: the page as it first shows
        page.wait_for_selector("#validation-table", timeout=60_000)  # the page reloads once it has ended
        assert len(stub.log) == calls  # the run's judgements were reused
    assert page.get_attribute("#validation-status", "data-status") == "finished"
    candidate = page.locator("#candidate th").inner_text()
    assert candidate.startswith("stub-judge [")
    header = page.locator("#validation-table thead th").all_inner_texts()
    assert header[:4] == ["judge", "n human", "r", "rho"] and "kappa" in header
    assert (
        page.locator("p.agreement[data-pool=llm]")
        .inner_text()
        .startswith("Agreement with the mean blind review, llm solutions (n = 6): r ")
    )
    assert page.locator("#alt-llm tbody tr").count() == 3  # R1, R2, R3
    violations["finished"] = axe_violations(page)
    page.goto(f"{url}/orgs/{org_id}/validations")
    assert page.locator("#validations tbody tr td[data-status=finished]").count() == 1
    violations["list"] = axe_violations(page)
    page.goto(f"{url}/orgs/{org_id}/studies")
    page.fill("#new-study input[name=name]", "Klausur")
    page.click("#new-study button[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{url}/orgs/{org_id}/studies")
    assert page.locator("#org-studies tbody tr[data-study]").count() == 1
    violations["studies"] = axe_violations(page)
    assert violations == {k: [] for k in violations}
    assert not errors
