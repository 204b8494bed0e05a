"""Login, logout, invitation links, the expertise profile and the start page."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from benger.errors import InputError
from benger.schema import AREAS
from benger.study import authenticate, redeem_invitation, save_expertise
from benger.study._accounts import rate_limited
from benger.study._models import EXPERTISE_LEVELS
from benger.web._i18n import LANGS
from benger.web._render import render
from benger.web._security import check_csrf, login, require, store_of, user_of

router = APIRouter()
LEVEL_LABELS = {
    "layperson": "Laie",
    "law_student": "Jurastudent*in",
    "graduate": "Absolvent*in (1. Examen)",
    "referendar": "Referendar*in",
}


def home_of(roles: str) -> str:
    for role, path in (
        ("admin", "/admin"),
        ("participant", "/studies"),
        ("grader", "/reviews"),
        ("creator", "/reviews"),
    ):
        if role in roles.split():
            return path
    return "/login"


@router.get("/")
def index(request: Request) -> Response:
    with store_of(request).session() as session:
        user = user_of(request, session)
        return RedirectResponse(home_of(user.roles) if user else "/login", status_code=303)


@router.get("/lang/{lang}")
def set_lang(request: Request, lang: str, next: str = "/") -> Response:
    """Switch the UI language (cookie) and go back; only local paths are followed."""
    target = next if next.startswith("/") and not next.startswith("//") and "\\" not in next else "/"
    response = RedirectResponse(target, status_code=303)
    if lang in LANGS:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, httponly=True, samesite="lax")
    return response


@router.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/login")
def login_page(request: Request) -> Response:
    return render(request, "login.html")


@router.post("/login", dependencies=[Depends(check_csrf)])
def login_post(request: Request, username: str = Form(...), password: str = Form(...)) -> Response:
    client = request.client.host if request.client else "-"
    key = f"{username.strip().lower()}|{client}"
    store = store_of(request)
    with store.session() as session:
        if rate_limited(session, key):
            return render(request, "login.html", 429, error="Zu viele Fehlversuche. Bitte später erneut versuchen.")
        user = authenticate(session, username, password, key)
        roles = user.roles if user else ""
        if user is not None:
            login(request, user)
    if user is None:
        return render(request, "login.html", 401, error="Benutzername oder Passwort ist falsch.")
    return RedirectResponse(home_of(roles), status_code=303)


@router.post("/logout", dependencies=[Depends(check_csrf)])
def logout(request: Request) -> Response:
    request.session.clear()
    return RedirectResponse("/login", status_code=303)


@router.get("/invite/{token}")
def invite_page(request: Request, token: str) -> Response:
    return render(request, "invite.html", token=token)


@router.post("/invite/{token}", dependencies=[Depends(check_csrf)])
def invite_post(request: Request, token: str, username: str = Form(...), password: str = Form(...)) -> Response:
    try:
        with store_of(request).session() as session:
            user = redeem_invitation(session, token, username, password)
            roles = user.roles
            login(request, user)
    except InputError as exc:
        return render(request, "invite.html", 400, token=token, error=exc.reason)
    return RedirectResponse(home_of(roles), status_code=303)


@router.get("/profile")
def profile_page(request: Request) -> Response:
    with store_of(request).session() as session:
        require(request, session, "participant")
        return render(request, "profile.html", areas=AREAS, levels=LEVEL_LABELS, saved=False)


@router.post("/profile", dependencies=[Depends(check_csrf)])
async def profile_post(request: Request) -> Response:
    form = await request.form()
    store = store_of(request)
    with store.session() as session:
        user_id = require(request, session, "participant").id
    level = str(form.get("expertise_level", ""))
    if level not in EXPERTISE_LEVELS:
        raise InputError("Bitte einen Ausbildungsstand wählen.", field="expertise_level")
    try:
        competence: dict[str, int] = {a: int(str(form.get(f"competence_{i}", ""))) for i, a in enumerate(AREAS)}
        grade_text = str(form.get("exam_grade", "")).strip().replace(",", ".")
        grade = float(grade_text) if grade_text else None
    except ValueError as exc:
        raise InputError("Bitte Zahlen angeben (Kompetenz 1-5, Note 0-18).", field="competence") from exc
    save_expertise(store, user_id, level, competence, grade)
    return RedirectResponse("/studies", status_code=303)
