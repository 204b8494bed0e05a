"""Login, logout, invitation links, the own password, the expertise profile and the start page."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from benger.schema import AREAS
from benger.study import (
    LoggedIn,
    RateLimited,
    StudyError,
    authenticate,
    change_password,
    end_sessions,
    redeem_invitation,
    save_expertise,
)
from benger.study._accounts import MAX_FAILURES, count_attempt, now_utc, reset_attempts
from benger.study._errors import de_number
from benger.study._models import EXPERTISE_LEVELS
from benger.web._i18n import LANGS, message
from benger.web._render import lang_of, render
from benger.web._security import (
    LoggedInUser,
    Participant,
    check_csrf,
    client_address,
    login,
    login_guard,
    store_of,
    user_of,
)

router = APIRouter()
#: The signed cookie of a browser in which accounts logged in before (known device), and how long it lasts.
DEVICE_COOKIE = "benger_device"
DEVICE_MAX_AGE_S = 180 * 24 * 3600
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
    return "/orgs"  # an account without a platform role (joined by a workbench invitation)


@router.get("/")
def index(request: Request) -> Response:
    with store_of(request).session() as session:
        user = user_of(request, session)
        return RedirectResponse(home_of(user.roles) if user else "/login", status_code=303)


def local_path(target: str, default: str) -> str:
    """``target`` when it is a path on this site (``/...``, not ``//host`` nor a backslash), else ``default``."""
    return target if target.startswith("/") and not target.startswith("//") and "\\" not in target else default


@router.get("/lang/{lang}")
def set_lang(request: Request, lang: str, next: str = "/") -> Response:
    """Switch the UI language (cookie) and go back; only local paths are followed."""
    target = local_path(next, "/")
    response = RedirectResponse(target, status_code=303)
    if lang in LANGS:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, httponly=True, samesite="lax")
    return response


@router.get("/healthz")
def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/login")
def login_page(request: Request, next: str = "") -> Response:
    return render(request, "login.html", next=local_path(next, ""))


@router.post("/login", dependencies=[Depends(check_csrf)])
def login_post(
    request: Request, username: str = Form(...), password: str = Form(...), next: str = Form("")
) -> Response:
    """Log in and go on to ``next`` (a local path: the invitation link that sent the visitor here) or the
    role's start page; the browser keeps a signed device cookie naming the accounts that logged in with it, so an
    attacker's failed attempts elsewhere never refuse the owner here (benger.study._accounts)."""
    next = local_path(next, "")
    signer = device_signer(request)
    device_id, names = read_device(signer, request.cookies.get(DEVICE_COOKIE))
    name = username.strip().lower()
    try:
        user = authenticate(
            store_of(request),
            username,
            password,
            client_address(request),
            known_device=device_id if name in names else None,
        )
    except RateLimited as exc:
        return render(request, "login.html", 429, error=message(exc, lang_of(request)), next=next)
    if user is None:
        return render(request, "login.html", 401, error="Benutzername oder Passwort ist falsch.", next=next)
    login(request, user)
    response = RedirectResponse(next or home_of(user.roles), status_code=303)
    device = signer.dumps({"d": device_id or secrets.token_urlsafe(16), "n": sorted({*names, name})[-20:]})
    response.set_cookie(
        DEVICE_COOKIE,
        device,
        max_age=DEVICE_MAX_AGE_S,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return response


def device_signer(request: Request) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(request.app.state.secret_key, salt="benger-device")


def read_device(signer: URLSafeTimedSerializer, cookie: str | None) -> tuple[str | None, set[str]]:
    """(device id, account names that logged in on it) from the signed device cookie; (None, {}) if absent or
    forged."""
    if not cookie:
        return None, set()
    try:
        data = signer.loads(cookie, max_age=DEVICE_MAX_AGE_S)
    except BadSignature:
        return None, set()
    if not isinstance(data, dict) or not isinstance(data.get("d"), str) or not isinstance(data.get("n"), list):
        return None, set()
    return data["d"], {str(n) for n in data["n"]}


@router.post("/logout", dependencies=[Depends(check_csrf)])
def logout(request: Request) -> Response:
    """End the session on the server (the account's session version goes up) and clear the cookie."""
    with store_of(request).session() as session:
        user = user_of(request, session)
        if user is not None:
            end_sessions(session, user.id)
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
            logged = LoggedIn(user.id, user.roles, user.session_version)
    except StudyError as exc:
        return render(request, "invite.html", 400, token=token, error=exc)
    login(request, logged)
    return RedirectResponse(home_of(logged.roles), status_code=303)


@router.get("/account", dependencies=[Depends(login_guard)])
def account_page(request: Request) -> Response:
    return render(request, "account.html", changed=request.query_params.get("changed") == "1")


@router.post("/account/password", dependencies=[Depends(login_guard), Depends(check_csrf)])
def account_password(
    request: Request,
    user: LoggedInUser,
    current_password: str = Form(...),
    new_password: str = Form(...),
    repeat: str = Form(...),
) -> Response:
    """Change the own password: other sessions end, this one continues with the new session version.

    The current password is checked at most MAX_FAILURES times per window (then one more a minute), as a login
    is: a stolen session cannot guess it."""
    if new_password != repeat:
        raise StudyError("Die beiden neuen Passwörter stimmen nicht überein.", field="repeat")
    store = store_of(request)
    key = f"account:{user.id}"
    count_attempt(store, [(key, MAX_FAILURES)], now_utc())
    with store.session() as session:
        version = change_password(session, user.id, current_password, new_password)
        logged = LoggedIn(user.id, user.roles, version)
    reset_attempts(store, key)
    login(request, logged)
    return RedirectResponse("/account?changed=1", status_code=303)


@router.get("/profile")
def profile_page(request: Request, user: Participant) -> Response:
    grade = "" if user.exam_grade is None else de_number(user.exam_grade)
    return render(request, "profile.html", areas=AREAS, levels=LEVEL_LABELS, exam_grade=grade)


@router.post("/profile", dependencies=[Depends(check_csrf)])
async def profile_post(request: Request, user: Participant) -> Response:
    form = await request.form()
    store = store_of(request)
    level = str(form.get("expertise_level", ""))
    if level not in EXPERTISE_LEVELS:
        raise StudyError("Bitte einen Ausbildungsstand wählen.", field="expertise_level")
    try:
        competence: dict[str, int] = {a: int(str(form.get(f"competence_{i}", ""))) for i, a in enumerate(AREAS)}
        grade_text = str(form.get("exam_grade", "")).strip().replace(",", ".")
        grade = float(grade_text) if grade_text else None
    except ValueError as exc:
        raise StudyError("Bitte Zahlen angeben (Kompetenz 1 bis 5, Note 0 bis 18).", field="competence") from exc
    save_expertise(store, user.id, level, competence, grade)
    return RedirectResponse("/studies", status_code=303)
