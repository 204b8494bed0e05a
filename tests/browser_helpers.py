"""What the browser tests share: Debian Chromium driven by Playwright (nothing is downloaded), an app served by
uvicorn in a thread as ``benger serve`` serves it, logging in through the login form, and the axe-core check.

Chromium is /usr/bin/chromium. axe-core (the npm package, never a browser download) is looked up at
$AXE_CORE_JS, then ~/.cache/benger/npm/node_modules/axe-core/axe.min.js (``npm install --prefix
~/.cache/benger/npm axe-core@4``). Without one of them the tests that need it skip locally and fail under CI=true.

The root conftest loads this module as a plugin, so the ``browser`` fixture is there for every test module.
"""

from __future__ import annotations

import functools
import os
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "study"))  # study_helpers, imported when used

if TYPE_CHECKING:
    from fastapi import FastAPI
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")
AXE = Path(os.environ.get("AXE_CORE_JS", Path.home() / ".cache/benger/npm/node_modules/axe-core/axe.min.js"))
LAUNCH_ARGS = ("--no-sandbox", "--headless", "--disable-background-networking", "--disable-gpu")
#: axe-core's run on the whole document: WCAG 2.1 A and AA rules and the ``rules`` named (best-practice rules, which
#: the tags leave out); (rules passed, one line per violation of an impact in ``impacts``: rule id, impact, help
#: text and the nodes it found).
AXE_RUN = """async ({rules, impacts}) => {
    const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
    const enabled = Object.fromEntries(rules.map(r => [r, {enabled: true}]));
    const result = await axe.run(document, {runOnly: {type: 'tag', values: tags}, rules: enabled});
    const bad = result.violations.filter(v => impacts.includes(v.impact));
    return [result.passes.length,
            bad.map(v => v.id + ' (' + v.impact + '): ' + v.help + ': '
                         + v.nodes.map(n => n.target.join(' ')).join(', '))];
}"""
SERIOUS = ("serious", "critical")
#: axe-core's landmark and heading rules (best-practice): each landmark labelled uniquely among those of its role,
#: one main, banner and contentinfo at the top level, ..., headings one level at a time (the results viewer's pages
#: keep them, at every impact)
LANDMARK_RULES = (
    "heading-order",
    "page-has-heading-one",
    "landmark-unique",
    "landmark-one-main",
    "landmark-no-duplicate-banner",
    "landmark-no-duplicate-contentinfo",
    "landmark-no-duplicate-main",
    "landmark-banner-is-top-level",
    "landmark-contentinfo-is-top-level",
    "landmark-main-is-top-level",
    "landmark-complementary-is-top-level",
)
SERVER_START_S = 30.0


def absent(message: str) -> NoReturn:
    """A tool the test needs is not installed: skip locally; under CI=true that is a failure."""
    if os.environ.get("CI") == "true":
        pytest.fail(message + "; under CI=true its absence is a failure", pytrace=False)
    pytest.skip(message)


@contextmanager
def chromium() -> Iterator[Browser]:
    """Debian Chromium, headless, without a sandbox or background network traffic."""
    if not CHROMIUM.exists():
        absent(f"browser tests need Debian chromium at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=list(LAUNCH_ARGS))
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for the tests of a module."""
    with chromium() as launched:
        yield launched


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@contextmanager
def serve(app: FastAPI, trusted_proxies: list[str] | None = None) -> Iterator[str]:
    """``app`` served on a free local port by uvicorn in a thread, with ``benger serve``'s configuration: its
    base URL while the block runs; the server stops at the end."""
    import uvicorn

    from benger.cli._web import server_config

    port = free_port()
    config = server_config(app, "127.0.0.1", port, trusted_proxies or [])
    config.log_level = "warning"
    config.configure_logging()
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + SERVER_START_S
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"the test server on port {port} did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def log_in(page: Page, url: str, username: str) -> None:
    """Log ``username`` (password: study_helpers.PASSWORD) in through the login form of the app at ``url``."""
    from study_helpers import PASSWORD

    page.goto(url + "/login")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()


def logged_in_page(browser: Browser, url: str, username: str, timeout_ms: float = 15_000, **context: Any) -> Page:
    """A page in a new browser context (``context``: its options) where ``username`` has logged in."""
    page = browser.new_context(**context).new_page()
    page.set_default_timeout(timeout_ms)
    log_in(page, url, username)
    return page


@functools.cache
def axe_source() -> str:
    if AXE.exists():
        return AXE.read_text("utf-8")
    absent(f"axe-core not found at {AXE} (npm install --prefix ~/.cache/benger/npm axe-core@4, or set AXE_CORE_JS)")


def axe_violations(page: Page, *, strict: bool = False) -> list[str]:
    """The serious and critical WCAG 2.1 A/AA violations axe-core finds on the page, one line each; ``strict``:
    violations of every impact (moderate and minor too), of the landmark rules (:data:`LANDMARK_RULES`) too."""
    rules = list(LANDMARK_RULES) if strict else []
    impacts = [*SERIOUS, "moderate", "minor"] if strict else list(SERIOUS)
    page.evaluate("() => {" + axe_source() + "\n}")
    passes, bad = page.evaluate(AXE_RUN, {"rules": rules, "impacts": impacts})
    assert passes > 10  # axe ran its rules on the page
    return list(bad)
