"""Template rendering shared by the routers: every page gets the user and the session's CSRF token."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from jinja2 import ChoiceLoader, FileSystemLoader

from benger.study._errors import de_number
from benger.web._i18n import DEFAULT_LANG, JS_STRINGS, LANGS, message, translator
from benger.web._markdown import render_markdown
from benger.web._security import csrf_token


def lang_of(request: Request) -> str:
    """The UI language from the ``lang`` cookie (German by default)."""
    lang = request.cookies.get("lang", DEFAULT_LANG)
    return lang if lang in LANGS else DEFAULT_LANG


HERE = Path(str(resources.files("benger.web")))
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))
TEMPLATES.env.filters["markdown"] = render_markdown


def router_templates(here: Path) -> Jinja2Templates:
    """Templates of a router package at ``here``: its own ``templates/`` first, then the app's (layout, macros)."""
    templates = Jinja2Templates(directory=str(here / "templates"))
    templates.env.loader = ChoiceLoader(
        [FileSystemLoader(str(here / "templates")), FileSystemLoader(str(HERE / "templates"))]
    )
    return templates


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Render a template with the user, the CSRF token and the context."""
    context.setdefault("user", getattr(request.state, "user", None))
    context["csrf"] = csrf_token(request)
    lang = lang_of(request)
    context["lang"] = lang
    context["_"] = _ = translator(lang)
    context["js_strings"] = {text: _(text) for text in JS_STRINGS}
    context["msg"] = lambda exc: message(exc, lang)
    context["num"] = (lambda x: de_number(x)) if lang == "de" else (lambda x: f"{x:g}")
    return TEMPLATES.TemplateResponse(request, name, context, status_code=status_code)
