"""Issue 25 in Debian Chromium: the live total follows the server's rules, the draft-conflict panel and the
participant's formative feedback page are axe-core clean, and a participant reads its own feedback.

The live total (app.js ``liveTotal``) must give a grade and "bestanden" exactly when the server would accept the
points and pass them: each case below is typed into the grading form and compared with what
``benger.study._review.score`` (the function the submit route calls) says for the same points, under the
built-in rubric and under a task's own Bewertungsbogen (other maxima, steps, grade table and pass rule).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from sqlalchemy import select
from study_helpers import HALF_MARKS, mini_corpus, new_store
from web_helpers import World, populate

from benger.judge import Rubric, falloesung_rubric
from benger.schema import Judgement
from benger.study import StudyError, score, set_feedback
from benger.study._models import Pick, ReviewAssignment, Submission
from benger.study._review import task_rubric
from benger.web import create_app
from browser_helpers import axe_violations, logged_in_page, serve

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: mini-t1's own Bewertungsbogen: 20 points, steps of 1 (Aufbau: 2), grades 0-4 by its own table, pass with 1.
BOGEN = {
    "name": "bogen-t1",
    "version": "1",
    "title": "Bewertungsbogen Fall 1",
    "kind": "falloesung",
    "graded": True,
    "total": 20,
    "step": 1,
    "grades": [9, 11, 14, 17, 20],
    "pass_grade": 1,
    "dimensions": [
        {"key": "ergebnis", "label": "Ergebnis", "label_en": "Result", "max": 8},
        {"key": "aufbau", "label": "Aufbau", "label_en": "Structure", "max": 8, "step": 2},
        {"key": "argumentation", "label": "Argumentation", "label_en": "Reasoning", "max": 4},
    ],
}
HALF = {k: str(v) for k, v in HALF_MARKS.items()}  # 50 of 100: grade 4, passed
BUILTIN_CASES = [
    HALF,
    HALF | {"ergebnisrichtigkeit": "10abc"},  # not a number for the server; parseFloat read 10 ("bestanden")
    HALF | {"rechtskenntnis": "7,5,0"},  # two commas: no number for the server; the page read 7.5
    HALF | {"ergebnisrichtigkeit": "1e1"},  # a number for both: 10
    HALF | {"ergebnisrichtigkeit": " 10 "},  # blanks around are accepted
    HALF | {"ergebnisrichtigkeit": "-0"},  # 40 points: grade 3, failed
    HALF | {"rechtskenntnis": "7,25"},  # off the 0.5 grid
    HALF | {"formalia": "2,5"},  # above the maximum of 2
    HALF | {"sprache": "Infinity"},
    {k: str(2 * v) for k, v in HALF_MARKS.items()},  # 100 points: 18
    HALF | {"gliederung": ""},  # incomplete: no grade
]
BOGEN_CASES = [
    {"ergebnis": "5", "aufbau": "4", "argumentation": "2"},  # 11: grade 1 by its table, passed (paper table: 0)
    {"ergebnis": "5", "aufbau": "3", "argumentation": "2"},  # Aufbau off its step of 2
    {"ergebnis": "4", "aufbau": "2", "argumentation": "2"},  # 8: grade 0, failed
    {"ergebnis": "8", "aufbau": "8", "argumentation": "4"},  # 20: grade 4
    {"ergebnis": "7,5", "aufbau": "8", "argumentation": "4"},  # off the step of 1 (on the 0.5 grid)
    {"ergebnis": "8", "aufbau": "8", "argumentation": "4,5"},  # above its maximum
]


@dataclass
class Site:
    world: World
    url: str


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    corpus = mini_corpus()
    corpus.tasks[0] = corpus.tasks[0].model_copy(update={"rubric": BOGEN})
    store = new_store(tmp_path_factory.mktemp("browser-feedback"), corpus)
    world = populate(store)
    with serve(create_app(store)) as url:
        yield Site(world, url)
    store.close()


def _server_says(rubric: Rubric, points: dict[str, str]) -> tuple[str, str, str]:
    """(total, grade points, pass) as the page must show them: what the server's score() makes of the points
    (refused: nothing; incomplete: the running sum without a grade)."""
    try:
        scored = score(rubric, dict(points), {}, complete=False)
    except StudyError:
        return "–", "–", ""
    total = "–" if scored.total is None else f"{scored.total:.1f}".replace(".", ",")
    if scored.grade_points is None:
        return total, "–", ""
    return total, str(scored.grade_points), "bestanden" if scored.passed else "nicht bestanden"


def _assignment_on(site: Site, task_id: str) -> tuple[str, int]:
    """(grader name, assignment id) of a blind assignment on a pick of ``task_id``."""
    with site.world.store.session() as session:
        row = session.execute(
            select(ReviewAssignment.grader_id, ReviewAssignment.id)
            .join(Pick, Pick.id == ReviewAssignment.pick_id)
            .where(Pick.task_id == task_id, ReviewAssignment.role == "blind")
            .order_by(ReviewAssignment.id)
            .limit(1)
        ).one()
    name = next(n for n, i in site.world.ids.items() if i == row[0])
    return name, int(row[1])


@pytest.mark.parametrize(("task_id", "cases"), [("mini-t2", BUILTIN_CASES), ("mini-t1", BOGEN_CASES)])
def test_the_live_total_follows_the_servers_rules(
    browser: object, site: Site, task_id: str, cases: list[dict[str, str]]
) -> None:
    rubric = task_rubric(site.world.store.get_task(task_id, "mini"))
    assert (rubric.total, rubric.id == falloesung_rubric().id) == ((100, True) if task_id == "mini-t2" else (20, False))
    grader, aid = _assignment_on(site, task_id)
    page = logged_in_page(browser, site.url, grader)
    page.goto(f"{site.url}/reviews/{aid}")  # type: ignore[attr-defined]
    page.wait_for_selector("#grade-form")  # type: ignore[attr-defined]
    assert page.locator("input.points").count() == len(rubric.dimensions)  # type: ignore[attr-defined]
    shown = []
    for points in cases:
        for key, value in points.items():
            page.fill(f"input[name=dim_{key}]", value)  # type: ignore[attr-defined]
        shown.append(
            (
                page.inner_text("#total"),  # type: ignore[attr-defined]
                page.inner_text("#grade-points"),  # type: ignore[attr-defined]
                page.inner_text("#passed"),  # type: ignore[attr-defined]
            )
        )
    expected = [_server_says(rubric, points) for points in cases]
    assert shown == expected
    if task_id == "mini-t1":  # hand-computed: 11 of 20 is grade 1 under the Bewertungsbogen, which passes
        assert expected[0] == ("11,0", "1", "bestanden") and expected[1] == ("–", "–", "")
    else:
        assert expected[:3] == [("50,0", "4", "bestanden"), ("–", "–", ""), ("–", "–", "")]
        assert expected[5] == ("40,0", "3", "nicht bestanden") and expected[9] == ("100,0", "18", "bestanden")
    assert expected[-1] != ("–", "–", "") or task_id == "mini-t1"  # the incomplete case keeps its running sum
    top = "20" if task_id == "mini-t1" else "100"
    assert f"/ {top} ·" in page.inner_text(".live")  # type: ignore[attr-defined]


def test_the_draft_conflict_panel_is_accessible(browser: object, site: Site) -> None:
    first = logged_in_page(browser, site.url, "participant")
    context = first.context
    study = site.world.live
    first.goto(f"{site.url}/studies/{study}/tasks/0")
    first.click("form[action$='/tasks/0/start'] button")
    first.wait_for_selector("#countdown")
    second = context.new_page()
    second.set_default_timeout(15_000)
    second.goto(f"{site.url}/studies/{study}/tasks/0")  # both on version 0
    first.fill("#text", "Neuerer Text aus dem ersten Fenster.")
    first.wait_for_function("() => document.getElementById('autosave-status').dataset.state === 'saved'")
    second.fill("#text", "Älterer Text")
    second.wait_for_function("() => document.getElementById('autosave-status').dataset.state === 'conflict'")
    assert second.locator("#draft-conflict").is_visible()
    assert second.get_attribute("#draft-conflict", "role") == "alert"
    assert second.input_value("#conflict-text") == "Neuerer Text aus dem ersten Fenster."
    assert axe_violations(second) == []
    # the panel's controls are reachable from the keyboard: Tab from the other text reaches "take", then "keep"
    second.focus("#conflict-text")
    second.keyboard.press("Tab")
    assert second.evaluate("() => document.activeElement.id") == "conflict-take"
    second.keyboard.press("Tab")
    assert second.evaluate("() => document.activeElement.id") == "conflict-keep"
    context.close()


def test_a_participant_reads_its_own_feedback(browser: object, site: Site) -> None:
    store, world = site.world.store, site.world
    with store.session() as session:
        own = session.scalar(
            select(Submission).filter_by(study_id=world.study, user_id=world.ids["p0"], task_id="mini-t1")
        )
        other = session.scalar(
            select(Submission).filter_by(study_id=world.study, user_id=world.ids["p1"], task_id="mini-t1")
        )
        assert own is not None and other is not None
        own_id, other_id = own.id, other.id
    rubric = task_rubric(store.get_task("mini-t1", "mini"))
    marks = {"ergebnis": 5.0, "aufbau": 4.0, "argumentation": 2.0}
    for sid in (own_id, other_id):
        store.save_judgement(
            Judgement(
                judgement_id=f"fb-{sid}",
                target_kind="human_solution",
                target_id=sid,
                judge="richter-lm",
                judge_config_hash="c" * 64,
                rubric_id=rubric.id,
                status="scored",
                dimensions=marks,
                justifications={k: f"Zu {k}: nachvollziehbar begründet." for k in marks},
                total=11.0,
                grade_points=1,
                passed=True,
            )
        )
    set_feedback(store, world.study, True)
    page = logged_in_page(browser, site.url, "p0")
    page.goto(f"{site.url}/studies/{world.study}")  # type: ignore[attr-defined]
    assert page.locator(".feedback-link").count() == 6  # type: ignore[attr-defined]  # every own submission
    page.click(f"a[href$='/feedback/{own_id}']")  # type: ignore[attr-defined]
    page.wait_for_selector("#feedback-dimensions")  # type: ignore[attr-defined]
    rows = page.locator("#feedback-dimensions tbody tr").all_inner_texts()  # type: ignore[attr-defined]
    assert [r.split("\t")[:2] for r in rows] == [["Ergebnis", "5 / 8"], ["Aufbau", "4 / 8"], ["Argumentation", "2 / 4"]]
    assert "Zu aufbau: nachvollziehbar begründet." in rows[1]
    summary = " ".join(page.inner_text("#feedback-summary").split())  # type: ignore[attr-defined]
    assert summary == "Summe: 11 / 20 · Notenpunkte: 1 · bestanden"
    assert "richter-lm" in page.inner_text("#feedback-provenance")  # type: ignore[attr-defined]
    assert "MUSTERLOESUNG-GEHEIM" not in page.content()  # type: ignore[attr-defined]
    assert axe_violations(page) == []
    answer = page.goto(f"{site.url}/studies/{world.study}/feedback/{other_id}")  # type: ignore[attr-defined]
    assert answer.status == 404 and "Lösung P1" not in page.content()  # type: ignore[attr-defined]


def test_the_sachverhalt_sits_beside_the_editor_and_the_status_stays_in_view(browser: object, site: Site) -> None:
    page = logged_in_page(browser, site.url, "participant", viewport={"width": 1400, "height": 900})
    page.goto(f"{site.url}/studies/{site.world.live}/tasks/1")
    page.click("form[action$='/tasks/1/start'] button")
    page.wait_for_selector("#countdown")
    facts, editor = page.locator(".work-facts").bounding_box(), page.locator("#text").bounding_box()
    assert facts is not None and editor is not None
    assert facts["x"] + facts["width"] <= editor["x"]  # side by side, the Sachverhalt on the left
    assert facts["y"] < editor["y"] + editor["height"] and editor["y"] < facts["y"] + facts["height"]
    assert page.evaluate("() => getComputedStyle(document.querySelector('.work-facts')).resize") == "horizontal"
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    status = page.locator("#autosave-status").bounding_box()
    assert status is not None and 0 <= status["y"] < 900  # the autosave status stays on screen
    page.context.close()
