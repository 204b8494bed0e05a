"""Browser tests in Debian Chromium (Playwright drives /usr/bin/chromium; nothing is downloaded)."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from sqlalchemy import select
from study_helpers import PASSWORD, new_store
from web_helpers import World, opened, populate, set_authors, submit_all

from benger.study import enrol
from benger.study._models import Pick, ReviewAssignment, Submission
from benger.web import create_app

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = [pytest.mark.browser, pytest.mark.slow]
if not CHROMIUM.exists():
    if os.environ.get("CI") == "true":
        pytest.fail("browser tests need Debian chromium at /usr/bin/chromium (apt-get install chromium)", pytrace=False)
    pytest.skip(
        "browser tests need Debian chromium at /usr/bin/chromium (apt-get install chromium)", allow_module_level=True
    )
sync_api = pytest.importorskip("playwright.sync_api")


class Site:
    def __init__(self, world: World, url: str, short: int, fresh: int) -> None:
        self.world, self.url, self.short, self.fresh = world, url, short, fresh


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    store = new_store(tmp_path_factory.mktemp("browser"))
    world = populate(store)
    short = opened(store, "Kurz", seed=2, time_limit_s=4)  # the timer runs out in the test
    enrol(store, short, world.ids["participant"])
    fresh = opened(store, "Ohne Picks", seed=3)
    submit_all(store, fresh, world.ids)
    set_authors(store, fresh, world.ids)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(create_app(store, sweep_every_s=1.0), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    yield Site(world, f"http://127.0.0.1:{port}", short, fresh)
    server.should_exit = True
    thread.join(10)
    store.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=["--no-sandbox", "--headless", "--disable-background-networking", "--disable-gpu"],
        )
        yield b
        b.close()


def _login(browser: object, site: Site, username: str) -> object:
    page = browser.new_context().new_page()  # type: ignore[attr-defined]
    page.set_default_timeout(15_000)
    page.goto(site.url + "/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    return page


def test_participant_completes_a_timed_task(browser: object, site: Site) -> None:
    page = _login(browser, site, "participant")
    page.goto(f"{site.url}/studies/{site.world.live}")
    page.locator("form[action$='/tasks/0/start'] button").click()
    page.wait_for_selector("#countdown")
    assert "Sachverhalt 1" in page.inner_text(".facts")
    page.fill("#text", "A hat gegen B einen Anspruch aus § 433 II BGB.")
    page.wait_for_function("() => document.getElementById('autosave-status').textContent.startsWith('Gespeichert')")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("#submit-button")
    page.wait_for_selector("#submitted-notice")
    assert "§ 433 II BGB" in page.inner_text("#submitted-text")
    with site.world.store.session() as session:
        sub = session.scalar(
            select(Submission).filter_by(
                user_id=site.world.ids["participant"], task_id="mini-t1", study_id=site.world.live
            )
        )
    assert sub is not None and not sub.auto_submitted


def test_timer_expires_and_draft_is_submitted(browser: object, site: Site) -> None:
    page = _login(browser, site, "participant")
    page.goto(f"{site.url}/studies/{site.short}")
    page.locator("form[action$='/tasks/1/start'] button").click()
    page.wait_for_selector("#countdown")
    page.fill("#text", "Entwurf vor Ablauf")
    page.wait_for_function("() => document.getElementById('autosave-status').textContent.startsWith('Gespeichert')")
    # 4 s limit: the countdown reaches 0, the page reloads and shows the automatic submission
    page.wait_for_selector("#submitted-notice", timeout=20_000)
    assert "automatisch" in page.inner_text("#submitted-notice")
    assert page.inner_text("#submitted-text") == "Entwurf vor Ablauf"


def test_blind_grader_grades_a_pick(browser: object, site: Site) -> None:
    page = _login(browser, site, "g2")
    page.goto(site.url + "/reviews")
    page.locator("table a").first.click()
    page.wait_for_selector("#grade-form")
    points = page.locator("input.points")
    assert points.count() == 10
    with site.world.store.session() as session:
        n = len(session.scalars(select(ReviewAssignment).filter_by(grader_id=site.world.ids["g2"])).all())
    assert page.inner_text("#progress") == f"0 von {n} abgegeben"
    values = ["15", "8", "7,5", "11", "10", "6", "7", "4", "2,5", "1.5"]  # German decimal commas are accepted
    for i, value in enumerate(values):
        points.nth(i).fill(value)
        page.locator("textarea[name^=just_]").nth(i).fill("nachvollziehbar")
    # 15+8+7.5+11+10+6+7+4+2.5+1.5 = 72.5 -> 73 -> 10 grade points; shown in German number format
    assert page.inner_text("#total") == "72,5"
    assert page.inner_text("#grade-points") == "10"
    page.click("#submit-review")
    page.wait_for_selector("#review-submitted")
    assert page.inner_text("#progress") == f"1 von {n} abgegeben"
    assert page.inner_text("#total") == "72,5"
    assert page.locator("#next-review").is_visible()
    reviews = site.world.store.human_reviews()
    assert [r.raw_score for r in reviews] == [72.5] and reviews[0].grade_points == 10


def test_admin_runs_picks_and_assignment(browser: object, site: Site) -> None:
    page = _login(browser, site, "admin")
    page.goto(f"{site.url}/admin/studies/{site.fresh}")
    assert page.locator("#run-picks").is_disabled()  # submissions still open
    page.click("#state-close")
    page.wait_for_selector("#study-state")
    assert page.inner_text("#study-state") == "geschlossen"
    page.click("#run-picks")
    page.wait_for_selector("#picks tbody tr")
    assert page.locator("#picks tbody tr").count() == 18
    page.click("#run-assignment")
    page.wait_for_selector("#workload tbody tr")
    with site.world.store.session() as session:
        picks = session.scalars(select(Pick).filter_by(study_id=site.fresh)).all()
        rows = session.scalars(select(ReviewAssignment).filter_by(study_id=site.fresh)).all()
    assert (len(picks), len(rows)) == (18, 72)
    assert "72" in page.inner_text("body")
