"""Rendering of the runs pages: the study app's base page and context, with this package's own texts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse

from benger.web._i18n import EN as APP_EN
from benger.web._render import lang_of, router_templates
from benger.web._security import csrf_token

HERE = Path(__file__).resolve().parent
TEMPLATES = router_templates(HERE)

# fmt: off
EN: dict[str, str] = {
    "Läufe": "Runs",
    "Neuer Lauf": "New run",
    "API-Schlüssel": "API keys",
    "Name": "Name",
    "Status": "Status",
    "Gestartet von": "Launched by",
    "Angelegt": "Created",
    "Gestartet": "Started",
    "Beendet": "Finished",
    "Noch keine Läufe.": "No runs yet.",
    "Lauf einrichten": "Set up a run",
    "Korpora": "Corpora",
    "Noch kein Korpus: laden Sie zuerst einen hoch.": "No corpus yet: upload one first.",
    "Systeme aus dem Katalog": "Systems from the catalog",
    "Richter aus dem Katalog": "Judges from the catalog",
    "System an einem OpenAI-kompatiblen Endpunkt": "System on an OpenAI-compatible endpoint",
    "Richter an einem OpenAI-kompatiblen Endpunkt": "Judge on an OpenAI-compatible endpoint",
    "Basis-URL": "Base URL",
    "Modell": "Model",
    "Name des API-Schlüssels (leer: keiner)": "API key name (empty: none)",
    "Bewertungsbogen": "Rubric",
    "wie beim Korpus zugeordnet, sonst je nach Aufgabenart": "as attached to the corpus, else by task kind",
    "Prompt-Satz": "Prompt set",
    "Falllösung als": "Falllösung as",
    "Kurze Begründungen des Richters": "Short judge justifications",
    "Erlaubte Punktwerte im Schema nennen": "List the allowed scores in the schema",
    "Wiederholungen je System (leer: wie im Katalog)": "Repetitions per system (empty: as in the catalog)",
    "Bewertungen je Lösung": "Judge repeats per solution",
    "Gleichzeitige Aufrufe": "Concurrent calls",
    "Nur die ersten N Aufgaben je Korpus (leer: alle)": "Only the first N tasks per corpus (empty: all)",
    "Kostengrenze in USD (leer: keine)": "Cost cap in USD (empty: none)",
    "Token-Grenze (leer: keine)": "Token cap (empty: none)",
    "Schätzung ansehen": "See the estimate",
    "Oder eine Lauf-Konfiguration (YAML) hochladen": "Or upload a run config (YAML)",
    "Datei": "File",
    "Hochladen": "Upload",
    "Schätzung": "Estimate",
    "Stufe": "Stage",
    "Aufrufe": "Calls",
    "Eingabe-Token": "Input tokens",
    "Ausgabe-Token": "Output tokens",
    "Zeit": "Time",
    "Kosten (USD)": "Cost (USD)",
    "zu lang": "too long",
    "unbekannt": "unknown",
    "Gesamtkosten": "Total cost",
    "Starten": "Launch",
    "Fortsetzen": "Resume",
    "Abbrechen": "Cancel",
    "Konfiguration als YAML herunterladen": "Download the config as YAML",
    "Fortschritt": "Progress",
    "fertig": "done",
    "fehlgeschlagen": "failed",
    "ausgeschlossen": "excluded",
    "offen": "left",
    "von": "of",
    "Token": "Tokens",
    "Kosten bisher (USD)": "Cost so far (USD)",
    "Restzeit": "Time left",
    "Wiederverwendete Ergebnisse (nicht erneut bezahlt)": "Reused results (not paid again)",
    "Fehler und Ausschlüsse": "Failures and exclusions",
    "Eintrag": "Item",
    "Grund": "Reason",
    "Ergebnisse": "Results",
    "Rangliste": "Leaderboard",
    "Die Ergebnisseiten (Rangliste, Lösungen) öffnen sich Inhaber*innen und Organisator*innen der Organisation.":
        "The results pages (leaderboard, solutions) open for the organisation's owners and organisers.",
    "Lösungen von": "Solutions of",
    "Schlüssel setzen oder ersetzen": "Set or replace a key",
    "Schlüssel": "Key",
    "Speichern": "Save",
    "Löschen": "Delete",
    "gesetzt": "set",
    "gesetzt von": "set by",
    "am": "at",
    "Noch keine Schlüssel gespeichert: Läufe nehmen die Schlüssel aus der Umgebung des Workers.":
        "No keys stored yet: runs take the keys from the worker's environment.",
    "Ausführung": "Executor",
    "Meldung": "Message",
    "Fehler in der Konfiguration": "Error in the config",
    "Diesen Richter validieren": "Validate this judge",
}
# fmt: on


def translate(lang: str) -> Any:
    if lang == "en":
        return lambda text: EN.get(text, APP_EN.get(text, text))
    return lambda text: text


def render(request: Request, name: str, scope: Any, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Render a runs page in the workbench's frame (the organisation's navigation) with the user, the CSRF
    token and the language, as the study app's pages."""
    from benger.web.access import OrgCap
    from benger.web.workbench._common import ROLE_LABELS

    context.update(scope=scope, OrgCap=OrgCap, role_label=ROLE_LABELS.get, notice=None)
    context.setdefault("user", getattr(request.state, "user", None))
    context["csrf"] = csrf_token(request)
    lang = lang_of(request)
    context["lang"] = lang
    context["_"] = translate(lang)
    context["js_strings"] = {}
    return TEMPLATES.TemplateResponse(request, name, context, status_code=status_code)
