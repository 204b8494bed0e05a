"""The viewer's German for what :mod:`benger.analysis` says in English (issue 27: the judge validation status, the
pass notes, the comparability flags, the CI sentence, validate-judge's headers, verdicts and method line, ...).

``benger.analysis`` keeps writing the CLI's, CSV's and JSON's English; those strings are the stable codes the
viewer translates here, at the presentation layer, and nowhere else. :data:`ANALYSIS_DE` maps each code to its
German: a fixed string (``"passes"``, validate-judge's header ``"n human"``) or a template whose ``%(name)s``
parts are the values the analysis put in (``"validated %(where)s: ω = %(omega)s, passes"``); a value is itself
translated when it is a code, and a number is written with the decimal comma. An English page shows the analysis'
own text unchanged (the CLI's words); a German page shows the German, and what it cannot recognise as it is,
marked ``lang="en"`` (for screen readers). tests/web/test_viewer_words.py builds every code from the analysis
functions that write them, so a change of wording there fails a test instead of showing English on German pages.

The viewer's own German keys and their English are :data:`benger.web.viewer._render.EN`; this table adds its
German entries there too (German -> the analysis' English), so the i18n tests read both ways.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from markupsafe import Markup

from benger.web.viewer._names import system_label

# fmt: off
#: An analysis code (its English, as benger.analysis writes it) -> the German the viewer shows.
ANALYSIS_DE: dict[str, str] = {
    # judge validation status (benger.analysis.leaderboard.validity.status_of / judge_status)
    "failed %(where)s: r = %(r)s, ω = %(omega)s — scores not meaningful":
        "nicht bestanden %(where)s: r = %(r)s, ω = %(omega)s — Punkte nicht aussagekräftig",
    "validated %(where)s: ω = %(omega)s, passes": "validiert %(where)s: ω = %(omega)s, besteht",
    "validated %(where)s: r = %(r)s, no alt-test verdict": "validiert %(where)s: r = %(r)s, kein Alt-Test-Urteil",
    "%(status)s (as judge config %(config)s)": "%(status)s (als Judge-Konfiguration %(config)s)",
    "on %(picks)s (%(rubric)s)": "auf %(picks)s (%(rubric)s)",
    "on %(picks)s": "auf %(picks)s",
    "not validated": "nicht validiert",
    "BenGER picks": "BenGER-Picks",
    # a row's pass note (benger.analysis.leaderboard.intervals.pass_note)
    "pass unknown: the judgements under rubric %(rubric)s carry no pass value (a rubric without a pass rule, or "
    "judged before it had one) and benger knows no rule to derive one":
        "Bestehen unbekannt: die Urteile unter der Rubrik %(rubric)s tragen keinen Bestehenswert (eine Rubrik ohne "
        "Bestehensregel, oder bewertet, bevor sie eine hatte), und benger kennt keine Regel, ihn abzuleiten",
    "pass rate over the %(k)s of %(n)s scored generations that carry a pass value":
        "Bestehensquote über die %(k)s von %(n)s bewerteten Generierungen, die einen Bestehenswert tragen",
    # a row's comparability with the paper's rows (benger.analysis.leaderboard.ranking.mark_comparable)
    "paper reference": "Referenzzeile des Papers",
    "not judged": "nicht bewertet",
    "not comparable: judges pooled": "nicht vergleichbar: Judges zusammengefasst",
    "comparable: the paper's judge configuration and rubric; %(prompts)s":
        "vergleichbar: Judge-Konfiguration und Rubrik des Papers; %(prompts)s",
    "benger prompt set %(hash)s": "benger-Promptsatz %(hash)s",
    "prompt set unknown": "Promptsatz unbekannt",
    "not comparable: judged by %(judge)s; the paper's rows by %(refs)s":
        "nicht vergleichbar: bewertet von %(judge)s; die Zeilen des Papers von %(refs)s",
    # the judge groups without one judge (benger.analysis.leaderboard.model NOT_RANKED, POOLED)
    "unranked (no scored judgement)": "ohne Rang (kein bewertetes Urteil)",
    "all judges (pooled)": "alle Judges (zusammengefasst)",
    # the board's method line (model.AGGREGATION, intervals.ci_method, the superseded rule, a row's CI kind)
    "per generation: mean over the judge configuration's scored repeats; per row: mean over generations "
    "(n = generations with a scored judgement); ranking: mean of per-corpus means within one judge group":
        "je Generierung: Mittel über die bewerteten Wiederholungen der Judge-Konfiguration; je Zeile: Mittel über "
        "die Generierungen (n = Generierungen mit einem bewerteten Urteil); Rang: Mittel der Mittel je Korpus "
        "innerhalb einer Judge-Gruppe",
    "%(level)s interval chosen per row by simulated coverage at its n (benger.stats.COVERAGE: the method closest "
    "to 95 %%; B = %(b)s, seed %(seed)s where resampled); %(unit)s; rows with fewer than %(min)s units: %(none)s":
        "%(level)s-Intervall je Zeile nach der simulierten Überdeckung bei ihrem n gewählt (benger.stats.COVERAGE: "
        "die Methode, die 95 %% am nächsten kommt; B = %(b)s, Seed %(seed)s, wo neu gezogen wird); %(unit)s; "
        "Zeilen mit weniger als %(min)s Einheiten: %(none)s",
    "resampling unit: the generation (the paper's rule)": "Resampling-Einheit: die Generierung (die Regel des Papers)",
    "resampling unit: the task (a task's repetitions and judge repeats nested in it)":
        "Resampling-Einheit: die Aufgabe (ihre Wiederholungen und Judge-Wiederholungen in ihr verschachtelt)",
    "no interval (n < %(n)s)": "kein Intervall (n < %(n)s)",
    "included": "eingeschlossen",
    "excluded": "ausgeschlossen",
    "percentile": "Perzentil-Bootstrap",
    "bca": "BCa-Bootstrap",
    "t": "t-Intervall",
    "normal": "Normalapproximation",
    # validate-judge (benger.analysis._validate_judge: HEADER, _ON_PERCENT, _verdict, the method; _percent)
    "judge": "Judge",
    "n human": "n menschliche Picks",
    "r": "r",
    "rho": "ρ",
    "MAE raw": "MAE Rohpunkte",
    "MAE gp": "MAE Notenpunkte",
    "kappa": "κ",
    "offset human": "Versatz menschliche Picks",
    "offset LLM": "Versatz LLM-Picks",
    "MAE %": "MAE %",
    "offset human (% points)": "Versatz menschliche Picks (Prozentpunkte)",
    "offset LLM (% points)": "Versatz LLM-Picks (Prozentpunkte)",
    "omega blind (human, eps .15)": "ω blind (menschliche Picks, ε 0,15)",
    "verdict": "Urteil",
    "omega blind (LLM)": "ω blind (LLM-Picks)",
    "omega creator eps .20": "ω Ersteller*in ε 0,20",
    "omega creator eps .15": "ω Ersteller*in ε 0,15",
    "ICC(2,k) judge in place": "ICC(2,k) mit dem Judge an Stelle einer Gutachter*in",
    "passes": "besteht",
    "fails": "besteht nicht",
    "undefined (too few picks per annotator)": "unbestimmt (zu wenige Picks je Gutachter*in)",
    "every judge through the RQ5 analysis of `benger reproduce` on the released picks and the blind/creator "
    "reviews; alt-test: blind pool at epsilon 0.15, single expert (creator) at 0.20 and 0.15, Benjamini-Yekutieli "
    "q = 0.05, pass = omega >= 0.5":
        "jeder Judge durch die RQ5-Analyse von `benger reproduce` auf den veröffentlichten Picks und den blinden "
        "Gutachten und denen der Ersteller*innen; Alt-Test: blinder Pool bei ε 0,15, Einzelexpert*in "
        "(Ersteller*in) bei 0,20 und 0,15, Benjamini-Yekutieli q = 0,05, bestanden bei ω ≥ 0,5",
    "percent of each solution's rubric total (0-100); grade points and pass on the paper's 0-18 table of it":
        "Prozent der Gesamtpunktzahl der Rubrik jeder Lösung (0–100); Notenpunkte und Bestehen nach der "
        "0–18-Tabelle des Papers darauf",
    # generation states (benger.schema.GenerationStatus, a superseded one's reason: benger.store._import) and the
    # error analysis (benger.analysis._error_modes)
    "failed": "fehlgeschlagen",
    "superseded (%(campaign)s campaign; left out of the leaderboards)":
        "überholt (Kampagne %(campaign)s; nicht in den Ranglisten)",
    "(text not stored: released, text withheld)": "(Text nicht gespeichert: veröffentlicht, Text zurückgehalten)",
    "long_but_shallow": "lang, aber oberflächlich",
    "wrong_norm_framing": "falscher Normrahmen",
    "reasoning_outcome_divergence": "Begründung und Ergebnis auseinander",
}
#: Codes of the store's data that the pages show (no sentence of the analysis, so in a table of their own: "t" is
#: a test here and an interval there): a system's tier (benger.schema.Tier), a human solution's working mode
#: (benger.schema.Condition, worded as the study platform does) and the alt-test's test per annotator
#: (benger.stats._alt_test); "human" is a human solution's system label (benger.web.viewer._reader)
DATA_DE: dict[str, dict[str, str]] = {
    "tier": {"flagship": "Flaggschiff", "efficiency": "Effizienz", "open_reference": "offene Referenz",
             "local": "lokal"},
    "condition": {"traditional": "klassisch", "co_creation": "Ko-Kreation"},
    "test": {"wilcoxon": "Wilcoxon", "t": "t-Test"},
    "system": {"human": "Mensch"},
}
# fmt: on

_PARAM = re.compile(r"%\((\w+)\)s")
_NUMBER = re.compile(r"[−-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?")
_NEGATIVE_ZERO = re.compile(r"[−-](?=0(?:[.,]0*)?\Z)")
_HUMAN = re.compile(r"human(?: \((\w+)\))?(?=\s|\Z)")


@cache
def _patterns() -> list[tuple[re.Pattern[str], str]]:
    """(regex of an English template, its German template), the longest English first: the templates of
    :data:`ANALYSIS_DE` with ``%(name)s`` parts."""
    out = []
    for en, de in sorted(ANALYSIS_DE.items(), key=lambda kv: -len(kv[0])):
        parts = _PARAM.split(en)
        if len(parts) == 1:
            continue
        rx = "".join(re.escape(p.replace("%%", "%")) if i % 2 == 0 else f"(?P<{p}>.+?)" for i, p in enumerate(parts))
        out.append((re.compile(rx + r"\Z", re.S), de))
    return out


def german(text: str) -> str | None:
    """The German of the analysis code ``text`` (a fixed string, or a template whose values are put in
    translated and with decimal commas); None when ``text`` is no code."""
    if text in ANALYSIS_DE and "%(" not in text:
        return ANALYSIS_DE[text]
    for rx, de in _patterns():
        found = rx.match(text)
        if found:
            return de % {k: _value(v) for k, v in found.groupdict().items()}
    return None


def _value(text: str) -> str:
    """A value put into a template: translated when it is a code, a number with the decimal comma, else (a
    name, a hash) as it is."""
    known = german(text)
    return known if known is not None else decimal_comma(text)


def decimal_comma(text: str) -> str:
    """A number written with the German decimal comma (``0.60`` -> ``0,60``, ``-0.0`` -> ``0,0``); any other text
    as it is."""
    return unsigned_zero(text).replace(".", ",") if _NUMBER.fullmatch(text) else text


def unsigned_zero(text: str) -> str:
    """A number that rounds to zero without its minus sign (``-0.0`` -> ``0.0``); any other text as it is."""
    return _NEGATIVE_ZERO.sub("", text)


class Words:
    """The analysis' English in the page's language (given to every template as ``words``)."""

    def __init__(
        self, lang: str, own: Callable[[str], str | None] = lambda text: None, systems: Mapping[str, str] | None = None
    ) -> None:
        self.lang = lang
        self._own = own  # the viewer's own German key -> its text in ``lang`` (None: not one of its keys)
        self._systems = dict(systems or {})  # system name -> display name (``_names.system_names``)

    def say(self, text: Any) -> Markup | str:
        """An analysis sentence or label: its German on a German page, else as it is (marked ``lang="en"`` on
        a German page when it is no known code: an exception's message, a new wording)."""
        if text is None or text == "":
            return "–"
        said = str(text)
        own = self._own(said)  # a German key of the viewer's (a block's "no judge" error)
        if own is not None:
            return own
        if self.lang == "en":
            return said
        found = german(said)
        return found if found is not None else Markup('<span lang="en">%s</span>') % said

    def known(self, text: Any) -> str:
        """A value that is data unless it is a code (a generation state, a solution's excerpt, a judge group's
        name): the German of a code on a German page, anything else as it is."""
        value = "" if text is None else str(text)
        if self.lang == "en":
            return value
        found = german(value)
        return found if found is not None else value

    def term(self, code: str) -> str:
        """A code the viewer has its own words for in both languages (an error mode: ``long_but_shallow``): its
        German, through the viewer's table into the page's language."""
        de = german(code)
        if de is None:
            return code
        own = self._own(de)
        return de if own is None else own

    def cell(self, text: Any) -> str:
        """A cell of validate-judge's table: a code in German, a number with the page's decimal separator."""
        text = str(text)
        return unsigned_zero(text) if self.lang == "en" else _value(text)

    def number(self, value: Any) -> str:
        """A plain value (a threshold, a p-value already formatted) as the page's language writes numbers."""
        text = str(value)
        return text if self.lang == "en" else decimal_comma(text)

    def code(self, kind: str, value: Any) -> str:
        """A code of the store's data (:data:`DATA_DE`: ``kind`` "tier", "condition", "test", "system") in the
        page's language: its German on a German page, else as it is ("–" for none)."""
        if value is None or value == "":
            return "–"
        text = str(value)
        return DATA_DE[kind].get(text, text) if self.lang == "de" else text

    def solution(self, label: str) -> str:
        """A solution's label ("gpt-5.4 #2 (excluded)", "human (co_creation) 08c8…"): the generation state in
        parentheses and a human solution's "human (working mode)" in the page's language (benger.web.viewer._reader
        writes the codes), and a system's display name in place of its name (``_names.system_label``)."""
        label = system_label(self._systems, label)
        human = _HUMAN.match(label)
        if human and self.lang == "de":
            mode = f" ({self.code('condition', human[1])})" if human[1] else ""
            return f"{self.code('system', 'human')}{mode}{label[human.end() :]}"
        head, sep, tail = label.rpartition(" (")
        if not sep or not tail.endswith(")") or tail[:-1] not in ("excluded", "failed"):
            return label
        return f"{head} ({self.known(tail[:-1])})"


def catalogue_entries(existing: Mapping[str, str]) -> dict[str, str]:
    """German -> English of :data:`ANALYSIS_DE`, for the viewer's table (those whose German it has already,
    with its own English, stay as they are: "Judge")."""
    return {de: en for en, de in ANALYSIS_DE.items() if de not in existing and de != en}
