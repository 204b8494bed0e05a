"""Autosave in Debian Chromium under the faults of issue 25: the network drops (Playwright's offline
emulation), a second tab of the same task, a browser clock an hour off, reconnecting after the deadline."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from sqlalchemy import select
from study_helpers import new_store, user
from web_helpers import COMPETENCE, opened

from benger.store import Store
from benger.study import enrol, save_expertise
from benger.study._models import Attempt, Submission
from benger.web import create_app
from browser_helpers import log_in, serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]
OFFLINE_TEXT = " Offline geschrieben:" + " Anspruch aus § 823 I BGB." * 10  # 260 characters typed while offline


class Site:
    def __init__(self, store: Store, url: str) -> None:
        self.store, self.url, self.n = store, url, 0

    def participant(self, limit_s: int) -> tuple[str, int, int]:
        """A new participant enrolled in a new study with ``limit_s`` seconds per task: (name, study, user id)."""
        self.n += 1
        name = f"teilnehmer{self.n}"
        uid = user(self.store, name, "participant")
        save_expertise(self.store, uid, "law_student", COMPETENCE, None)
        study = opened(self.store, f"Autosave {self.n}", seed=self.n, time_limit_s=limit_s)
        enrol(self.store, study, uid)
        return name, study, uid

    def attempt(self, study: int, uid: int) -> Attempt:
        with self.store.session() as session:
            a = session.scalar(select(Attempt).filter_by(study_id=study, user_id=uid, task_id="mini-t1"))
            assert a is not None
            session.expunge(a)
            return a

    def submission(self, study: int, uid: int) -> Submission | None:
        with self.store.session() as session:
            return session.scalar(select(Submission).filter_by(study_id=study, user_id=uid, task_id="mini-t1"))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    store = new_store(tmp_path_factory.mktemp("autosave"))
    with serve(create_app(store, sweep_every_s=1.0)) as url:
        yield Site(store, url)
    store.close()


def _context(browser: object, site: Site, name: str, skew_ms: int = 0) -> object:
    context = browser.new_context()  # type: ignore[attr-defined]
    if skew_ms:  # the browser's clock is off by skew_ms (as on a laptop with a wrong time)
        context.add_init_script(f"(() => {{ const real = Date.now; Date.now = () => real() + {skew_ms}; }})()")
    page = context.new_page()
    page.set_default_timeout(20_000)
    log_in(page, site.url, name)
    return context


def _start(page: object, site: Site, study: int) -> None:
    page.goto(f"{site.url}/studies/{study}/tasks/0")  # type: ignore[attr-defined]
    page.click("form[action$='/tasks/0/start'] button")  # type: ignore[attr-defined]
    page.wait_for_selector("#countdown")  # type: ignore[attr-defined]


def _state(page: object, state: str) -> None:
    page.wait_for_function(  # type: ignore[attr-defined]
        f"() => document.getElementById('autosave-status').getAttribute('data-state') === '{state}'"
    )


def test_text_typed_offline_is_retried_and_submitted(browser: object, site: Site) -> None:
    name, study, uid = site.participant(limit_s=20)
    context = _context(browser, site, name)
    page = context.new_page()  # type: ignore[attr-defined]
    _start(page, site, study)
    page.fill("#text", "Erster Stand.")
    _state(page, "saved")
    assert page.inner_text("#autosave-status").startswith("Gespeichert ")
    context.set_offline(True)  # type: ignore[attr-defined]
    page.type("#text", OFFLINE_TEXT[:30])
    page.evaluate(
        "t => { const a = document.getElementById('text'); a.value += t; "
        "a.dispatchEvent(new Event('input', {bubbles: true})); }",
        OFFLINE_TEXT[30:],
    )
    _state(page, "retry")
    assert page.inner_text("#autosave-status") == "Nicht gespeichert – wird erneut versucht"
    assert page.locator("#autosave-status").is_visible()  # in the sticky timer bar
    assert site.attempt(study, uid).draft == "Erster Stand."
    mirrored = page.evaluate("() => JSON.parse(localStorage.getItem(Object.keys(localStorage)[0])).text")
    assert mirrored == "Erster Stand." + OFFLINE_TEXT
    time.sleep(2)
    context.set_offline(False)  # type: ignore[attr-defined]
    _state(page, "saved")
    assert site.attempt(study, uid).draft == "Erster Stand." + OFFLINE_TEXT
    page.wait_for_selector("#submitted-notice", timeout=40_000)  # the timer runs out; the sweep submits
    sub = site.submission(study, uid)
    assert sub is not None and sub.auto_submitted and sub.text == "Erster Stand." + OFFLINE_TEXT
    assert page.evaluate("() => localStorage.length") == 0  # nothing of the solution stays in the browser
    context.close()  # type: ignore[attr-defined]


def test_a_closed_tab_leaves_its_unsaved_text_for_the_next_visit(browser: object, site: Site) -> None:
    name, study, uid = site.participant(limit_s=600)
    context = _context(browser, site, name)
    page = context.new_page()  # type: ignore[attr-defined]
    _start(page, site, study)
    page.fill("#text", "Gespeichert.")
    _state(page, "saved")
    context.set_offline(True)  # type: ignore[attr-defined]
    page.fill("#text", "Gespeichert. Und offline weiter.")
    _state(page, "retry")
    page.close()
    context.set_offline(False)  # type: ignore[attr-defined]
    again = context.new_page()  # type: ignore[attr-defined]
    again.goto(f"{site.url}/studies/{study}/tasks/0")
    _state(again, "saved")
    assert again.input_value("#text") == "Gespeichert. Und offline weiter."
    assert site.attempt(study, uid).draft == "Gespeichert. Und offline weiter."
    context.close()  # type: ignore[attr-defined]


def test_the_older_tab_is_shown_the_newer_text_and_asked(browser: object, site: Site) -> None:
    name, study, uid = site.participant(limit_s=600)
    context = _context(browser, site, name)
    newer, older = context.new_page(), context.new_page()  # type: ignore[attr-defined]
    _start(newer, site, study)
    older.goto(f"{site.url}/studies/{study}/tasks/0")
    newer.fill("#text", "N" * 801)
    _state(newer, "saved")
    older.fill("#text", "x")  # the older tab, still on version 0
    _state(older, "conflict")
    assert older.locator("#draft-conflict").is_visible()
    assert older.input_value("#conflict-text") == "N" * 801
    assert "801 Zeichen" in older.inner_text("#conflict-message")
    time.sleep(1.5)  # no save goes out while the participant has not decided
    assert site.attempt(study, uid).draft == "N" * 801
    older.click("#conflict-take")
    assert older.input_value("#text") == "N" * 801 and not older.locator("#draft-conflict").is_visible()
    older.type("#text", "!")
    _state(older, "saved")
    assert (site.attempt(study, uid).draft, site.attempt(study, uid).draft_version) == ("N" * 801 + "!", 2)
    # now the first tab is the stale one; it keeps its own text on purpose
    newer.type("#text", "?")
    _state(newer, "conflict")
    newer.click("#conflict-keep")
    _state(newer, "saved")
    assert site.attempt(study, uid).draft == "N" * 801 + "?"
    # and a stale submission is refused (409), nothing submitted
    older.on("dialog", lambda dialog: dialog.accept())
    older.click("#submit-button")
    older.wait_for_load_state()
    assert "anderen Fenster" in older.inner_text("main")
    assert site.submission(study, uid) is None
    context.close()  # type: ignore[attr-defined]


def _seconds(hms: str) -> int:
    h, m, s = (int(x) for x in hms.split(":"))
    return h * 3600 + m * 60 + s


@pytest.mark.parametrize("skew_s", [3600, -3600])
def test_the_countdown_uses_the_server_clock(browser: object, site: Site, skew_s: int) -> None:
    name, study, uid = site.participant(limit_s=1800)
    context = _context(browser, site, name, skew_ms=skew_s * 1000)
    page = context.new_page()  # type: ignore[attr-defined]
    _start(page, site, study)
    page.evaluate("() => { window.notReloaded = true; }")
    time.sleep(4)  # the old countdown said "Zeit abgelaufen" at once and reloaded after 3.5 s (1 h ahead)
    assert page.evaluate("() => window.notReloaded === true")
    assert 1790 <= _seconds(page.inner_text("#countdown")) <= 1800
    page.fill("#text", "Zeitversatz")
    _state(page, "saved")  # the save measures the offset again; still the server's time
    assert 1785 <= _seconds(page.inner_text("#countdown")) <= 1800
    assert site.submission(study, uid) is None
    context.close()  # type: ignore[attr-defined]


def test_reconnecting_after_the_deadline_says_what_counts(browser: object, site: Site) -> None:
    name, study, uid = site.participant(limit_s=8)
    context = _context(browser, site, name)
    page = context.new_page()  # type: ignore[attr-defined]
    _start(page, site, study)
    page.fill("#text", "Bestätigt.")
    _state(page, "saved")
    context.set_offline(True)  # type: ignore[attr-defined]
    page.fill("#text", "Bestätigt. Nach dem Verbindungsabbruch.")
    _state(page, "retry")
    time.sleep(10)  # the deadline passes while offline; the server's sweep submits the acknowledged text
    sub = site.submission(study, uid)
    assert sub is not None and sub.text == "Bestätigt."
    assert page.locator("#text").is_visible()  # the page with the text stays while offline (no error page)
    context.set_offline(False)  # type: ignore[attr-defined]
    page.wait_for_selector("#submitted-notice", timeout=30_000)
    assert "zuletzt bestätigt" in page.inner_text("#submitted-notice")
    assert page.inner_text("#submitted-text") == "Bestätigt."
    assert page.locator("#lost-note").is_visible()
    assert "zählt nicht" in page.inner_text("#lost-note")
    context.close()  # type: ignore[attr-defined]
