"""Refusal phrasings (issue 30 §6): own German and English wordings, table-driven, with near-misses that a
Gutachten writes ("Ein Anspruch kann nicht bestehen") and that must never be taken for a refusal."""

from __future__ import annotations

import pytest

from benger.llm import refusal_phrase

REFUSALS = [
    # German: plain refusals
    "Ich muss diese Anfrage leider ablehnen.",
    "Als KI-Assistent darf ich keine Rechtsberatung erteilen.",
    "Ich kann dabei leider nicht helfen.",
    "Dabei kann ich Ihnen nicht helfen, tut mir leid.",
    "Ich kann Ihnen hierzu keine rechtliche Einschätzung geben.",
    "Es tut mir leid, aber ich kann diese Falllösung nicht erstellen.",
    "Leider kann ich bei dieser Aufgabe nicht helfen.",
    "Diese Aufgabe kann ich nicht übernehmen.",
    "Eine rechtliche Bewertung kann ich leider nicht übernehmen.",
    "Die Bearbeitung kann ich nicht übernehmen.",
    "Ich bin leider nicht in der Lage, Ihnen eine Rechtsberatung zu geben.",
    "Ich sehe mich nicht in der Lage, diesen Fall zu lösen.",
    "Ich bin nicht befugt, rechtliche Auskünfte zu erteilen.",
    "Es ist mir nicht gestattet, Rechtsberatung zu leisten.",
    "Als Sprachmodell kann ich keine verbindliche Rechtsauskunft geben.",
    "Als künstliche Intelligenz darf ich Ihnen keine juristische Beratung anbieten.",
    "Diese Anfrage verstößt gegen meine Richtlinien.",
    "Meine Richtlinien erlauben mir das nicht.",
    "Das übersteigt meine Befugnisse.",
    "Bitte wenden Sie sich an einen Rechtsanwalt.",
    "Wende dich dafür bitte an eine Fachanwältin.",
    "Ich lehne diese Anfrage höflich ab.",
    "Entschuldigung, aber das kann ich nicht beantworten.",
    "Das kann ich leider nicht beantworten.",
    "Dazu möchte ich mich nicht äußern.",
    "Ich werde keine Falllösung schreiben.",
    "Ich darf Ihnen hier keine Hilfe anbieten.",
    "Verzeihung, ich kann hier nicht weiterhelfen.",
    "Bedauerlicherweise darf ich dazu keine Auskunft geben.",
    "Ich möchte keine individuelle Beratung geben.",
    "Leider muss ich das ablehnen.",
    "Ich muss ablehnen.",
    # English
    "I'm sorry, but I can't help with that.",
    "I cannot provide legal advice.",
    "As an AI language model, I am not able to give legal opinions.",
    "I must decline this request.",
    "I have to decline.",
    "Unfortunately, I cannot assist with this case.",
    "I'm not able to help with legal questions.",
    "I won't be able to complete this task.",
    "This request violates my usage policies.",
    "I am not permitted to offer legal advice.",
    "Please consult a qualified lawyer.",
    "I'm not in a position to give legal advice.",
    "I can’t assist with that request.",  # typographic apostrophe
    "Sorry, I'm afraid I can't do that.",
    "I will not write a legal opinion on real persons.",
]

NOT_REFUSALS = [
    # German: what a Gutachten says
    "Ein Anspruch kann nicht bestehen.",
    "Der Täter kann sich nicht auf Notwehr berufen.",
    "K darf die Leistung nach § 275 Abs. 2 BGB verweigern.",
    "Die Behörde darf keine Auskunft erteilen, § 30 VwVfG.",
    "Nach h.M. kann ein Rücktritt hier nicht erklärt werden.",
    "Ich prüfe zunächst einen Anspruch aus § 433 Abs. 2 BGB.",
    "Der Ansicht, die eine Haftung ablehnt, ist nicht zu folgen.",
    "Das Gericht muss die Klage als unzulässig abweisen.",
    "V kann die Anfechtung nicht mehr erklären, da die Frist des § 121 BGB abgelaufen ist.",
    "Ein Rechtfertigungsgrund ist nicht ersichtlich; A handelte rechtswidrig.",
    "Die Beratung durch den Rechtsanwalt war fehlerhaft.",
    "Leider hat B die Kaufsache nicht rechtzeitig geliefert.",
    "Antwort: Nein. Begründung: Der Vertrag ist nach § 134 BGB nichtig.",
    "Es tut mir leid, sagte A zu B, bevor er zuschlug.",  # a quotation inside the facts
    # English
    "The defendant cannot rely on self-defence.",
    "B is unable to claim damages under § 280 BGB.",
    "I cannot see any ground of justification.",
    "The court must decline jurisdiction.",
    "As an AI-drafted outline, the following sections apply: A. Anspruch aus § 433 BGB.",
]


@pytest.mark.parametrize("text", REFUSALS)
def test_refusals_are_recognised(text: str) -> None:
    refusal = refusal_phrase(text)
    assert refusal is not None and refusal.source == "phrase"


@pytest.mark.parametrize("text", NOT_REFUSALS)
def test_near_misses_are_not_refusals(text: str) -> None:
    assert refusal_phrase(text) is None


def test_the_table_has_at_least_sixty_phrasings() -> None:
    assert len(REFUSALS) + len(NOT_REFUSALS) >= 60 and len(set(REFUSALS + NOT_REFUSALS)) == len(REFUSALS + NOT_REFUSALS)


def test_a_long_solution_that_discusses_refusing_is_not_a_refusal() -> None:
    text = "Ich kann dabei nicht helfen, sagte V. " + "Fraglich ist, ob K einen Anspruch hat. " * 20
    assert refusal_phrase(text) is None
