"""The results viewer in Debian Chromium over the imported release: every page type renders (no console error,
axe-core finds no WCAG 2.1 A/AA violation of any impact and no landmark violation), the leaderboard equals
``benger leaderboard --out``'s CSV (the superseded counts too) and no CI whisker of its figures crosses a bar's
value, a released pick shows all 10 dimensions with the three blind reviews, Browse filters and pages, sorting works
from the keyboard, and the static bundle opens from ``file://`` with every network request refused.

``BENGER_VIEW_SHOTS=DIR`` keeps a full-page screenshot of each page type there.
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from benger.cli import app as cli_app
from benger.cli._app import _register_commands
from benger.store import Store, open_store
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app, write_bundle
from browser_helpers import axe_violations, serve

SHOTS = os.environ.get("BENGER_VIEW_SHOTS")
pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _cli(args: list[str]) -> object:
    _register_commands()
    return CliRunner().invoke(cli_app, args)


@pytest.fixture(scope="module")
def release_store(release_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, Path]]:
    db = tmp_path_factory.mktemp("viewer-release") / "release.db"
    result = _cli(["import", f"release:{release_dir}", "--db", str(db)])
    assert result.exit_code == 0, result.output
    store = open_store(db)
    yield store, db
    store.close()


@pytest.fixture(scope="module")
def url(release_store: tuple[Store, Path]) -> Iterator[str]:
    with serve(create_viewer_app(release_store[0], Principal.local())) as base:
        yield base


def _open(browser: object, target: str, errors: list[str]) -> object:
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()  # type: ignore[attr-defined]
    page.set_default_timeout(30_000)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(target)
    return page


def _shot(page: object, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)  # type: ignore[attr-defined]


def _pick(store: Store) -> str:
    """A released LLM validation pick (a generation with text and three blind reviews)."""
    for g in store.generations(corpus="benchathon"):
        if g.meta.get("pick_id") and g.text:
            return g.generation_id
    raise AssertionError("no released pick")


def test_leaderboard_equals_the_cli_csv(
    browser: object, url: str, release_store: tuple[Store, Path], tmp_path: Path
) -> None:
    out = tmp_path / "lb"
    result = _cli(["leaderboard", "--db", str(release_store[1]), "--out", str(out)])
    assert result.exit_code == 0, result.output
    expected = list(csv.DictReader(io.StringIO((out / "leaderboard.csv").read_text(encoding="utf-8"))))
    errors: list[str] = []
    page = _open(browser, url + "/view/", errors)
    shown = page.evaluate(  # type: ignore[attr-defined]
        """() => Array.from(document.querySelectorAll('table.leaderboard tbody tr')).map(tr => {
            const row = {system: tr.dataset.system, corpus: tr.dataset.corpus, jcfg: tr.dataset.judgeCfg};
            tr.querySelectorAll('td[data-field]').forEach(td => { row[td.dataset.field] = td.dataset.value;
              if (td.dataset.high !== undefined) row.ci_high = td.dataset.high; });
            return row; })"""
    )
    assert len(shown) == len(expected) == 12  # the 12 paper systems on Benchathon (the judged corpus)
    by_key = {(r["system"], r["corpus"], r["jcfg"]): r for r in shown}
    for row in expected:
        cells = by_key[(row["system"], row["corpus"], row["judge_config_hash"])]
        for field in (
            "rank",
            "n",
            "mean",
            "ci_low",
            "ci_high",
            "mean_grade_points",
            "pass_rate",
            "accuracy",
            "failed",
            "excluded",
            "truncated",
            "unscored",
            "unjudged",
            "superseded",
        ):
            assert cells[field] == row[field], (row["system"], row["corpus"], field)
    assert page.locator("svg.figure").count() == 1  # type: ignore[attr-defined]  # one corpus, one judge
    # sort by mean from the keyboard: the first row then has the highest mean of the table
    table = page.locator("table.leaderboard").first  # type: ignore[attr-defined]
    button = table.locator("button.sort").nth(4)
    button.focus()
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    page.keyboard.press("Enter")  # type: ignore[attr-defined]
    assert table.locator("th").nth(4).get_attribute("aria-sort") == "descending"
    means = [
        float(v)
        for v in table.locator("td[data-field=mean]").evaluate_all(
            "tds => tds.map(td => td.dataset.value).filter(v => v !== '')"
        )
    ]
    assert means == sorted(means, reverse=True)
    _shot(page, "leaderboard")
    assert not axe_violations(page, strict=True)
    assert not errors


def _overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and (b["y"] < a["y"] + a["height"])
    )


def test_no_whisker_crosses_a_value(browser: object, url: str) -> None:
    page = _open(browser, url + "/view/", [])
    figures = page.evaluate(  # type: ignore[attr-defined]
        """() => Array.from(document.querySelectorAll('svg.figure')).map(svg => {
            const box = e => { const b = e.getBBox(); return {x: b.x, y: b.y, width: b.width, height: b.height}; };
            return {values: Array.from(svg.querySelectorAll('text.val')).map(box),
                    whiskers: Array.from(svg.querySelectorAll('line.ci')).map(box),
                    width: svg.viewBox.baseVal.width}; })"""
    )
    assert figures and all(f["whiskers"] for f in figures)
    for f in figures:
        for value in f["values"]:
            assert value["x"] + value["width"] <= f["width"]  # inside the figure
            for whisker in f["whiskers"]:
                assert not _overlaps(value, {**whisker, "y": whisker["y"] - 1, "height": 2}), (value, whisker)


def test_released_pick_shows_ten_dimensions_and_three_blind_reviews(
    browser: object, url: str, release_store: tuple[Store, Path]
) -> None:
    gid = _pick(release_store[0])
    errors: list[str] = []
    page = _open(browser, f"{url}/view/solution?kind=generation&id={gid}", errors)
    rows = page.locator("table.grid tbody tr[data-dimension]")  # type: ignore[attr-defined]
    assert rows.count() == 10
    assert page.locator("table.grid thead th.blind").count() == 3  # type: ignore[attr-defined]
    assert page.locator("table.grid thead th.creator").count() == 1  # type: ignore[attr-defined]
    assert page.locator("table.grid thead th.judge").count() >= 1  # type: ignore[attr-defined]
    # every dimension has the judge's score and the four reviewers' scores (the release ships no justifications:
    # tests/web/test_viewer.py checks them on a store that has them)
    scores = page.locator("table.grid tbody tr[data-dimension] td .score")  # type: ignore[attr-defined]
    assert scores.count() == 10 * 5
    assert page.locator(".g-norm").count() > 0  # type: ignore[attr-defined]
    assert page.locator("nav.outline li").count() > 0  # type: ignore[attr-defined]
    _shot(page, "solution")
    assert not axe_violations(page, strict=True)
    assert not errors


def test_browse_filters_and_pages(browser: object, url: str) -> None:
    errors: list[str] = []
    page = _open(browser, url + "/view/browse", errors)
    first = page.inner_text("#count")  # type: ignore[attr-defined]
    assert "von 5" in first  # 208 generations + 30 human picks, 50 per page
    page.select_option("select[name=system]", "human")  # type: ignore[attr-defined]
    page.click("form.filters button[type=submit]")  # type: ignore[attr-defined]
    page.wait_for_load_state()  # type: ignore[attr-defined]
    assert page.inner_text("#count").startswith("30 Treffer")  # type: ignore[attr-defined]
    page.goto(url + "/view/browse")  # type: ignore[attr-defined]
    page.click("a[rel=next]")  # type: ignore[attr-defined]
    page.wait_for_load_state()  # type: ignore[attr-defined]
    assert "Seite 2 von" in page.inner_text("#count")  # type: ignore[attr-defined]
    _shot(page, "browse")
    assert not axe_violations(page, strict=True)
    assert not errors


@pytest.mark.parametrize(
    "path",
    ["/view/validation", "/view/errors", "/view/compare?corpus=benchathon&task={task}", "/view/validation?lang=en"],
)
def test_page_types_render_clean(browser: object, url: str, release_store: tuple[Store, Path], path: str) -> None:
    store = release_store[0]
    gid = _pick(store)
    gen = store.get_generation_by_id(gid)
    assert gen is not None
    others = [g for g in store.generations(corpus="benchathon", status="ok") if g.task_id == gen.task_id]
    target = path.format(task=gen.task_id)
    if "compare" in target:
        target += f"&a={gid}&b={next(g.generation_id for g in others if g.generation_id != gid)}"
    errors: list[str] = []
    page = _open(browser, url + target, errors)
    assert page.locator("h1").count() == 1  # type: ignore[attr-defined]
    if "validation" in target:
        assert page.locator("table.validation tbody tr").count() >= 1  # type: ignore[attr-defined]
        assert page.locator("svg.figure circle").count() >= 10  # type: ignore[attr-defined]
    if "errors" in target:
        assert page.locator("table").count() >= 2  # type: ignore[attr-defined]
    if "compare" in target:
        assert page.locator("table.grid").count() == 2  # type: ignore[attr-defined]
    _shot(page, target.split("?")[0].rsplit("/", 1)[-1] + ("-en" if "lang=en" in target else ""))
    assert not axe_violations(page, strict=True)
    assert not errors


def test_bundle_opens_from_file_without_network(
    browser: object, release_store: tuple[Store, Path], tmp_path: Path
) -> None:
    out = tmp_path / "bundle"
    counts = write_bundle(release_store[0], out)
    assert counts["solutions"] == 238
    context = browser.new_context()  # type: ignore[attr-defined]
    requested: list[str] = []

    def refuse(route: object) -> None:
        request_url = route.request.url  # type: ignore[attr-defined]
        if request_url.startswith("file://"):
            route.continue_()  # type: ignore[attr-defined]
        else:
            requested.append(request_url)
            route.abort()  # type: ignore[attr-defined]

    context.route("**/*", refuse)
    context.set_offline(True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((out / "index.html").as_uri())
    page.click("a[lang=de]")
    page.wait_for_load_state()
    assert page.locator("table.leaderboard").count() >= 1
    page.locator("table.leaderboard tbody a").first.click()
    page.wait_for_load_state()
    assert page.locator("table.browse tbody tr").count() >= 1
    page.locator("table.browse tbody a").first.click()
    page.wait_for_load_state()
    assert page.locator("table.grid").count() == 1 or page.locator(".notice").count() >= 1
    assert page.evaluate("() => getComputedStyle(document.body).fontFamily").startswith("system-ui")  # CSS loaded
    page.click("#lang-switch")
    page.wait_for_load_state()
    assert page.evaluate("() => document.documentElement.lang") == "en"
    _shot(page, "bundle-solution-en")
    assert not requested and not errors
