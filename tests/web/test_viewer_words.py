"""German viewer pages word what benger.analysis says in English (issue 27): the judge validation status, the pass
notes, the comparability flags, the CI sentence, validate-judge's headers, verdicts and method line, the error
analysis' placeholders, a superseded generation's reason (benger.web.viewer._words, one table of codes).

Two tables. CODES: every phrase the analysis writes, made by the analysis functions themselves, must have its
German (a change of wording there fails here, instead of showing English on German pages) and its English page
must be the analysis' own text (the CLI's, the CSV's). PAGES: each page type rendered in German over the imported
release, with the English labels that must not show and the German that must (and the English page the reverse).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from test_viewer_i18n import Texts

from benger.analysis._error_modes import MODES, _excerpt
from benger.analysis._percent import PERCENT_SCALE
from benger.analysis._validate_judge import _ON_PERCENT, HEADER, _verdict
from benger.analysis.leaderboard.context import CiSettings
from benger.analysis.leaderboard.intervals import ci_method, pass_note
from benger.analysis.leaderboard.model import AGGREGATION, NOT_RANKED, POOLED
from benger.analysis.leaderboard.ranking import mark_comparable
from benger.analysis.leaderboard.validity import judge_status, status_of
from benger.store import Store, open_store
from benger.store._import import SUPERSEDED_CAMPAIGN
from benger.store._validations import JudgeValidation
from benger.web.access import Principal
from benger.web.viewer import create_viewer_app
from benger.web.viewer._words import ANALYSIS_DE, Words, german

#: words that give English away (none of them is German, nor part of a name the pages show)
ENGLISH_WORDS = re.compile(
    r"\b(the|of|on|and|passes|fails|failed|validated|verdict|unknown|carry|comparable|judged|pooled|interval|"
    r"unit|rows|reviews|human|offset|creator|superseded|included|excluded|campaign|withheld|stored|undefined)\b"
)


def _validation(verdict: str, **kw: Any) -> JudgeValidation:
    values: dict[str, Any] = {
        "judge": "j",
        "judge_config_hash": "cfg-j-1234567890",
        "rubric_id": "falloesung@1",
        "picks": "BenGER picks",
        "n_picks": 45,
        "pearson": 0.757437,
        "omega": 0.6,
        "validated_at": datetime(2026, 12, 3, tzinfo=UTC),
        **kw,
    }
    return JudgeValidation(verdict=verdict, **values)  # type: ignore[arg-type]


def _comparable() -> list[str]:
    ref = {"group": "g", "reference": True, "judge": "gpt-5.4-mini", "judge_config_id": "4df6fc23"}
    rows = [
        {**ref, "rubric": "falloesung@1", "prompt_hash": None},
        {**ref, "reference": False, "rubric": "falloesung@1", "prompt_hash": "abcdef1234"},
        {**ref, "reference": False, "rubric": "falloesung@1", "prompt_hash": None},
        {**ref, "reference": False, "group": NOT_RANKED, "rubric": None, "prompt_hash": None},
        {**ref, "reference": False, "group": "h", "judge": "gpt-5.4", "rubric": "eigene@1", "prompt_hash": None},
    ]
    mark_comparable(rows, pooled=False)
    pooled = [dict(rows[0]), {**rows[1], "comparable": None}]
    mark_comparable(pooled, pooled=True)
    return [r["comparable"] for r in rows + pooled]


def _statuses() -> list[str]:
    other = _validation("passes", judge_config_hash="cfg-other-99999999", source="validate-judge")
    return [
        status_of(_validation("passes")).label,
        status_of(_validation("passes", rubric_id="eigene@1+abcdef12")).label,
        status_of(_validation("fails", pearson=-0.74, omega=0.0)).label,
        status_of(_validation("undefined", omega=None)).label,
        status_of(_validation("undefined", pearson=-0.2, omega=None)).label,  # r <= 0: failed
        judge_status("j", "cfg-j-unseen", [other]).label,  # the newest of the same judge name: "(as ...)"
        judge_status("nobody", "cfg-none").label,  # not validated
    ]


#: what the analysis writes -> made by its own functions
CODES: dict[str, list[str]] = {
    "judge status": _statuses(),
    "pass note": [t for t in (pass_note(12, 0, "kurzfragen@1+abcdef12"), pass_note(12, 5, "eigene@1")) if t],
    "comparable": _comparable(),
    "groups": [NOT_RANKED, POOLED],
    "method line": [
        AGGREGATION,
        ci_method(CiSettings()),
        ci_method(CiSettings(unit="generation")),
        "included",
        "excluded",
    ],
    "ci kinds": ["percentile", "bca", "t", "normal"],
    "validate-judge headers": [*HEADER, *_ON_PERCENT.values()],
    "verdicts": [_verdict({"omega": 0.6, "passes": True}), _verdict({"omega": 0.2, "passes": False}), _verdict({})],
    "validate-judge scale": [PERCENT_SCALE],
    "error analysis": [_excerpt(""), *MODES],
    "superseded reason": [f"superseded ({SUPERSEDED_CAMPAIGN} campaign; left out of the leaderboards)"],
}


@pytest.mark.parametrize("kind", list(CODES), ids=str)
def test_every_analysis_phrase_has_its_german_and_keeps_its_english(kind: str) -> None:
    de, en = Words("de"), Words("en")
    for phrase in CODES[kind]:
        found = german(phrase)
        assert found is not None, phrase
        assert not ENGLISH_WORDS.search(found), (phrase, found)
        assert de.say(phrase) == found and en.say(phrase) == phrase  # the English page: the CLI's words


def test_numbers_in_a_phrase_take_the_decimal_comma_and_names_stay() -> None:
    status = status_of(_validation("fails", pearson=-0.74, omega=0.0, rubric_id="gpt-5.4@1")).label
    assert (
        german(status) == "nicht bestanden auf BenGER-Picks (gpt-5.4@1): r = −0,74, ω = 0,00 — Punkte nicht "
        "aussagekräftig"
    )
    assert german("comparable: the paper's judge configuration and rubric; benger prompt set abcdef12") == (
        "vergleichbar: Judge-Konfiguration und Rubrik des Papers; benger-Promptsatz abcdef12"
    )


def test_what_is_no_code_is_marked_as_english_on_a_german_page() -> None:
    assert Words("de").say("a new sentence of the analysis") == '<span lang="en">a new sentence of the analysis</span>'
    assert Words("de").say("<b>") == '<span lang="en">&lt;b&gt;</span>'
    assert Words("de").known("gpt-5.4 (m-x)") == "gpt-5.4 (m-x)"  # data stays as it is
    assert Words("de").solution("gpt-5.4 #2 (excluded)") == "gpt-5.4 #2 (ausgeschlossen)"
    assert Words("en").solution("gpt-5.4 #2 (excluded)") == "gpt-5.4 #2 (excluded)"


def test_every_template_code_of_the_table_is_used_by_a_phrase() -> None:
    """No dead entry: every template of ANALYSIS_DE matches some phrase of CODES or is a part of one."""
    made = [p for phrases in CODES.values() for p in phrases]
    for en in (k for k in ANALYSIS_DE if "%(" in k):
        rx = re.escape(en.replace("%%", "%"))
        rx = re.sub(r"%\\\(\w+\\\)s", ".+?", rx)
        assert any(re.search(rx, p) for p in made), en


# -- the pages over the release ------------------------------------------------------------------------------
#: page type -> (path, query (``{generation}``, ``{corpus}``, ... filled from the store), English that a German
#: page must not show, its German that it must)
PAGES: dict[str, tuple[str, dict[str, str], list[str], list[str]]] = {
    "leaderboard": (
        "/view/",
        {},
        ["validated on BenGER picks: ω = 0.60, passes", "paper reference", "resampling unit: the task",
         "superseded: included", "seed 0", "config", "rubric", "prompts"],
        ["validiert auf BenGER-Picks: ω = 0,60, besteht", "Referenzzeile des Papers", "Resampling-Einheit: die Aufgabe",
         "überholte Generierungen: eingeschlossen", "Seed 0", "Konfiguration", "Rubrik", "Promptsatz",
         "je Generierung: Mittel über die bewerteten Wiederholungen", "kein Intervall (n < 3)"],
    ),
    "validation": (
        "/view/validation",
        {},
        ["n human", "omega blind (human, eps .15)", "verdict", "omega creator eps .20", "ICC(2,k) judge in place",
         "passes", "fails", "every judge through the RQ5 analysis", "human picks 30, LLM picks 15", "reviews 180",
         "0.15"],
        ["n menschliche Picks", "ω blind (menschliche Picks, ε 0,15)", "Urteil", "ω Ersteller*in ε 0,20",
         "ICC(2,k) mit dem Judge an Stelle einer Gutachter*in", "besteht", "besteht nicht",
         "jeder Judge durch die RQ5-Analyse", "menschliche Picks 30, LLM-Picks 15", "Gutachten 180",
         "menschliche Picks · ε 0,15"],
    ),
    "errors": (
        "/view/errors",
        {},
        ["norm recall", "rubric", "(text not stored: released, text withheld)",
         "long but shallow"],
        ["Normtrefferquote", "Rubrik", "(Text nicht gespeichert: veröffentlicht, Text zurückgehalten)",
         "lang, aber oberflächlich + falscher Normrahmen"],
    ),
    "superseded generation": (
        "/view/solution",
        {"kind": "generation", "id": "{superseded}"},
        ["excluded", "superseded (2026-04 campaign; left out of the leaderboards)"],
        ["ausgeschlossen (überholt (Kampagne 2026-04; nicht in den Ranglisten))", "(ausgeschlossen)"],
    ),
    "reviewed pick": (
        "/view/solution",
        {"kind": "human_solution", "id": "{pick}"},
        ["creator"],
        ["Ersteller*in", "blind"],
    ),
    "compare": (
        "/view/compare",
        {"corpus": "{corpus}", "task": "{task}", "a": "{superseded}"},
        ["excluded"],
        ["(ausgeschlossen)"],
    ),
    "browse excluded": ("/view/browse", {"flag": "excluded"}, ["excluded"], ["ausgeschlossen"]),
}  # fmt: skip


@pytest.fixture(scope="module")
def release_store(release_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    store = open_store(tmp_path_factory.mktemp("words") / "release.db")
    store.import_release(release_dir)
    yield store
    store.close()


@pytest.fixture(scope="module")
def ids(release_store: Store) -> dict[str, str]:
    with release_store.engine.connect() as c:
        superseded, corpus, task = c.execute(
            text("SELECT generation_id, corpus, task_id FROM generations WHERE status = 'excluded' LIMIT 1")
        ).one()
        (pick,) = c.execute(text("SELECT target_id FROM human_reviews WHERE role = 'creator' LIMIT 1")).one()
    return {"superseded": superseded, "corpus": corpus, "task": task, "pick": pick}


@pytest.fixture(scope="module")
def client(release_store: Store) -> Iterator[TestClient]:
    with TestClient(create_viewer_app(release_store, Principal.local())) as c:
        yield c


def _visible(html: str, lang: str) -> set[str]:
    """The text a reader meets (text nodes, titles, labels) but what is marked as another language."""
    parser = Texts(lang)
    parser.feed(html)
    return parser.found


@pytest.mark.release
@pytest.mark.parametrize("page", list(PAGES), ids=str)
def test_a_german_page_shows_the_analysis_in_german(client: TestClient, ids: dict[str, str], page: str) -> None:
    path, query, english, german_ = PAGES[page]
    params = {k: v.format(**ids) for k, v in query.items()}
    de = client.get(path, params=params)
    assert de.status_code == 200 and '<html lang="de">' in de.text
    shown = _visible(de.text, "de")
    joined = "\n".join(shown)
    for phrase in english:
        assert phrase not in shown and not re.search(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", joined), phrase
    for phrase in german_:
        assert phrase in joined, phrase
    en = "\n".join(_visible(client.get(path, params={**params, "lang": "en"}).text, "en"))
    assert [p for p in english if p not in en] == []  # the English page: the CLI's words
