"""Rubrics are data: grade table, pass rule, kind, per-dimension steps and instructions come from the rubric file,
and the parser, the schema and the prompt follow them (issue 31 item 1). Expected values are worked by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benger.errors import InputError
from benger.judge import (
    Rubric,
    falloesung_rubric,
    grundprinzipien_rubric,
    judge_schema,
    judge_template,
    load_rubric,
    parse_judgement,
    rubric_from_data,
)

KURZ3 = """
name: kurz3
version: "1"
title: Kurzbewertung in drei Kriterien
kind: falloesung
graded: true
total: 30
step: 1
# grade 0 up to 9 raw, 1 up to 14, 2 up to 19, 3 up to 24, 4 up to 30
grades: [9, 14, 19, 24, 30]
pass_grade: 2
instructions: "Erwartet wird die Prüfung von § 433 Abs. 2 BGB."
dimensions:
  - {key: ergebnis, label: Ergebnis, label_en: Result, max: 10}
  - {key: aufbau, label: Aufbau, label_en: Structure, max: 10, step: 2}
  - {key: argumentation, label: Argumentation, label_en: Reasoning, max: 10}
"""


def _kurz3(tmp_path: Path) -> Rubric:
    path = tmp_path / "kurz3.yaml"
    path.write_text(KURZ3, encoding="utf-8")
    return load_rubric(path)


def _reply(scores: dict[str, float]) -> str:
    dims = {k: {"punkte": v, "begruendung": "kurz begründet"} for k, v in scores.items()}
    return json.dumps({"dimensionen": dims, "gesamtpunkte": sum(scores.values()), "gesamtwuerdigung": "ok"})


def test_builtin_ids_are_those_of_the_stored_judgements() -> None:
    # the ids main had before rubrics carried grades/kind: written-out defaults must not change them
    assert falloesung_rubric().id == "falloesung@1+cd7ddc4e"
    assert grundprinzipien_rubric().id == "grundprinzipien@1+0a6137a3"
    assert falloesung_rubric().grade_bounds is not None and falloesung_rubric().pass_rule == "grade >= 4"
    assert grundprinzipien_rubric().asks_answer and not falloesung_rubric().asks_answer


@pytest.mark.parametrize(
    ("scores", "total", "grade", "passed"),
    [
        ({"ergebnis": 5, "aufbau": 4, "argumentation": 5}, 14, 1, False),  # 14 <= 14: grade 1
        ({"ergebnis": 5, "aufbau": 6, "argumentation": 4}, 15, 2, True),  # 15 in 15..19: grade 2 = pass
        ({"ergebnis": 10, "aufbau": 10, "argumentation": 10}, 30, 4, True),
        ({"ergebnis": 0, "aufbau": 0, "argumentation": 0}, 0, 0, False),
    ],
)
def test_parse_follows_the_rubrics_grades_and_pass(
    tmp_path: Path, scores: dict[str, float], total: float, grade: int, passed: bool
) -> None:
    result = parse_judgement(_reply(scores), _kurz3(tmp_path))
    assert not hasattr(result, "reason"), result
    assert (result.total, result.grade_points, result.passed) == (total, grade, passed)


@pytest.mark.parametrize(
    ("scores", "reason"),
    [
        ({"ergebnis": 5, "aufbau": 3, "argumentation": 5}, "'aufbau': score 3 is not a multiple of 2"),
        ({"ergebnis": 5.5, "aufbau": 4, "argumentation": 5}, "'ergebnis': score 5.5 is not a multiple of 1"),
        ({"ergebnis": 11, "aufbau": 4, "argumentation": 5}, "'ergebnis': score 11 outside 0..10"),
        ({"ergebnis": 5, "aufbau": 4}, "missing dimension 'argumentation'"),
        ({"ergebnis": 5, "aufbau": 4, "argumentation": 5, "subsumtion": 3}, "unknown dimension 'subsumtion'"),
    ],
)
def test_parse_refuses_what_the_rubric_does_not_allow(tmp_path: Path, scores: dict[str, float], reason: str) -> None:
    result = parse_judgement(_reply(scores), _kurz3(tmp_path))
    assert reason in getattr(result, "reason", "")


def test_schema_and_prompt_carry_the_rubric(tmp_path: Path) -> None:
    rubric = _kurz3(tmp_path)
    schema = judge_schema(rubric)
    dims = schema["properties"]["dimensionen"]["properties"]
    assert list(dims) == ["ergebnis", "aufbau", "argumentation"]
    assert dims["aufbau"]["properties"]["punkte"] == {"type": "number", "minimum": 0, "maximum": 10, "multipleOf": 2}
    assert dims["ergebnis"]["properties"]["punkte"]["multipleOf"] == 1  # the rubric's step, not the default 0.5
    builtin = judge_schema(falloesung_rubric())["properties"]["dimensionen"]["properties"]
    assert all("multipleOf" not in d["properties"]["punkte"] for d in builtin.values())
    assert judge_schema(rubric, score_enum=True)["properties"]["dimensionen"]["properties"]["aufbau"]["properties"][
        "punkte"
    ] == {"enum": [0, 2, 4, 6, 8, 10]}
    assert "antwort_kandidat" not in schema["properties"]
    prompt = judge_template("falloesung").render(rubric, task="SV", reference="ML", candidate="KL")
    head, _, rest = prompt.partition("=== Sachverhalt ===")
    assert "Erwartet wird die Prüfung von § 433 Abs. 2 BGB." in head
    assert '- Aufbau ("aufbau"): in Schritten von 2' in head
    assert 'Schlüssel "argumentation", 0 bis 10 Punkte' in head and "SV" in rest
    # the built-in rubrics render exactly as before (no notes block)
    builtin = judge_template("falloesung").render(falloesung_rubric(), task="SV", reference="ML", candidate="KL")
    assert "Hinweise zum Bewertungsbogen" not in builtin


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (("grades: [9, 14, 19, 24, 30]", "grades: [9, 14, 19, 24, 29]"), "grades"),
        (("grades: [9, 14, 19, 24, 30]", "grades: [9, 19, 14, 24, 30]"), "grades"),
        (("pass_grade: 2", "pass_grade: 5"), "pass_grade"),
        (("pass_grade: 2", "pass_total: 15"), "pass_total"),
        (("max: 10, step: 2", "max: 9, step: 2"), "dimensions[1].max"),
        (("kind: falloesung", "kind: klausur"), "kind"),
    ],
)
def test_inconsistent_grading_is_refused_naming_the_field(tmp_path: Path, edit: tuple[str, str], field: str) -> None:
    path = tmp_path / "bad.yaml"
    text = KURZ3.replace(*edit)
    if field == "dimensions[1].max":
        text = text.replace("total: 30", "total: 29").replace("24, 30]", "24, 29]")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_rubric(path)
    assert info.value.field == field and "bad.yaml" in str(info.value)


def test_ungraded_rubric_passes_by_raw_points(tmp_path: Path) -> None:
    text = KURZ3.replace("graded: true", "graded: false").replace("grades: [9, 14, 19, 24, 30]\n", "")
    rubric = rubric_from_data(__import__("yaml").safe_load(text.replace("pass_grade: 2", "pass_total: 15")))
    assert rubric.grade_points(15) is None and rubric.passed(15) is True and rubric.passed(14.5) is False
    assert rubric.pass_rule == "raw >= 15 of 30"
