"""UI languages: German (default) and English. Templates write ``{{ _("German text") }}``.

Server messages are ``StudyError`` templates (German, with ``{name}`` placeholders); ``message`` translates
the template and the string values before filling them in. tests/web/test_i18n.py checks that every
template the study and web code raises has an English entry here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benger.web._i18n_feedback import FEEDBACK_EN
from benger.web._i18n_messages import MESSAGES_EN
from benger.web._i18n_workbench import WORKBENCH_EN

LANGS: tuple[str, ...] = ("de", "en")
DEFAULT_LANG = "de"

# One German text -> English text pair per entry, as translators read them (not reflowed by the formatter).
# fmt: off
EN: dict[str, str] = {
    "BenGER-Studie": "BenGER study",
    "Verwaltung": "Administration",
    "Profil": "Profile",
    "Bewertungen": "Reviews",
    "Abmelden": "Log out",
    "Hinweis": "Notice",
    "Zur Startseite": "Home",
    "Anmelden": "Log in",
    "Benutzername": "User name",
    "Passwort": "Password",
    "Einladung": "Invitation",
    "Konto anlegen": "Create account",
    "Passwort (mindestens 8 Zeichen)": "Password (at least 8 characters)",
    "Ihre Vorkenntnisse": "Your background",
    "Ausbildungsstand": "Level of training",
    "Laie": "Layperson",
    "Jurastudent*in": "Law student",
    "Absolvent*in (1. Examen)": "Graduate (first state exam)",
    "Referendar*in": "Referendar (legal trainee)",
    "Wie schätzen Sie Ihre Kenntnisse ein? (1 = sehr gering, 5 = sehr gut)":
        "How do you rate your knowledge? (1 = very low, 5 = very good)",
    "Zivilrecht": "Civil law",
    "Strafrecht": "Criminal law",
    "Öffentliches Recht": "Public law",
    "Note der Ersten Juristischen Prüfung in Punkten (0-18, freiwillig)":
        "Grade of the first state examination in points (0-18, optional)",
    "Speichern": "Save",
    "Bitte füllen Sie zuerst Ihr Profil aus.": "Please fill in your profile first.",
    "Aufgaben öffnen": "Open tasks",
    "Teilnehmen": "Join",
    "Zurzeit gibt es keine Studie.": "There is no study at the moment.",
    "Bearbeitungszeit je Aufgabe": "Time per task",
    "Sekunden": "seconds",
    "Die Uhr läuft ab dem Start auf dem Server.": "The clock runs on the server from the moment you start.",
    "Aufgabe": "Task",
    "Rechtsgebiet": "Area of law",
    "Schwierigkeit": "Difficulty",
    "Arbeitsweise": "Working mode",
    "Status": "Status",
    "Starten": "Start",
    "Überspringen": "Skip",
    "Weiterarbeiten": "Continue",
    "Ansehen": "View",
    "Klassisch (ohne KI)": "Traditional (without AI)",
    "Ko-Kreation (mit KI)": "Co-creation (with AI)",
    "offen": "open",
    "in Bearbeitung": "in progress",
    "abgegeben": "submitted",
    "übersprungen": "skipped",
    "Entwurf": "draft",
    "Zur Aufgabenliste": "Back to the tasks",
    "Bearbeitung starten": "Start working",
    "Verbleibende Zeit": "Time left",
    "Sachverhalt": "Facts",
    "Ihre Lösung (Gutachtenstil)": "Your solution (expert-opinion style)",
    "Abgeben": "Submit",
    "Endgültig abgeben? Danach sind keine Änderungen mehr möglich.":
        "Submit for good? No changes are possible afterwards.",
    "Abgegeben": "Submitted",
    "(automatisch bei Ablauf der Zeit)": "(automatically when the time ran out)",
    "Ihre abgegebene Lösung": "Your submitted solution",
    "Diese Aufgabe wurde übersprungen.": "This task was skipped.",
    "Ihre Bewertungen": "Your reviews",
    "Nr.": "No.",
    "Art": "Kind",
    "Stand": "State",
    "Ersteller-Bewertung": "Creator review",
    "Blindbewertung": "Blind review",
    "Ihnen sind keine Bewertungen zugewiesen.": "No reviews are assigned to you.",
    "Bewertung Nr.": "Review no.",
    "Zur Übersicht": "Back to the overview",
    "Musterlösung (nur für die Erstellerin / den Ersteller)": "Reference solution (for the task's author only)",
    "Zu bewertende Lösung": "Solution to grade",
    "Punkte": "Points",
    "max.": "max.",
    "Begründung": "Justification",
    "Summe": "Total",
    "Notenpunkte": "Grade points",
    "bestanden": "passed",
    "nicht bestanden": "failed",
    "Bewertung abgeben": "Submit review",
    "Abgegebene Bewertungen sind unveränderlich.": "Submitted reviews cannot be changed.",
    "Version": "version",
    "Korrektur als neue Version anlegen": "Open a correction as a new version",
    "Keine Berechtigung für diese Seite.": "You may not open this page.",
    "Keine Berechtigung für diesen Eintrag.": "You may not open this entry.",
    "Das Formular ist abgelaufen (CSRF). Bitte neu laden.": "The form has expired (CSRF). Please reload.",
    "Benutzername oder Passwort ist falsch.": "User name or password is wrong.",
    "Zu viele Fehlversuche. Der nächste Versuch ist in {seconds} Sekunden möglich.":
        "Too many failed attempts. The next attempt is possible in {seconds} seconds.",
    "Lösen Sie den Fall im Gutachtenstil allein, ohne KI-Werkzeuge. Gesetzestexte dürfen Sie verwenden. Ihr "
    "Entwurf wird laufend gespeichert; bei Ablauf der Zeit wird er abgegeben.":
        "Solve the case in expert-opinion style on your own, without AI tools. You may use statutes. Your "
        "draft is saved continuously and submitted when the time runs out.",
    "Lösen Sie den Fall im Gutachtenstil gemeinsam mit einem KI-Assistenten Ihrer Wahl. Prüfen Sie jede Aussage "
    "der KI selbst; Sie verantworten die abgegebene Lösung. Ihr Entwurf wird laufend gespeichert; bei Ablauf der "
    "Zeit wird er abgegeben.":
        "Solve the case in expert-opinion style together with an AI assistant of your choice. Check every "
        "statement of the AI yourself; you are responsible for the submitted solution. Your draft is saved "
        "continuously and submitted when the time runs out.",
    "Gespeichert um": "Saved at",
    "Nicht gespeichert": "Not saved",
    "Speichern fehlgeschlagen – Verbindung prüfen": "Saving failed – check the connection",
    "Zeit abgelaufen – Ihr letzter Entwurf wird abgegeben …": "Time is up – your last draft is being submitted …",
    "Einladungslink": "Invitation link",
    "Studien": "Studies",
    "Noch keine Studie.": "No study yet.",
    "Neue Studie": "New study",
    "Name": "Name",
    "Korpus": "Corpus",
    "Seed": "Seed",
    "Bearbeitungszeit in Sekunden": "Time per task in seconds",
    "Studie anlegen": "Create study",
    "Konten": "Accounts",
    "Konten suchen": "Search accounts",
    "Suchen": "Search",
    "Alle Konten": "All accounts",
    "Seite": "Page",
    "Seiten der Kontenliste": "Pages of the account list",
    "Vorherige Seite": "Previous page",
    "Nächste Seite": "Next page",
    "Benutzer": "User",
    "Rollen": "Roles",
    "Pseudonym": "Pseudonym",
    "Anlegen": "Create",
    "Einladungslink erzeugen": "Create an invitation link",
    "Erzeugen": "Create",
    "Studie": "Study",
    "Zur Verwaltung": "Back to the administration",
    "Zeit": "Time",
    "Teilnehmende": "participants",
    "Abgaben": "submissions",
    "Picks": "picks",
    "Zuweisungen": "assignments",
    "Aufgaben und Autorinnen/Autoren": "Tasks and authors",
    "Autor/in": "Author",
    "Autorinnen/Autoren speichern": "Save authors",
    "Validierungs-Picks": "Validation picks",
    "Picks auswählen": "Select picks",
    "Bewertungen zuweisen": "Assign reviews",
    "Pick": "Pick",
    "Herkunft": "Provenance",
    "Details": "Details",
    "Abdeckung": "Coverage",
    "nach": "by",
    "Zugewiesen": "Assigned",
    "Arbeitslast": "Workload",
    "Bewerter/in": "Grader",
    "Rolle": "Role",
    "Anzahl": "Count",
}
# fmt: on
EN.update(MESSAGES_EN)
EN.update(WORKBENCH_EN)
EN.update(FEEDBACK_EN)
#: Strings the browser script needs (read from the page, so the script has no language of its own).
JS_STRINGS: tuple[str, ...] = (
    "Gespeichert um",
    "Nicht gespeichert",
    "Speichern fehlgeschlagen – Verbindung prüfen",
    "Zeit abgelaufen – Ihr letzter Entwurf wird abgegeben …",
    "bestanden",
    "nicht bestanden",
    "Noch 15 Minuten.",
    "Noch 5 Minuten – bitte zum Ende kommen.",
    "Kopiert",
    "Gespeichert",
    "gespeichert",
    "Nicht gespeichert – wird erneut versucht",
    "In einem anderen Fenster (oder Gerät) wurde neuerer Text gespeichert",
    "Zeichen",
    "Ihr Text hier wurde nicht gespeichert. Welcher Text soll gelten?",
    "Nicht gespeichert – anderer Text liegt vor, bitte entscheiden",
    "Anderer Text übernommen",
    "Zeit abgelaufen. Gewertet wird der zuletzt vom Server bestätigte Text",
    "später Geschriebenes zählt nicht.",
    "Nicht gespeichert – bitte in einem anderen Fenster neu anmelden; wird erneut versucht",
    "Änderungen werden gespeichert …",
    "Keine Verbindung – Abgabe erst wieder mit Verbindung möglich; Ihr Text bleibt in diesem Browser erhalten",
    "Nicht gespeicherter Text aus diesem Browser wiederhergestellt – wird gespeichert …",
    "Dieser Browser hatte Text, den der Server vor Ablauf der Zeit nicht mehr bestätigt hat; er zählt nicht",
)


def message(exc: Any, lang: str) -> str:
    """The text of a StudyError in ``lang``: its template and string values translated, then filled in.

    A value that is a ", "-joined list of labels (the allowed states) is translated label by label."""
    _ = translator(lang)

    def value(text: str) -> str:
        return _(text) if _(text) != text or ", " not in text else ", ".join(_(part) for part in text.split(", "))

    values = {k: value(v) if isinstance(v, str) else v for k, v in exc.values.items()}
    return _(exc.template).format(**values)


def translator(lang: str) -> Callable[[str], str]:
    """``_`` for templates: the English text where one exists, else the German original."""
    if lang == "en":
        return lambda text: EN.get(text, text)
    return lambda text: text
