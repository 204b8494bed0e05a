"""Runs from the browser in Debian Chromium (issue 28): log in, the organisation exists with a corpus, set up a
run against the OpenAI-compatible stub (one system, one judge), see the estimate, launch it in-process, watch its
progress arrive by server-sent events to the end, open the leaderboard (as the organisation's organiser, who
holds no platform role: the results of its corpora only); axe-core finds no serious or critical
WCAG 2.1 A/AA violation on each new page type (runs list, set-up form, run page as draft, running and finished,
API keys)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from runs_helpers import SECRET, org_with_corpus
from study_helpers import new_store, user

from benger.store import Store
from benger.testing.stub_server import run_stub_server
from benger.web import create_app
from browser_helpers import axe_violations, log_in, serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, Store]]:
    os.environ.setdefault("BENGER_SECRET_KEY", SECRET)
    store = new_store(tmp_path_factory.mktemp("runs-browser"))
    org_id, _ = org_with_corpus(store, user(store, "admin", "admin"))
    _invite_organiser(store, org_id, user(store, "orga", "participant"))
    with serve(create_app(store)) as url:
        yield url, org_id, store
    store.close()


def _invite_organiser(store: Store, org_id: int, user_id: int) -> None:
    """``orga`` (no platform role but participant) joins the organisation as its organiser."""
    from benger.store._orgs import Organisation
    from benger.web.access import Member, OrgInfo, OrgRole, OrgScope, accept_invitation

    with store.session() as session:
        org = session.get(Organisation, org_id)
        assert org is not None
        info = OrgInfo(org.id, org.name, org.slug)
    token = OrgScope(store, info, Member(1, "admin", OrgRole.OWNER)).invite("organiser")
    accept_invitation(store, token, user_id, "orga")


def test_set_up_estimate_launch_watch_and_open_the_leaderboard(browser: object, site: tuple[str, int, Store]) -> None:
    url, org_id, _store = site
    errors: list[str] = []
    page = browser.new_context().new_page()  # type: ignore[attr-defined]
    page.set_default_timeout(30_000)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" and "404" not in m.text else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    violations: dict[str, list[str]] = {}
    log_in(page, url, "admin")  # the owner stores keys (keys:write is the owner's)
    page.goto(f"{url}/orgs/{org_id}/keys")
    violations["keys"] = axe_violations(page)
    page.context.clear_cookies()
    # the rest is the organisation's organiser, who holds no platform role (not admin)
    log_in(page, url, "orga")
    page.goto(f"{url}/orgs/{org_id}/runs")
    violations["runs"] = axe_violations(page)
    page.click("text=Neuer Lauf")
    page.wait_for_selector("#run-form")
    violations["new"] = axe_violations(page)
    with run_stub_server(latency_ms=150) as stub:
        page.check("input[name=corpora]")
        page.locator("input[name=system_url]").first.fill(stub.base_url)
        page.locator("input[name=system_model]").first.fill("stub-gen")
        page.fill("input[name=judge_url]", stub.base_url)
        page.fill("input[name=judge_model]", "stub-judge")
        page.fill("input[name=limit]", "3")
        page.fill("input[name=concurrency]", "1")
        page.click("#run-form button[type=submit]")
        page.wait_for_selector("#estimate")
        calls = page.locator("#estimate td[data-field=calls]").all_inner_texts()
        assert calls == ["3", "3"]  # 3 generations, then a judgement of each
        violations["draft"] = axe_violations(page)
        page.click("#launch")
        page.wait_for_selector("#progress")
        # the SSE stream updates the table while the run goes (at least one event before the end)
        page.wait_for_function(
            "() => ['running', 'finished'].includes(document.getElementById('run-status').dataset.status)"
        )
        violations["running"] = axe_violations(page)
        page.wait_for_function("() => document.getElementById('run-status').dataset.status === 'finished'",
                               timeout=90_000)  # fmt: skip
        page.wait_for_selector("#leaderboard-link")
        assert len(stub.log) == 6
    finished = page.locator("#progress td[data-field=finished]").all_inner_texts()
    assert [t.split()[0] for t in finished] == ["3", "3"]
    assert page.inner_text("#progress tr[data-stage=generate] td[data-field=remaining]") == "0"
    violations["finished"] = axe_violations(page)
    page.click("#leaderboard-link")
    page.wait_for_selector("table.leaderboard")
    systems = page.locator("table.leaderboard tbody tr").evaluate_all("rows => rows.map(r => r.dataset.system)")
    assert "stub-gen" in systems
    # the store's other corpus ("mini", no organisation's) and its systems are not the organiser's to read
    assert not {"sys-flag-a", "sys-eff"} & set(systems)
    assert violations == {k: [] for k in violations}
    assert not errors
    # a corpus hidden from the organiser is answered as one that does not exist: 400, the same alert, no systems
    hidden = page.goto(f"{url}/view/browse?corpus=mini")
    assert hidden is not None and hidden.status == 400
    assert page.locator("a[href*='sys-flag-a']").count() == 0 and "sys-flag-a" not in page.content()
    alert = page.inner_text("[role=alert]")
    absent = page.goto(f"{url}/view/browse?corpus=nosuch")
    assert absent is not None and absent.status == 400
    assert page.inner_text("[role=alert]") == alert.replace("mini", "nosuch", 1)
