"""Ja/Nein answer parsing and (balanced) accuracy."""

from __future__ import annotations

import pytest

from benger.metrics import accuracy, accuracy_report, balanced_accuracy, parse_answer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("„Ja.“", "Ja"),
        ("ja", "Ja"),
        ("  NEIN!  ", "Nein"),
        ("Nein, weil der Vertrag nach § 138 BGB nichtig ist.", "Nein"),
        ("Ja – der Anspruch besteht.", "Ja"),
        ('{"antwort": "Nein", "begruendung": "Es fehlt an einer Willenserklärung."}', "Nein"),
        ('```json\n{"Antwort": "Ja.", "Begründung": "..."}\n```', "Ja"),
        ('{"answer": true}', "Ja"),
        ("**Antwort:** Nein\n\nBegründung: Ja, zwar liegt ein Angebot vor, aber ...", "Nein"),
        ("Ergebnis: ja", "Ja"),
        ("Die Frage ist zu bejahen.", None),
        ("Antwort: Ja. Antwort: Nein.", None),
        ("", None),
        (None, None),
        ("Jahrelang war das unklar.", None),
    ],
)
def test_parse_answer(text: str | None, expected: str | None) -> None:
    assert parse_answer(text) == expected


def test_accuracy_counts_unparseable_separately() -> None:
    gold = ["Ja", "Ja", "Ja", "Nein"]
    pred = ["Ja", "Nein", None, "Nein"]
    # plain accuracy: 2 of 4 correct (the None is not correct) = 0.5
    assert accuracy(pred, gold) == 0.5
    # recall Ja = 1/3, recall Nein = 1/1 -> balanced = (1/3 + 1) / 2 = 2/3
    assert balanced_accuracy(pred, gold) == pytest.approx(2 / 3)
    report = accuracy_report(pred, gold)
    assert (report.n, report.n_parsed, report.n_unparseable) == (4, 3, 1)
    # accuracy among the 3 parsed answers: 2/3
    assert report.accuracy_parsed == pytest.approx(2 / 3)


def test_balanced_accuracy_differs_from_accuracy_on_imbalanced_gold() -> None:
    # always "Ja" on 9 Ja + 1 Nein: accuracy 0.9, balanced (1.0 + 0.0) / 2 = 0.5
    gold = ["Ja"] * 9 + ["Nein"]
    pred = ["Ja"] * 10
    assert accuracy(pred, gold) == pytest.approx(0.9)
    assert balanced_accuracy(pred, gold) == pytest.approx(0.5)


def test_length_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="2 predictions but 1 gold"):
        accuracy(["Ja", "Nein"], ["Ja"])
