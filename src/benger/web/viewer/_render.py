"""The viewer's Jinja environment (autoescaped, its own templates) and its German/English strings.

Templates write ``{{ _("German text") }}``; the English comes from :data:`EN` here, then from the study
platform's table (``benger.web._i18n.EN``) for strings both share. tests/web/test_viewer.py checks that every
``_("…")`` in the viewer's templates has an English entry.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from benger.web._i18n import EN as STUDY_EN
from benger.web.viewer._marks import plain
from benger.web.viewer._names import judge_name
from benger.web.viewer._words import Words, catalogue_entries, unsigned_zero

HERE = Path(str(resources.files("benger.web.viewer")))

# fmt: off
EN: dict[str, str] = {
    "BenGER-Ergebnisse": "BenGER results",
    "Rangliste": "Leaderboard",
    "Lösungen": "Solutions",
    "Lösung": "Solution",
    "Vergleich": "Compare",
    "Judge-Validierung": "Judge validation",
    "Fehleranalyse": "Error analysis",
    "Zum Inhalt springen": "Skip to content",
    "Hauptnavigation": "Main navigation",
    "Nur lesen: diese Seiten ändern nichts am Speicher.": "Read-only: these pages change nothing in the store.",
    "Judge": "Judge",
    "Korpus": "Corpus",
    "System": "System",
    "Stufe": "Tier",
    "Mittel": "Mean",
    "95%-KI": "95% CI",
    "Notenpunkte": "Grade points",
    "Bestanden": "Pass",
    "Ja/Nein-Genauigkeit": "Ja/Nein accuracy",
    "Fehlgeschlagen": "Failed",
    "Ausgeschlossen": "Excluded",
    "Abgeschnitten": "Truncated",
    "Verweigert": "Refused",
    "Nicht bewertbar": "Unscored",
    "Nicht bewertet": "Unjudged",
    "Überholt": "Superseded",
    "n = %(n)s: zu wenige für einen Rang (weniger als %(min)s bewertete Generierungen)": (
        "n = %(n)s: too few for a ranking (fewer than %(min)s scored generations)"
    ),
    "Herkunft": "Provenance",
    "Validierung des Judges": "Judge validation status",
    "Punkte nicht aussagekräftig": "scores not meaningful",
    "Auf den begutachteten Picks dieses Speichers": "On this store's reviewed picks",
    "Rang": "Rank",
    "Sortieren nach": "Sort by",
    "Abbildungen": "Figures",
    "Mittlere Rohpunkte (0–100) mit 95%-KI; gepunktete Linie: Bestehensgrenze 50.":
        "Mean raw points (0–100) with 95% CI; dotted line: pass mark 50.",
    "Mittlere Rohpunkte mit 95%-KI auf der Skala der eigenen Rubrik (bis zu ihrer Gesamtpunktzahl, sonst bis zum "
    "größten Wert); gepunktete Linie: ihre Bestehensgrenze, falls sie eine hat.": "Mean raw points with 95% CI on "
    "the own rubric's scale (up to its total, else to the largest value); dotted line: its pass mark, if it has one.",
    "Methode": "Method",
    "Skala": "Scale",
    "Aufgabe": "Task",
    "Sachverhalt": "Facts",
    "Fragestellung": "Question",
    "Fall": "Case",
    "Musterlösung": "Reference solution",
    "Musterbegründung": "Gold reasoning",
    "Richtige Antwort": "Gold answer",
    "Falllösung": "Solution",
    "Antwort": "Answer",
    "Gliederung": "Outline",
    "Markierung": "Marks",
    "Gliederungspunkt": "Outline point",
    "Obersatz": "Obersatz (issue statement)",
    "Normzitat": "Norm citation",
    "Zitierfehler": "Citation problem",
    "Abschlussgrund": "Finish reason",
    "Eingabe-Token": "Input tokens",
    "Ausgabe-Token": "Output tokens",
    "Zustand": "Status",
    "Text nicht veröffentlicht.": "Text not released.",
    "Bewertungen": "Judgements and reviews",
    "Bewertungen je Dimension": "Judgements and reviews per dimension",
    "Dimension": "Dimension",
    "Gesamt": "Total",
    "Gesamtwürdigung": "Overall assessment",
    "Begründung": "Justification",
    "Blind": "Blind",
    "blind": "blind",
    "Ersteller*in": "Creator",
    "%(judge)s − blind (Mittel)": "%(judge)s − blind (mean)",
    "%(judge)s − Ersteller*in": "%(judge)s − creator",
    "Gesamt − blind (Mittel)": "Total − blind (mean)",
    "Gesamt − Ersteller*in": "Total − creator",
    "nicht bewertbar": "unscored",
    "Kein Judge und keine Begutachtung für diese Lösung.": "No judgement and no review of this solution.",
    "Andere Lösungen dieser Aufgabe": "Other solutions of this task",
    "Vergleichen": "Compare",
    "Filter": "Filters",
    "alle": "all",
    "Bereich": "Area",
    "Punkte von": "Score from",
    "Punkte bis": "Score to",
    "Markierung der Lösung": "Flag",
    "Volltextsuche": "Full-text search",
    "Anwenden": "Apply",
    "Treffer": "results",
    "Seite": "Page",
    "von": "of",
    "Vorige Seite": "Previous page",
    "Nächste Seite": "Next page",
    "Seitennavigation": "Pages",
    "Punkte": "Score",
    "Bewertungen (Anzahl)": "Judgements",
    "Auszug": "Excerpt",
    "Keine Lösung passt zu den Filtern.": "No solution matches the filters.",
    "Filter gibt es im Server-Viewer (benger view); dieses Paket zeigt die Lösungen je System und Korpus.":
        "Filters need the served viewer (benger view); this bundle lists the solutions per system and corpus.",
    "Lösungen je System und Korpus": "Solutions per system and corpus",
    "Lösung A": "Solution A",
    "Lösung B": "Solution B",
    "Alle Lösungen dieser Aufgabe (Mittel je Judge)": "Every solution of this task (mean per judge)",
    "Nebeneinander": "Side by side",
    "Begutachtete Picks": "Reviewed picks",
    "Keine begutachteten Lösungen in diesem Speicher.": "No reviewed solutions in this store.",
    "nicht verfügbar": "not available",
    "Alt-Test je Gutachter*in": "Alt-test per annotator",
    "Streudiagramme: Judge gegen Mittel der blinden Gutachten je Pick":
        "Scatter plots: judge vs mean blind review per pick",
    "Gutachter*in": "Annotator",
    "Gutachter*innen (Mittel)": "Annotators (mean)",
    "gestrichelt: Judge = Gutachter*innen": "dashed: judge = annotators",
    "Picks": "picks",
    "menschliche Picks": "human picks",
    "LLM-Picks": "LLM picks",
    "Alt-Test": "alt-test",
    "besteht": "passes",
    "besteht nicht": "fails",
    "unbekannt": "unknown",
    "Nicht in der Rangliste": "Not on the leaderboard",
    "bewertete nur Validierungs-Picks: siehe die": "scored only validation picks: see the",
    "Validierungsseite": "validation page",
    "Kein Judge hat eine begutachtete Lösung bewertet.": "No judge scored a reviewed solution.",
    "verworfen (BY q=0,05)": "rejected (BY q=0.05)",
    "ja": "yes",
    "nein": "no",
    "Fehlermodi (§6.6)": "Failure modes (§6.6)",
    "Beurteilte Generierungen": "Judged generations",
    "ohne bekannte Länge": "without a known length",
    "Modus": "Mode",
    "Anzahl": "Count",
    "Beispiele": "Examples",
    "je Stufe": "per tier",
    "je System": "per system",
    "Überschneidungen": "Overlaps",
    "Wörter": "words",
    "kein Text veröffentlicht": "no text released",
    "Schwellen": "Thresholds",
    "lang, aber oberflächlich": "long but shallow",
    "falscher Normrahmen": "wrong norm framing",
    "Begründung und Ergebnis auseinander": "reasoning–outcome divergence",
    "Keine Fehleranalyse möglich": "No error analysis possible",
    "Sprache": "Language",
    "Nichts zu zeigen: der Speicher enthält keine Generierung.": "Nothing to show: the store holds no generation.",
    "Diese Lösung gibt es nicht (oder sie gehört zu einer laufenden Studie).":
        "There is no such solution (or it belongs to a running study).",
    "Diese Aufgabe gibt es nicht.": "There is no such task.",
    "Seite nicht gefunden": "Page not found",
    "Lösungen dieses Systems": "Solutions of this system",
    "Daten aus": "Data from",
    "Seed": "seed",
    "überholte Generierungen": "superseded",
    "Konfiguration": "config",
    "Generierungskonfiguration": "generation config",
    "Rubrik": "rubric",
    "Promptsatz": "prompts",
    "Gutachten": "reviews",
    "Test": "test",
    "Normtrefferquote": "norm recall",
}
# fmt: on
EN.update(catalogue_entries(EN))  # the German of benger.analysis' English codes (_words.ANALYSIS_DE), both ways
LANGS = ("de", "en")


def translator(lang: str) -> Any:
    if lang == "en":
        return lambda text: EN.get(text, STUDY_EN.get(text, text))
    return lambda text: text


def number(lang: str) -> Any:
    """Numbers as the page's language writes them: ``72,5`` in German, ``72.5`` in English (``–`` for None)."""

    def fmt(value: float | None, digits: int = 1) -> str:
        if value is None:
            return "–"
        text = unsigned_zero(f"{value:.{digits}f}")  # -0.04 -> "0.0", not "-0.0"
        return text.replace(".", ",") if lang == "de" else text

    return fmt


