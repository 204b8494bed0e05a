"""The demo corpus shipped as package data: complete, well-formed, and in Gutachtenstil."""

from __future__ import annotations

import re

import pytest

from benger.corpora import DEMO_NAMES, load_demo_corpora, load_demo_corpus
from benger.errors import InputError
from benger.schema import AREAS, FalloesungTask, PrincipleItem


def _falloesung() -> list[FalloesungTask]:
    tasks = load_demo_corpus("demo-falloesung").tasks
    assert all(isinstance(t, FalloesungTask) for t in tasks)
    return [t for t in tasks if isinstance(t, FalloesungTask)]


def _principles() -> list[PrincipleItem]:
    tasks = load_demo_corpus("demo-grundprinzipien").tasks
    assert all(isinstance(t, PrincipleItem) for t in tasks)
    return [t for t in tasks if isinstance(t, PrincipleItem)]


def test_both_demo_corpora_load_with_their_names() -> None:
    corpora = load_demo_corpora()
    assert [c.name for c in corpora] == ["demo-falloesung", "demo-grundprinzipien"] == list(DEMO_NAMES)
    for corpus in corpora:
        assert corpus.description
        assert all(task.corpus == corpus.name for task in corpus.tasks)


def test_one_falloesung_case_per_area_with_ids_and_difficulty() -> None:
    tasks = _falloesung()
    assert len(tasks) >= 3
    assert {t.area for t in tasks} == set(AREAS)
    assert {t.task_id for t in tasks} >= {"demo-zr-1", "demo-sr-1", "demo-or-1"}
    assert all(t.difficulty in ("Anfänger", "Fortgeschritten", "Examen") for t in tasks)
    for task in tasks:
        words = len(task.facts.split())
        assert 150 <= words <= 300, (task.task_id, words)


@pytest.mark.parametrize("task_id", ["demo-zr-1", "demo-sr-1", "demo-or-1"])
def test_reference_solutions_are_gutachten(task_id: str) -> None:
    task = load_demo_corpus("demo-falloesung").get(task_id)
    assert isinstance(task, FalloesungTask)
    text = task.reference
    words = len(text.split())
    assert 400 <= words <= 900, words  # judged by a small local model within 8k tokens
    lines = text.splitlines()
    assert any(line.startswith("A. ") for line in lines)
    assert any(line.startswith("B. ") for line in lines)
    assert any(line.startswith("I. ") for line in lines)
    assert any(re.match(r"^1\. ", line) for line in lines)
    assert "Ergebnis" in text
    # norm citations in the "§ 433 Abs. 1 S. 1 BGB" style, with a statute name
    assert re.search(r"§§? \d+[a-z]? (Abs\. \d+ )?(S\. \d+ )?[^\n]{0,40}(BGB|StGB|VwGO|GewO|VwVfG)", text)


def test_each_case_cites_its_own_statutes() -> None:
    refs = {t.task_id: t.reference for t in _falloesung()}
    assert "BGB" in refs["demo-zr-1"] and "StGB" not in refs["demo-zr-1"]
    assert "§ 242 Abs. 1 StGB" in refs["demo-sr-1"]
    assert "VwGO" in refs["demo-or-1"] and "§ 35 Abs. 1 S. 1 GewO" in refs["demo-or-1"]


def test_grundprinzipien_items() -> None:
    items = _principles()
    assert len(items) >= 12
    areas = [i.area for i in items]
    assert areas.count("Zivilrecht") >= 6 and areas.count("Strafrecht") >= 6
    assert {i.gold_answer for i in items} == {"Ja", "Nein"}
    principles = {i.principle for i in items}
    assert {
        "Analogieverbot",
        "Trennungsprinzip",
        "Abstraktionsprinzip",
        "Schuldprinzip",
        "Rückwirkungsverbot",
        "Privatautonomie",
    } <= principles
    ids = [i.task_id for i in items]
    assert ids[0] == "demo-gp-01" and len(set(ids)) == len(ids)
    for item in items:
        assert item.question.endswith("?")
        assert 20 <= len(item.gold_reasoning.split()) <= 120
        assert "§" in item.gold_reasoning or "Art." in item.gold_reasoning


def test_unknown_demo_name_is_an_input_error() -> None:
    with pytest.raises(InputError, match="demo-falloesung"):
        load_demo_corpus("demo-nope")
