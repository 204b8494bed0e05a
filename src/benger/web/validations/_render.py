"""Rendering of the validation pages: the runs pages' frame and context, this package's templates and texts,
and the result table as the CLI prints it (``benger.analysis._validate_judge``'s headers and rows)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse

from benger.web._i18n import EN as APP_EN
from benger.web._render import lang_of, router_templates
from benger.web._security import csrf_token
from benger.web.runs._render import EN as RUNS_EN

HERE = Path(__file__).resolve().parent
TEMPLATES = router_templates(HERE)

# fmt: off
EN: dict[str, str] = {
    "Richter validieren": "Validate a judge",
    "Diesen Richter validieren": "Validate this judge",
    "Validierungen": "Validations",
    "Validierung": "Validation",
    "Richter": "Judge",
    "Vergleich mit": "Compare with",
    "den Bewertungen der veröffentlichten Auswahl (45 Lösungen, 180 menschliche Bewertungen)":
        "the reviews of the released picks (45 solutions, 180 human reviews)",
    "den eigenen importierten Bewertungen eines Korpus": "the organisation's own imported reviews of a corpus",
    "Korpus": "Corpus",
    "Der Server kennt keine Veröffentlichung (BENGER_RELEASE): nur eigene Bewertungen.":
        "The server knows no release (BENGER_RELEASE): own reviews only.",
    "Validieren": "Validate",
    "Nur ein beendeter Lauf kann validiert werden.": "Only a finished run can be validated.",
    "Lauf": "Run",
    "Quelle": "Source",
    "Bewertungen": "Judgements",
    "Ergebnis": "Result",
    "Herkunft": "Provenance",
    "Abdeckung": "Coverage",
    "Alt-Test je Annotator*in": "Alt-test per annotator",
    "Noch keine Validierungen.": "No validations yet.",
    "Erneut starten": "Launch again",
    "Fehler": "Error",
}
# fmt: on


def translate(lang: str) -> Any:
    if lang == "en":
        return lambda text: EN.get(text, RUNS_EN.get(text, APP_EN.get(text, text)))
    return lambda text: text


def render(request: Request, name: str, scope: Any, status_code: int = 200, **context: Any) -> HTMLResponse:
    """A validation page in the workbench's frame, with the user, the CSRF token and the language."""
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


def result_view(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """The result as the CLI's Markdown shows it: provenance, coverage, the side-by-side table (candidate
    first), and the candidate's blind-pool alt-test per annotator, per pool."""
    if not result:
        return None
    from benger.analysis._validate_judge import headers, table_rows

    coverage = result["coverage"]
    alt_tests = []
    for pool in ("human", "llm"):
        alt = result["candidate"]["alt_test_blind"].get(pool)
        if alt:
            alt_tests.append({"pool": pool, "alt": alt})
    agreements = [(pool, block) for pool, block in result["candidate"]["agreement"].items() if block and block.get("n")]
    return {
        "agreements": agreements if result["provenance"].get("corpus") else [],
        "provenance": sorted((str(k), str(v)) for k, v in result["provenance"].items()),
        "coverage": coverage,
        "header": headers(result),
        "rows": table_rows(result),
        "icc": result["candidate"]["icc_placement"],
        "method": result.get("method", ""),
        "alt_tests": alt_tests,
    }
