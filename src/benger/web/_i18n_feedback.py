"""English texts of the formative-feedback pages (the participant's feedback page, the organiser's switch).

Kept beside benger.web._i18n (which merges them into its ``EN`` table) so that table stays one module's size.
"""

from __future__ import annotations

# fmt: off
FEEDBACK_EN: dict[str, str] = {
    "Rückmeldung": "Feedback",
    "Zurück zur Studie": "Back to the study",
    "Abgegeben um": "Submitted at",
    "Diese Rückmeldung hat ein Sprachmodell als Bewerter erzeugt: Es hat Ihre Lösung mit der Musterlösung nach dem "
    "Bewertungsbogen verglichen. Sie ist eine Lernhilfe und keine Korrektur durch Menschen.":
        "A language model acting as grader wrote this feedback: it compared your solution with the model solution "
        "along the grading sheet. It is meant to help you learn; it is not a correction by a person.",
    "Zu dieser Lösung liegt noch keine Bewertung vor.": "There is no grading of this solution yet.",
    "Bewertung nach Kriterien": "Grading by criterion",
    "Kriterium": "Criterion",
    "Bewerter": "Grader",
    "Konfiguration": "Configuration",
    "Bewertungsbogen": "Grading sheet",
    "Wiederholung": "Repeat",
    "Rückmeldung für Teilnehmende": "Feedback for participants",
    "Nach dem Schließen können Teilnehmende die Bewertung ihrer eigenen Lösungen durch ein Sprachmodell sehen "
    "(Punkte je Kriterium mit Begründung, Summe, Notenpunkte), nie die anderer.":
        "Once submissions have closed, participants can see a language model's grading of their own solutions "
        "(points per criterion with the justification, total, grade points), never anyone else's.",
    "Bewertet": "Graded",
    "freigegeben": "released",
    "nicht freigegeben": "not released",
    "Rückmeldung zurücknehmen": "Withdraw the feedback",
    "Rückmeldung freigeben": "Release the feedback",
    "Erst nach dem Schließen der Abgaben möglich.": "Possible only once submissions have closed.",
}
# fmt: on
