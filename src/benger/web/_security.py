"""Sessions, CSRF and roles: who is logged in, may they see this page, did this form come from us.

``LoginRequired``, ``Forbidden`` (benger.web._policy) and ``store_of`` (benger.web._requests) live where the
results viewer imports them without the study package; the study app's modules take them from here too.

The session cookie is signed and carries the account id and its ``session_version`` at login; a request
counts as logged in only while the account is active and its version is unchanged, so logout,
deactivation and a password change end the session on the server (an old cookie opens nothing).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from benger.study import LoggedIn
from benger.study._models import StudyUser
from benger.web._policy import Forbidden, LoginRequired
from benger.web._requests import store_of

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"


@dataclass(frozen=True)
class Viewer:
    """What the page templates know about the logged-in user (a plain copy, valid after the session closes)."""

    id: int
    username: str
    roles: str
    expertise_level: str | None
    competence: dict[str, Any]
    exam_grade: float | None = None

    def has(self, role: str) -> bool:
        return role in self.roles.split()


class CsrfError(Exception):
    """A state-changing request without a valid CSRF token: 403."""


def csrf_token(request: Request) -> str:
    """The session's CSRF token (created on first use)."""
    token = request.session.get("csrf")
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        request.session["csrf"] = token
    return token


async def check_csrf(request: Request) -> None:
    """Dependency of every POST route: the form field or header must equal the session's token."""
    expected = request.session.get("csrf")
    sent: Any = request.headers.get(CSRF_HEADER)
    if sent is None:
        form = await request.form()
        sent = form.get(CSRF_FIELD)
    if not isinstance(expected, str) or not isinstance(sent, str) or not secrets.compare_digest(expected, sent):
        raise CsrfError()


def user_of(request: Request, session: Session) -> StudyUser | None:
    """The logged-in active user (loaded in ``session``) whose session version still matches, or None."""
    user_id = request.session.get("uid")
    version = request.session.get("sv")
    if not isinstance(user_id, int) or not isinstance(version, int):
        return None
    user = session.get(StudyUser, user_id)
    if user is None or not user.active or user.session_version != version:
        return None
    return user


def require(request: Request, session: Session, *roles: str) -> StudyUser:
    """The logged-in user if they hold one of ``roles`` (any role when none are given)."""
    user = user_of(request, session)
    if user is None:
        raise LoginRequired()
    request.state.user = Viewer(
        user.id, user.username, user.roles, user.expertise_level, dict(user.competence or {}), user.exam_grade
    )
    if roles and not any(user.has(role) for role in roles):
        raise Forbidden()
    return user


def login(request: Request, user: LoggedIn) -> None:
    """Start a fresh session for ``user`` (new CSRF token; guards against session fixation)."""
    request.session.clear()
    request.session["uid"] = user.user_id
    request.session["sv"] = user.session_version
    request.session["csrf"] = secrets.token_urlsafe(32)


def client_address(request: Request) -> str:
    """The client's address as the server saw it. ``X-Forwarded-For`` counts only where ``benger serve
    --trusted-proxy`` told uvicorn to trust the sending proxy (uvicorn then rewrites the client)."""
    return request.client.host if request.client else "-"


def role_guard(*roles: str) -> Callable[[Request], Viewer]:
    """A dependency that checks the login and the role (any role when none are given) and gives the
    :class:`Viewer`; LoginRequired / Forbidden otherwise.

    Used as a router dependency it runs before form parsing, so anonymous or wrong-role requests never reach
    a handler. A handler takes the user as a parameter of the same guard (the aliases below); FastAPI runs one
    guard once per request and hands its result to every place that asks for it."""

    def guard(request: Request) -> Viewer:
        with store_of(request).session() as session:
            require(request, session, *roles)
        viewer: Viewer = request.state.user
        return viewer

    return guard


#: One guard per role set: a router lists it in ``dependencies``, and its handlers receive the same guard's
#: Viewer through the ``Annotated`` aliases (the same callable, so the check runs once per request).
admin_guard = role_guard("admin")
participant_guard = role_guard("participant")
GRADER_ROLES = ("grader", "creator")
grader_guard = role_guard(*GRADER_ROLES)
login_guard = role_guard()

Admin = Annotated[Viewer, Depends(admin_guard)]
Participant = Annotated[Viewer, Depends(participant_guard)]
Grader = Annotated[Viewer, Depends(grader_guard)]
LoggedInUser = Annotated[Viewer, Depends(login_guard)]
