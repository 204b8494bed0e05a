"""Issue 25's three reported faults, measured on whatever benger is on PYTHONPATH (run it on two trees to compare):

* lockout: 21 wrong logins for a user name from one client, then the owner's correct password, from the device it
  logged in on before and from a new one (HTTP status of each);
* offline: a participant types 260 characters while the network is down and comes back 21 s before the deadline;
  which text the server submitted at the deadline (Chromium, Playwright's offline emulation);
* two tabs: the newer tab saves 801 characters, the older tab (still showing the first draft) types one; what the
  server holds afterwards, and whether the older tab says so.

    PYTHONPATH=TREE/src python benchmarks/bench_exam_faults.py [--skip-browser]

Prints one JSON object. Needs /usr/bin/chromium and playwright for the browser cases.
"""

from __future__ import annotations

import json
import re
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import uvicorn
from fastapi.testclient import TestClient
from sqlalchemy import select

from benger.schema import Corpus, FalloesungTask
from benger.store import Store, open_store
from benger.study import create_study, create_user, enrol, open_study, save_expertise
from benger.study._models import Attempt, Submission
from benger.web import create_app

PASSWORD = "geheim-123"
COMPETENCE = {"Zivilrecht": 3, "Strafrecht": 3, "Öffentliches Recht": 3}
OFFLINE_TEXT = " Offline geschrieben:" + " Anspruch aus § 823 I BGB." * 10  # 260 characters


def _store(folder: Path) -> Store:
    store = open_store(folder / "benger.db")
    task = FalloesungTask(
        task_id="t1", corpus="mini", area="Zivilrecht", title="Fall 1", facts="A verkauft B ein Rad.", reference="R"
    )
    store.add_corpus(Corpus(name="mini", tasks=[task]))
    return store


def _user(store: Store, name: str) -> int:
    with store.session() as session:
        return create_user(session, name, PASSWORD, ["participant"]).id


def _login(client: TestClient, name: str, password: str) -> int:
    page = client.get("/login")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text)
    assert token is not None
    data = {"username": name, "password": password, "csrf_token": token.group(1)}
    return client.post("/login", data=data, follow_redirects=False).status_code


def lockout(folder: Path) -> dict[str, Any]:
    store = _store(folder)
    _user(store, "opfer")
    app = create_app(store)
    owner = TestClient(app)
    first = _login(owner, "opfer", PASSWORD)
    owner.cookies.delete("benger_session")  # logged out; the device keeps whatever else the server gave it
    attacker = TestClient(app)
    wrong = Counter(_login(attacker, "opfer", "falsch-falsch") for _ in range(21))
    result = {
        "owner_first_login": first,
        "attacker_21_wrong": dict(sorted(wrong.items())),
        "owner_known_device": _login(owner, "opfer", PASSWORD),
        "owner_new_device": _login(TestClient(app), "opfer", PASSWORD),
    }
    store.close()
    return result


class _Server:
    def __init__(self, store: Store) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        config = uvicorn.Config(create_app(store, sweep_every_s=1.0), host="127.0.0.1", port=port, log_level="error")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def _participant(store: Store, name: str, limit_s: int) -> tuple[int, int]:
    uid = _user(store, name)
    save_expertise(store, uid, "law_student", COMPETENCE, None)
    study = create_study(store, f"Studie {name}", "mini", seed=1, time_limit_s=limit_s)
    open_study(store, study)
    enrol(store, study, uid)
    return study, uid


def _context(browser: Any, url: str, name: str) -> Any:
    context = browser.new_context()
    page = context.new_page()
    page.goto(url + "/login")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    page.close()
    return context


def _rows(store: Store, study: int, uid: int) -> tuple[Attempt | None, Submission | None]:
    with store.session() as session:
        attempt = session.scalar(select(Attempt).filter_by(study_id=study, user_id=uid))
        submission = session.scalar(select(Submission).filter_by(study_id=study, user_id=uid))
        if attempt is not None:
            session.expunge(attempt)
        if submission is not None:
            session.expunge(submission)
        return attempt, submission


def offline(browser: Any, store: Store, url: str) -> dict[str, Any]:
    limit = 36
    study, uid = _participant(store, "offline", limit)
    context = _context(browser, url, "offline")
    page = context.new_page()
    page.goto(f"{url}/studies/{study}/tasks/0")
    page.click("form[action$='/tasks/0/start'] button")
    started = time.monotonic()
    page.fill("#text", "Erster Stand.")
    time.sleep(4)  # the first draft is saved
    context.set_offline(True)
    page.type("#text", OFFLINE_TEXT[:30])
    page.evaluate(
        "t => { const a = document.getElementById('text'); a.value += t; "
        "a.dispatchEvent(new Event('input', {bubbles: true})); }",
        OFFLINE_TEXT[30:],
    )
    time.sleep(max(0.0, limit - 21 - (time.monotonic() - started)))
    context.set_offline(False)  # back online 21 s before the deadline
    time.sleep(max(0.0, limit + 8 - (time.monotonic() - started)))
    _attempt, submission = _rows(store, study, uid)
    context.close()
    typed = "Erster Stand." + OFFLINE_TEXT
    text = submission.text if submission is not None else None
    return {
        "typed_chars": len(typed),
        "submitted_chars": None if text is None else len(text),
        "submitted_all": text == typed,
        "auto_submitted": None if submission is None else submission.auto_submitted,
    }


def two_tabs(browser: Any, store: Store, url: str) -> dict[str, Any]:
    study, uid = _participant(store, "tabs", 600)
    context = _context(browser, url, "tabs")
    newer, older = context.new_page(), context.new_page()
    newer.goto(f"{url}/studies/{study}/tasks/0")
    newer.click("form[action$='/tasks/0/start'] button")
    older.goto(f"{url}/studies/{study}/tasks/0")
    newer.fill("#text", "N" * 801)
    time.sleep(4)
    saved_newer = len(_rows(store, study, uid)[0].draft)  # type: ignore[union-attr]
    older.fill("#text", "x")
    time.sleep(4)
    attempt, _ = _rows(store, study, uid)
    panel = older.locator("#draft-conflict")
    result = {
        "newer_tab_saved_chars": saved_newer,
        "after_older_tab_typed_chars": len(attempt.draft) if attempt is not None else None,
        "older_tab_shown_conflict": panel.count() == 1 and panel.is_visible(),
    }
    context.close()
    return result


def main() -> None:
    import benger

    out: dict[str, Any] = {"benger": str(Path(benger.__file__).parent)}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "lock").mkdir()
        out["lockout"] = lockout(folder / "lock")
        if "--skip-browser" not in sys.argv:
            from playwright.sync_api import sync_playwright

            (folder / "web").mkdir()
            store = _store(folder / "web")
            server = _Server(store)
            with sync_playwright() as p:
                args = ["--no-sandbox", "--headless", "--disable-background-networking", "--disable-gpu"]
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args)
                out["offline"] = offline(browser, store, server.url)
                out["two_tabs"] = two_tabs(browser, store, server.url)
                browser.close()
            server.stop()
            store.close()
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
