"""Browser tests in Debian Chromium (Playwright drives /usr/bin/chromium; nothing is downloaded).

Accessibility: axe-core is injected into every page type and must find no serious or critical WCAG 2.1 A/AA
violation (tests/browser_helpers.py says where it is looked up, and what happens without it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from sqlalchemy import select
from study_helpers import new_store
from web_helpers import World, opened, populate, set_authors, submit_all

from benger.study import enrol
from benger.study._models import Attempt, Pick, ReviewAssignment, Submission
from benger.web import create_app
from browser_helpers import axe_violations, logged_in_page, serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class Site:
    def __init__(self, world: World, url: str, short: int, fresh: int, warn: int, other: int) -> None:
        self.world, self.url, self.short, self.fresh = world, url, short, fresh
        self.warn, self.other = warn, other


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    store = new_store(tmp_path_factory.mktemp("browser"))
    world = populate(store)
    short = opened(store, "Kurz", seed=2, time_limit_s=4)  # the timer runs out in the test
    enrol(store, short, world.ids["participant"])
    fresh = opened(store, "Ohne Picks", seed=3)
    submit_all(store, fresh, world.ids)
    set_authors(store, fresh, world.ids)
    warn = opened(store, "Warnungen", seed=4, time_limit_s=5 * 60 + 3)  # 15- and 5-minute warnings in seconds
    enrol(store, warn, world.ids["participant"])
    other = opened(store, "Neu", seed=5)  # "participant" is not enrolled: the start page with consent
    with serve(create_app(store, sweep_every_s=1.0)) as url:
        yield Site(world, url, short, fresh, warn, other)
    store.close()


def test_participant_completes_a_timed_task(browser: object, site: Site) -> None:
    page = logged_in_page(browser, site.url, "participant")
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
    page = logged_in_page(browser, site.url, "participant")
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
    page = logged_in_page(browser, site.url, "g2")
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
    page = logged_in_page(browser, site.url, "admin")
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


def test_start_page_needs_consent_then_skip_needs_a_reason(browser: object, site: Site) -> None:
    page = logged_in_page(browser, site.url, "participant")
    page.goto(f"{site.url}/studies/{site.other}")
    assert page.inner_text("#n-tasks") == "6" and page.inner_text("#time-limit") == "1:00:00"
    page.click("#enrol-button")  # the consent box is required: the browser keeps the page
    assert page.locator("#consent-form").is_visible()
    page.check("#consent")
    page.click("#enrol-button")
    page.wait_for_selector("details.skip")
    page.locator("details.skip summary").first.click()
    page.locator("details.skip textarea").first.fill("Zivilrecht liegt mir nicht")
    page.locator("details.skip button").first.click()
    page.wait_for_selector(".status-skipped")
    with site.world.store.session() as session:
        skipped = session.scalar(
            select(Attempt).filter_by(study_id=site.other, user_id=site.world.ids["participant"], status="skipped")
        )
    assert skipped is not None and skipped.skip_reason == "Zivilrecht liegt mir nicht"


def test_countdown_is_hh_mm_ss_sticky_and_warns(browser: object, site: Site) -> None:
    page = logged_in_page(browser, site.url, "participant")
    page.set_viewport_size({"width": 1000, "height": 500})
    page.goto(f"{site.url}/studies/{site.warn}")
    page.locator("form[action$='/tasks/0/start'] button").click()
    page.wait_for_selector("#countdown")
    assert re.fullmatch(r"00:0[45]:[0-5]\d", page.inner_text("#countdown"))
    assert page.get_attribute("#countdown", "role") == "timer"
    assert page.get_attribute("#timer-warning", "aria-live") == "assertive"
    assert page.inner_text("#timer-warning") == "Noch 15 Minuten."  # 5:03 left is within the last 15 minutes
    page.wait_for_function("() => document.getElementById('timer-warning').textContent.startsWith('Noch 5')")
    page.mouse.wheel(0, 5000)
    box = page.locator("#countdown").bounding_box()
    assert box is not None and 0 <= box["y"] < 500  # still in view after scrolling: sticky
    assert page.evaluate("() => getComputedStyle(document.getElementById('timer-bar')).position") == "sticky"


def test_back_button_after_logout_does_not_show_the_reference(browser: object, site: Site) -> None:
    page = logged_in_page(browser, site.url, "c1")
    with site.world.store.session() as session:
        aid = session.scalar(
            select(ReviewAssignment.id).filter_by(grader_id=site.world.ids["c1"], role="creator").limit(1)
        )
    page.goto(f"{site.url}/reviews/{aid}")
    assert "MUSTERLOESUNG-GEHEIM" in page.inner_text("body")
    page.click("header button[type=submit]")  # Abmelden
    page.wait_for_url(f"{site.url}/login")
    page.go_back()
    page.wait_for_load_state()
    assert "MUSTERLOESUNG-GEHEIM" not in page.content()
    assert page.url == f"{site.url}/login"


def test_every_page_type_has_no_serious_accessibility_violation(browser: object, site: Site) -> None:
    world = site.world
    with world.store.session() as session:
        blind = session.scalar(select(ReviewAssignment.id).filter_by(grader_id=world.ids["g1"], role="blind").limit(1))
        creator = session.scalar(
            select(ReviewAssignment.id).filter_by(grader_id=world.ids["c2"], role="creator").limit(1)
        )
    pages = {
        "": ["/login", "/invite/kein-token"],
        "participant": [
            "/studies",
            f"/studies/{world.live}",
            f"/studies/{world.live}/tasks/0",
            f"/studies/{world.live}/tasks/3",
            "/profile",
            "/account",
            "/studies/999",
        ],
        "p0": [f"/studies/{world.study}", f"/studies/{world.study}/tasks/0"],
        "g1": ["/reviews", f"/reviews/{blind}"],
        "c2": [f"/reviews/{creator}"],
        "admin": ["/admin", f"/admin/studies/{world.study}", f"/admin/studies/{site.fresh}"],
    }
    problems = {}
    for who, paths in pages.items():
        page = logged_in_page(browser, site.url, who) if who else browser.new_context().new_page()  # type: ignore[attr-defined]
        for path in paths:
            page.goto(site.url + path)
            found = axe_violations(page)
            if found:
                problems[path] = found
    assert problems == {}


def test_selected_passage_becomes_a_margin_note(browser: object, site: Site) -> None:
    page = logged_in_page(browser, site.url, "c0")
    with site.world.store.session() as session:
        aid = session.scalar(select(ReviewAssignment.id).filter_by(grader_id=site.world.ids["c0"]).limit(1))
    page.goto(f"{site.url}/reviews/{aid}")
    page.evaluate(
        """() => {
            const node = document.querySelector('#solution-text p').firstChild;
            const range = document.createRange();
            range.setStart(node, 0);
            range.setEnd(node, 7);
            window.getSelection().removeAllRanges();
            window.getSelection().addRange(range);
        }"""
    )
    selected = page.evaluate("() => window.getSelection().toString()")
    page.click("#take-selection")
    assert page.input_value("#new-note-quote") == selected and len(selected) == 7
    assert page.evaluate("() => document.activeElement.id") == "new-note-text"
