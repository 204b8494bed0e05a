"""Ja/Nein decisions in German legal prose (issue 11, item 4) and the one accuracy definition (item 5).

Each row: a phrasing and the decision it makes (None: no decision or a contradiction). Add a row per new case.
"""

from __future__ import annotations

import pytest

from benger.metrics import accuracy, accuracy_report, balanced_accuracy, parse_answer

PHRASES: list[tuple[str | None, str | None]] = [
    # the five observations of issue 11, item 4
    ("Die Verfügung hat ja keine Wirkung gegenüber dem Eigentümer: Nein.", "Nein"),
    ("Ja/Nein: Nein", "Nein"),
    ("ja, im Ergebnis nein", "Nein"),
    ("Ja und Nein", None),
    ("Die Frage ist zu verneinen.", "Nein"),
    # bare answers
    ("„Ja.“", "Ja"),
    ("ja", "Ja"),
    ("  NEIN!  ", "Nein"),
    ("**Nein**", "Nein"),
    ("Yes.", "Ja"),
    # a leading answer word
    ("Nein, weil der Vertrag nach § 138 BGB nichtig ist.", "Nein"),
    ("Ja – der Anspruch besteht.", "Ja"),
    ("Nein weil die Frist abgelaufen ist.", "Nein"),
    ("Ja. Der Käufer kann Nacherfüllung verlangen.", "Ja"),
    ("Nein; es fehlt an einer wirksamen Einigung.", "Nein"),
    ("# Nein\nDer Rücktritt ist ausgeschlossen.", "Nein"),
    # labelled final statements
    ("Ergebnis: ja", "Ja"),
    ("**Antwort:** Nein\n\nBegründung: Ja, zwar liegt ein Angebot vor, aber es wurde nie angenommen.", "Nein"),
    ("Antwort: „Ja“", "Ja"),
    ("Entscheidung: Nein. Die Klage ist unbegründet.", "Nein"),
    ("Fazit: Ja, A hat sich strafbar gemacht.", "Ja"),
    ("Endergebnis = Nein", "Nein"),
    ("Answer: yes", "Ja"),
    ("Antwort (Ja/Nein): Nein", "Nein"),
    ("Die Prüfung ist lang. Ergebnis: Ja", "Ja"),
    # "lautet", "ist", "mit … zu beantworten"
    ("Die Antwort lautet: Ja.", "Ja"),
    ("Die Antwort lautet „Nein“.", "Nein"),
    ("Meine Antwort ist daher Nein.", "Nein"),
    ("Die Frage ist mit Ja zu beantworten.", "Ja"),
    ("Im Ergebnis ist die Frage daher mit „Nein“ zu beantworten.", "Nein"),
    ("Das Ergebnis lautet somit: Nein", "Nein"),
    # "im Ergebnis"
    ("Im Ergebnis: Ja.", "Ja"),
    ("Zunächst spricht vieles dafür, im Ergebnis aber nein.", "Nein"),
    ("Man könnte meinen ja – im Ergebnis also nein.", "Nein"),
    # bejahen / verneinen
    ("Die Frage ist zu bejahen.", "Ja"),
    ("Die Ausgangsfrage ist daher nicht zu bejahen.", "Nein"),
    ("Die Fallfrage ist im Ergebnis nicht zu verneinen.", "Ja"),
    ("Ich bejahe die Frage.", "Ja"),
    ("Wir verneinen die Frage, weil die Einwilligung wirksam war.", "Nein"),
    ("Die Frage wird verneint.", "Nein"),
    ("Der Vorsatz ist zu bejahen. Die Rechtswidrigkeit ist jedoch zu verneinen.", "Nein"),  # the last conclusion
    ("Ein Anspruch ist zu bejahen.", "Ja"),
    ("Die Kausalität ist zu verneinen, der Erfolg ist aber zu bejahen.", "Ja"),
    # conclusion adverbs with a bare answer
    ("Der Täter handelte ohne Vorsatz. Somit: Nein.", "Nein"),
    ("Die Willenserklärung ist zugegangen. Daher ja.", "Ja"),
    ("Der Vorsatz ist zu bejahen. Folglich: Nein, denn er war gerechtfertigt.", "Nein"),
    # modal particle and other non-decisions
    ("Das ist ja gerade der Punkt, auf den es ankommt.", None),
    ("Der Erwerber hat ja gezahlt, daher besteht der Anspruch.", None),
    ("Jahrelang war das unklar.", None),
    ("Janina verlangt Herausgabe.", None),
    ("Das Nein-Sager-Prinzip gilt hier nicht.", None),
    ("Der Anspruch besteht.", None),
    ("", None),
    ("   ", None),
    (None, None),
    # echoed templates
    ("Ja oder Nein?", None),
    ("Antwort: Ja/Nein", None),
    ('"Ja" oder "Nein": Ja', "Ja"),
    ("Bitte mit Ja oder Nein antworten. Nein.", "Nein"),
    # contradictions
    ("Antwort: Ja. Antwort: Nein.", None),
    ("Ergebnis: Ja. Zugleich gilt - Ergebnis: Nein.", None),
    ("Ja. Oder doch: Nein.", None),
    ("Nein. Ja, zwar liegt ein Angebot vor, es fehlt aber die Annahme.", "Nein"),  # concessive "Ja, zwar"
    # corrections
    ("Antwort: Ja. Korrektur: Antwort: Nein.", "Nein"),
    ("Ergebnis: Nein. Nach nochmaliger Prüfung korrigiere ich: Ergebnis: Ja.", "Ja"),
    # reasoning blocks are not the answer
    ("<think>Antwort: Ja? Nein, doch nicht.</think>Antwort: Nein", "Nein"),
    ("<think>Ergebnis: Nein</think>\nJa.", "Ja"),
    # JSON (the last valid object; placeholders and contradictions decide nothing)
    ('{"antwort": "Nein", "begruendung": "Es fehlt an einer Willenserklärung."}', "Nein"),
    ('```json\n{"Antwort": "Ja.", "Begründung": "..."}\n```', "Ja"),
    ('{"answer": true}', "Ja"),
    ('{"antwort": "Ja/Nein", "begruendung": "<Text>"}\n{"antwort": "Nein", "begruendung": "Keine Einigung."}', "Nein"),
    ('{"antwort": "Ja", "begruendung": "a"} {"antwort": "Nein", "begruendung": "b"}', None),
    ('{"antwort": "Ja", "begruendung": "a"}\nKorrektur:\n{"antwort": "Nein", "begruendung": "b"}', "Nein"),
    ('{"antwort": "Vielleicht"}', None),
    ('{"note": "x"} Ergebnis: Nein', "Nein"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "expected"), PHRASES)
