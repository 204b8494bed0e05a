"""Judge replies that contradict themselves (issue 32, item 3): a key stated twice with different values is
unscored with that reason; a prose correction after the only JSON object is flagged.

The check sits in the JSON-reading step (``benger.llm.find_json_objects`` records duplicates while decoding),
so every reader of replies — the rubric judge, the Ja/Nein parser, generation — sees the same rule.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benger.judge import ParsedJudgement, Unscored, falloesung_rubric, parse_judgement
from benger.llm import find_json_objects
from benger.metrics import parse_answer

SCORES = {
    "ergebnisrichtigkeit": 16,
    "vollstaendigkeit": 7,
    "rechtsgrundlagen": 8,
    "rechtskenntnis": 10.5,
    "subsumtion": 11,
    "schwerpunktsetzung": 6,
    "methodischer_stil": 7.5,
    "gliederung": 4,
    "sprache": 2,
    "formalia": 1.5,
}  # fmt: skip  (73.5 raw)


def reply() -> dict[str, object]:
    dims = {k: {"punkte": v, "begruendung": f"Begründung zu {k}."} for k, v in SCORES.items()}
    return {"dimensionen": dims, "gesamtpunkte": 73.5, "gesamtwuerdigung": "Solide."}


VALID = json.dumps(reply(), ensure_ascii=False)


def _with_duplicate(dimension: str, first: float, second: float) -> str:
    """The valid reply with ``"punkte": first, "punkte": second`` in ``dimension``."""
    needle = f'"{dimension}": {{"punkte": {json.dumps(SCORES[dimension])}'
    assert needle in VALID
    return VALID.replace(needle, f'"{dimension}": {{"punkte": {json.dumps(first)}, "punkte": {json.dumps(second)}')


def test_the_observation_duplicate_punkte_is_unscored_naming_the_dimension() -> None:
    text = _with_duplicate("subsumtion", 14, 0)
    result = parse_judgement(text, falloesung_rubric())
    assert isinstance(result, Unscored)
    assert result.reason == "duplicate key 'dimensionen.subsumtion.punkte' with different values: 14, 0"


@settings(max_examples=60, deadline=None)
@given(
    dimension=st.sampled_from(sorted(SCORES)),
    values=st.lists(st.integers(0, 2).map(lambda k: k * 0.5), min_size=2, max_size=2, unique=True),
)
def test_any_conflicting_duplicate_score_is_unscored(dimension: str, values: list[float]) -> None:
    result = parse_judgement(_with_duplicate(dimension, *values), falloesung_rubric())
    assert isinstance(result, Unscored) and f"dimensionen.{dimension}.punkte" in result.reason


def test_an_identical_duplicate_contradicts_nothing() -> None:
    value = SCORES["sprache"]
    result = parse_judgement(_with_duplicate("sprache", value, value), falloesung_rubric())
    assert isinstance(result, ParsedJudgement) and result.total == 73.5


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"a": 1, "a": 2}', "a"),
        ('{"x": {"y": [{"z": 1, "z": 2}]}}', "x.y.0.z"),
        ('{"dimensionen": {"formalia": {}}, "dimensionen": {}}', "dimensionen"),
    ],
)
def test_duplicates_are_found_at_their_path(text: str, path: str) -> None:
    (obj,) = find_json_objects(text)
    assert [p for p, _ in obj.duplicates] == [path]


def test_duplicate_answer_keys_decide_nothing() -> None:
    assert parse_answer('{"antwort": "Ja", "antwort": "Nein", "begruendung": "x"}') is None
    assert parse_answer('{"antwort": "Ja", "antwort": "Ja", "begruendung": "x"}') == "Ja"


@pytest.mark.parametrize(
    "after",
    [
        "\n\nKorrektur: Die Subsumtion verdient nur 5 Punkte.",
        "\nKorrigiert: gesamtpunkte 60",
        "\n**Berichtigung:** sprache 1 statt 2.",
        "\n\nCorrection: the total should be 60.",
    ],
)
def test_a_prose_correction_after_the_only_object_is_flagged(after: str) -> None:
    result = parse_judgement(VALID + after, falloesung_rubric())
    assert isinstance(result, ParsedJudgement)
    assert result.correction_after is not None and result.correction_after == after.strip()[:200]


def test_no_flag_without_a_correction() -> None:
    result = parse_judgement(VALID + "\n\nDas ist meine Bewertung.", falloesung_rubric())
    assert isinstance(result, ParsedJudgement) and result.correction_after is None
