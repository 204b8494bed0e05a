"""Accounts: argon2 password hashes, roles, invitation links, login rate limiting, the signing key."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from benger.errors import InputError
from benger.study._models import ROLES, LoginAttempt, StudyInvitation, StudySetting, StudyUser

_HASHER = PasswordHasher()
MIN_PASSWORD = 8
#: Failed logins per user name and address within the window before further attempts are refused.
MAX_FAILURES = 5
FAILURE_WINDOW = timedelta(minutes=15)


def aware(value: datetime) -> datetime:
    """A UTC-aware datetime (SQLite returns naive ones)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def now_utc() -> datetime:
    return datetime.now(UTC)


def _check_roles(roles: list[str]) -> str:
    bad = [r for r in roles if r not in ROLES]
    if bad or not roles:
        raise InputError(f"unknown role(s) {bad or roles}; expected some of {', '.join(ROLES)}", field="roles")
    return " ".join(sorted(set(roles)))


def create_user(session: Session, username: str, password: str, roles: list[str]) -> StudyUser:
    """Create an account; the password is stored as an argon2id hash."""
    username = username.strip()
    if not username or len(username) > 100:
        raise InputError("a user name needs 1 to 100 characters", field="username")
    if len(password) < MIN_PASSWORD:
        raise InputError(f"a password needs at least {MIN_PASSWORD} characters", field="password")
    user = StudyUser(
        username=username,
        password_hash=_HASHER.hash(password),
        roles=_check_roles(roles),
        pseudonym="u-" + secrets.token_hex(6),
        active=True,
    )
    session.add(user)
    try:
        session.flush()
    except IntegrityError as exc:
        raise InputError(f"the user name {username!r} is taken", field="username") from exc
    return user


def rate_limited(session: Session, key: str, now: datetime | None = None) -> bool:
    """Whether ``key`` (user name and address) had MAX_FAILURES failed logins within the window."""
    since = (now or now_utc()) - FAILURE_WINDOW
    count = session.scalar(
        select(func.count()).select_from(LoginAttempt).where(LoginAttempt.key == key, LoginAttempt.at >= since)
    )
    return int(count or 0) >= MAX_FAILURES


def authenticate(session: Session, username: str, password: str, key: str) -> StudyUser | None:
    """The active user with these credentials, or None (a failure is recorded under ``key``)."""
    user = session.scalar(select(StudyUser).where(StudyUser.username == username.strip()))
    ok = False
    if user is not None and user.active:
        try:
            ok = _HASHER.verify(user.password_hash, password)
        except (VerificationError, InvalidHashError):
            ok = False
    else:
        _HASHER.hash(password)  # same cost for unknown names, so timing does not reveal them
    if not ok:
        session.add(LoginAttempt(key=key, at=now_utc()))
        return None
    session.execute(delete(LoginAttempt).where(LoginAttempt.key == key))
    if user is not None and _HASHER.check_needs_rehash(user.password_hash):
        user.password_hash = _HASHER.hash(password)
    return user


def create_invitation(session: Session, role: str, days: int = 14) -> str:
    """A one-time invitation token for an account with ``role``."""
    _check_roles([role])
    token = secrets.token_urlsafe(24)
    session.add(
        StudyInvitation(token=token, role=role, created_at=now_utc(), expires_at=now_utc() + timedelta(days=days))
    )
    return token


def redeem_invitation(session: Session, token: str, username: str, password: str) -> StudyUser:
    """Create the invited account; the token works once and only before it expires."""
    invitation = session.get(StudyInvitation, token, with_for_update=True)
    if invitation is None or invitation.used_by is not None or aware(invitation.expires_at) < now_utc():
        raise InputError("this invitation link is invalid, used or expired", field="token")
    user = create_user(session, username, password, [invitation.role])
    invitation.used_by = user.id
    return user


def secret_key(session: Session) -> str:
    """The session signing key, generated once and kept in the database (so restarts keep logins)."""
    row = session.get(StudySetting, "secret_key")
    if row is None:
        row = StudySetting(key="secret_key", value=secrets.token_urlsafe(48))
        session.add(row)
        try:
            session.flush()
        except IntegrityError:
            session.rollback()
            row = session.get(StudySetting, "secret_key")
            assert row is not None
    return row.value