def test_parse_answer(text: str | None, expected: str | None) -> None:
    assert parse_answer(text) == expected


def test_phrase_table_size() -> None:
    assert len(PHRASES) >= 60


# --- accuracy: correct / all items, unanswered = wrong, with answered/total --------------------------------
# (predictions, gold, accuracy, answered, correct)
ACCURACY_ROWS = [
    # issue 11, item 5: 6 answered of 13, all right -> 6/13 (not 100 %)
    (["Ja", "Nein"] * 3 + [None] * 7, ["Ja", "Nein"] * 6 + ["Ja"], 6 / 13, 6, 6),
    (["Ja", "Nein", None, "Nein"], ["Ja", "Ja", "Ja", "Nein"], 2 / 4, 3, 2),
    ([None, None], ["Ja", "Nein"], 0.0, 0, 0),
    (["Ja"] * 4, ["Ja"] * 4, 1.0, 4, 4),
]


@pytest.mark.parametrize(("pred", "gold", "acc", "answered", "correct"), ACCURACY_ROWS)
def test_one_accuracy_definition(pred: list, gold: list, acc: float, answered: int, correct: int) -> None:
    report = accuracy_report(pred, gold)
    assert report.accuracy == pytest.approx(acc) and accuracy(pred, gold) == pytest.approx(acc)
    assert (report.n, report.n_answered, report.n_correct) == (len(gold), answered, correct)
    assert report.n_unparseable == len(gold) - answered
    assert not hasattr(report, "accuracy_parsed")  # there is no second definition


def test_accuracy_label_shows_answered_over_total() -> None:
    report = accuracy_report(["Ja", "Nein"] * 3 + [None] * 7, ["Ja", "Nein"] * 6 + ["Ja"])
    assert report.label == "46.2 % (6/13 correct, 6/13 answered)"
    assert accuracy_report([], []).accuracy is None and accuracy_report([], []).label == "– (0 items)"


def test_balanced_accuracy_counts_unanswered_as_misses() -> None:
    gold = ["Ja", "Ja", "Ja", "Nein"]
    pred = ["Ja", "Nein", None, "Nein"]
    # recall Ja = 1/3, recall Nein = 1/1 -> balanced = (1/3 + 1) / 2 = 2/3
    assert balanced_accuracy(pred, gold) == pytest.approx(2 / 3)


def test_balanced_accuracy_differs_from_accuracy_on_imbalanced_gold() -> None:
    # always "Ja" on 9 Ja + 1 Nein: accuracy 0.9, balanced (1.0 + 0.0) / 2 = 0.5
    gold = ["Ja"] * 9 + ["Nein"]
    pred = ["Ja"] * 10
    assert accuracy(pred, gold) == pytest.approx(0.9)
    assert balanced_accuracy(pred, gold) == pytest.approx(0.5)


def test_length_mismatch_is_an_error() -> None:
    with pytest.raises(ValueError, match="2 predictions but 1 gold"):
        accuracy(["Ja", "Nein"], ["Ja"])
