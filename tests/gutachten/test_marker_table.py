"""Table test of the Gutachtenstil markers: one hand-written sentence each (our own wording) and the
step it must be labelled with (None: no step)."""

from __future__ import annotations

import pytest

from benger.gutachten import default_rules, parse_citations
from benger.gutachten._steps import label_sentence

CASES: list[tuple[str, str | None]] = [
    # Obersatz: conditional framing
    ("K könnte gegen V einen Anspruch auf Zahlung von 500 Euro aus § 433 Abs. 2 BGB haben.", "obersatz"),
    ("Fraglich ist, ob der Vertrag wirksam zustande gekommen ist.", "obersatz"),
    ("Fraglich ist ob die Frist gewahrt wurde.", "obersatz"),
    ("In Betracht kommt eine Strafbarkeit wegen Betrugs.", "obersatz"),
    ("Als Anspruchsgrundlage kommt § 985 BGB in Betracht.", "obersatz"),
    ("Zu prüfen ist, ob die Behörde zuständig war.", "obersatz"),
    ("Die Klage ist begründet, soweit der Bescheid rechtswidrig ist.", "obersatz"),
    ("Die Klage hat Erfolg, wenn sie zulässig und begründet ist.", "obersatz"),
    ("Dann müsste A eine fremde bewegliche Sache weggenommen haben.", "obersatz"),
    ("T könnte sich wegen Diebstahls strafbar gemacht haben, indem er das Rad mitnahm.", "obersatz"),
    ("Es fragt sich, ob ein Rücktrittsgrund besteht.", "obersatz"),
    # Definition
    ("Unter einer Sache ist jeder körperliche Gegenstand zu verstehen.", "definition"),
    ("Unter Wegnahme versteht man den Bruch fremden und die Begründung neuen Gewahrsams.", "definition"),
    ("Ein Mangel liegt vor, wenn die Ist- von der Sollbeschaffenheit abweicht.", "definition"),
    ("Eine Täuschung ist gegeben, wenn jemand über Tatsachen irreführt.", "definition"),
    (
        "Gewahrsam ist die vom Herrschaftswillen getragene Sachherrschaft; Sache ist jede verkörperte Einheit.",
        "definition",
    ),
    ("Ein Verwaltungsakt setzt voraus, dass eine Regelung mit Außenwirkung getroffen wird.", "definition"),
    ("Voraussetzung ist, dass ein wirksamer Vertrag geschlossen wurde.", "definition"),
    (
        "Heimtückisch handelt nach der Rechtsprechung, wer die Arg- und Wehrlosigkeit "
        "bewusst ausnutzt; das wird so definiert.",
        "definition",
    ),
    ("Eine Beleidigung ist der Angriff auf die Ehre eines anderen, der durch eine Kundgabe erfolgt.", "definition"),
    ("Tatsachen sind alle Vorgänge der Vergangenheit, die dem Beweis zugänglich sind.", "definition"),
    ("Der Vertrag ist wirksam.", "ergebnis"),
    # Subsumtion: reference to the facts
    ("Hier hat V die Ware nicht rechtzeitig geliefert.", "subsumtion"),
    ("Vorliegend fehlt es an einer Einigung über den Preis.", "subsumtion"),
    ("Im vorliegenden Fall wurde das Schreiben erst nach Fristablauf zugestellt.", "subsumtion"),
    ("Laut Sachverhalt war das Fahrrad nicht abgeschlossen.", "subsumtion"),
    ("Indem B das Fenster einschlug, verschaffte er sich Zutritt.", "subsumtion"),
    ("M unterschrieb den Vertrag am Montag.", "subsumtion"),
    ("Im konkreten Fall wusste die Behörde von den Einwänden.", "subsumtion"),
    # Ergebnis
    ("Somit liegt ein Kaufvertrag vor.", "ergebnis"),
    ("Folglich ist die Klage zulässig.", "ergebnis"),
    ("Mithin hat sich T wegen Diebstahls strafbar gemacht.", "ergebnis"),
    ("Der Anspruch ist also entstanden.", "ergebnis"),
    ("Ergebnis: Die Klage hat keinen Erfolg.", "ergebnis"),
    ("Im Ergebnis bleibt die Verfassungsbeschwerde ohne Erfolg.", "ergebnis"),
    ("Die Klage ist zulässig.", "ergebnis"),
    ("Ein Rechtfertigungsgrund liegt nicht vor.", "ergebnis"),
    ("Der Verwaltungsrechtsweg ist daher eröffnet.", "ergebnis"),
    # priority: an Obersatz with a party letter stays an Obersatz; a result with a party is an Ergebnis
    ("Fraglich ist, ob A die Sache weggenommen hat.", "obersatz"),
    ("Damit hat sich A somit strafbar gemacht.", "ergebnis"),
    # no step
    ("Die Geschichte des Zivilrechts ist lang und verzweigt", None),
    ("Der Vertrag nach § 433 I BGB wird näher erörtert", None),
    ("Weitere Ausführungen zum Meinungsstreit folgen unten", None),
]


@pytest.mark.parametrize(("sentence", "step"), CASES, ids=[c[0][:40] for c in CASES])
def test_marker_table(sentence: str, step: str | None) -> None:
    citations, _ = parse_citations(sentence)
    protected = [(c.start, c.end) for c in citations]
    hit = label_sentence(sentence, 0, len(sentence), default_rules(), protected)
    assert (hit.step if hit else None) == step
    if hit is not None:
        assert sentence[hit.start : hit.end] == hit.marker