def code_spans(text: Any) -> Markup:
    """``text`` (escaped unless it is markup already) with its `backticked` parts as ``<code>`` (a command the
    analysis names in a method line)."""
    return Markup(_BACKTICKS.sub(r"<code>\1</code>", str(escape(text))))


_BACKTICKS = re.compile(r"`([^`<>]+)`")


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(HERE / "templates")),
        autoescape=select_autoescape(("html",)),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env


def render(template: str, lang: str, systems: Mapping[str, str] | None = None, **context: Any) -> str:
    """The page ``template`` in ``lang`` (``_``, ``num``, ``pct``, ``words`` (the analysis' English in ``lang``:
    :class:`~benger.web.viewer._words.Words`), ``plain`` (an excerpt without its Markdown syntax), ``judge_name``,
    ``system_name`` (``systems``: the store's display names, ``_names.system_names``; ``words.solution`` uses them
    too) and ``code_spans`` are given to every template)."""
    num = number(lang)
    tr = translator(lang)
    names = dict(systems or {})
    context.update(
        lang=lang,
        _=tr,
        num=num,
        pct=lambda v: "–" if v is None else f"{100 * v:.0f} %",
        words=Words(lang, own=lambda text: tr(text) if text in EN else None, systems=names),
        system_name=lambda key: "–" if not key else names.get(key, key),
        plain=plain,
        code_spans=code_spans,
    )
    context.setdefault("judge_name", judge_name)
    return environment().get_template(template).render(**context)
