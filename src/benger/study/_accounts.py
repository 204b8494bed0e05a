"""Accounts: argon2 password hashes, roles, invitation links, login limits, server-side session revocation.

Login limit (backoff that cannot be turned against the owner): every attempt first increments its counters
in one short transaction with ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING``; on PostgreSQL the
conflicting insert waits for the row lock, so parallel attempts are numbered one by one and only attempts
numbered within every limit reach the password check; a refused attempt is taken back out, so counters count
checked attempts only. The counters: per account name and client (address, or the known device), and per
account name from anywhere. Each allows its limit within the window and then one more attempt per
``BACKOFF`` elapsed (an attacker gets one guess a minute, not a lockout). The per-account counter does not
apply to a *known device* (a browser in which this account logged in before, ``known_device=True``): 21
wrong passwords from elsewhere never refuse the owner there. A successful login resets the counters.

Sessions: a login copies the account's ``session_version`` into the signed cookie; logout, deactivation
and a password change raise it, which ends every session of the account (the cookie alone no longer opens
anything, see benger.web._security.user_of).

The admin's accounts table: :func:`account_page` searches and pages in the database (``ACCOUNTS_PER_PAGE``).
"""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import case, delete, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from benger.store import Store
from benger.study._errors import RateLimited, StudyError
from benger.study._models import ROLES, LoginCounter, StudyInvitation, StudySetting, StudyUser
from benger.study._state import parse_groups

_HASHER = PasswordHasher()
MIN_PASSWORD = 8
#: The least zxcvbn score (0 too guessable ... 4 very unguessable) a new password needs.
MIN_STRENGTH = 2
#: Login attempts per account name and client address within the window before further ones are refused.
MAX_FAILURES = 5
#: Login attempts per account name (from any address) within the window: caps spread-out guessing.
MAX_ACCOUNT_FAILURES = 20
FAILURE_WINDOW = timedelta(minutes=15)
#: Beyond a limit, one more attempt is allowed per BACKOFF elapsed since the window began.
BACKOFF = timedelta(minutes=1)


def aware(value: datetime) -> datetime:
    """A UTC-aware datetime (SQLite returns naive ones)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def now_utc() -> datetime:
    return datetime.now(UTC)


def _check_roles(roles: list[str]) -> str:
    bad = [r for r in roles if r not in ROLES]
    if bad or not roles:
        raise StudyError(
            "Unbekannte Rolle(n) {roles}; erlaubt sind: {allowed}",
            field="roles",
            roles=", ".join(bad or roles) or "–",
            allowed=", ".join(ROLES),
        )
    if {"admin", "grader"} <= set(roles):
        # the organiser's pages and downloads show every pick's provenance; a blind grader must not know it
        raise StudyError(
            "Ein Konto kann nicht zugleich admin und grader sein: die Verwaltung zeigt die Herkunft jeder "
            "Lösung, die Blindbewertung darf sie nicht kennen. Bitte ein zweites Konto anlegen.",
            field="roles",
        )
    return " ".join(sorted(set(roles)))


def check_password(password: str, username: str = "") -> None:
    """The password policy: at least MIN_PASSWORD characters and a zxcvbn strength score of at least
    MIN_STRENGTH (0-4; zxcvbn, Dropbox's estimator, knows common passwords, keyboard walks, dates, repeats and
    the account's own name). StudyError (field ``password``) otherwise."""
    if len(password) < MIN_PASSWORD:
        raise StudyError("Ein Passwort braucht mindestens {n} Zeichen.", field="password", n=MIN_PASSWORD)
    from zxcvbn import zxcvbn  # deferred: the estimator's dictionaries take a moment to load

    if zxcvbn(password[:100], user_inputs=[username] if username else [])["score"] < MIN_STRENGTH:
        raise StudyError(
            "Dieses Passwort ist zu leicht zu erraten (häufiges Passwort, Tastaturfolge, Name oder Datum); bitte "
            "ein längeres oder ungewöhnlicheres wählen.",
            field="password",
        )


def check_username(username: str) -> str:
    """``username`` without surrounding blanks; StudyError (field ``username``) unless it is 1 to 100
    printable characters: no control, format (bidi overrides such as U+202E, zero-width joiners), private-use,
    unassigned or line/paragraph separator characters, no blank other than the plain space."""
    username = username.strip()
    if not username or len(username) > 100:
        raise StudyError("Ein Benutzername braucht 1 bis 100 Zeichen.", field="username")
    for position, char in enumerate(username, start=1):
        if not char.isprintable():
            raise StudyError(
                "Ein Benutzername darf keine Steuer- oder Formatzeichen enthalten (Zeichen {position}: U+{code}).",
                field="username",
                position=position,
                code=f"{ord(char):04X}",
            )
    return username


def create_user(session: Session, username: str, password: str, roles: list[str]) -> StudyUser:
    """Create an account; the password is stored as an argon2id hash. The name follows :func:`check_username`."""
    username = check_username(username)
    check_password(password, username)
    user = StudyUser(
        username=username,
        password_hash=_HASHER.hash(password),
        roles=_check_roles(roles),
        pseudonym="u-" + secrets.token_hex(6),
        active=True,
        session_version=0,
    )
    try:
        with session.begin_nested():
            session.add(user)
            session.flush()
    except IntegrityError as exc:
        raise StudyError("Der Benutzername {name} ist bereits vergeben.", field="username", name=username) from exc
    return user


def _bump(session: Session, key: str, now: datetime) -> tuple[int, datetime]:
    """Atomically count one attempt under ``key`` (a new window after FAILURE_WINDOW); returns the count and
    the window's start."""
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert(LoginCounter) if dialect == "postgresql" else sqlite.insert(LoginCounter)
    stale = LoginCounter.window_start < now - FAILURE_WINDOW
    stmt = (
        insert.values(key=key, attempts=1, window_start=now)
        .on_conflict_do_update(
            index_elements=["key"],
            set_={
                "attempts": case((stale, 1), else_=LoginCounter.attempts + 1),
                "window_start": case((stale, now), else_=LoginCounter.window_start),
            },
        )
        .returning(LoginCounter.attempts, LoginCounter.window_start)
    )
    attempts, start = session.execute(stmt).one()
    return int(attempts), aware(start)


def allowed(attempts: int, limit: int, window_start: datetime, now: datetime) -> timedelta | None:
    """None when attempt number ``attempts`` is within ``limit`` plus one per BACKOFF elapsed since
    ``window_start``; otherwise how long until the next one is allowed."""
    extra = int((now - window_start) / BACKOFF)
    if attempts <= limit + extra:
        return None
    return window_start + BACKOFF * (attempts - limit) - now


def count_attempt(store: Store, limits: list[tuple[str, int]], now: datetime) -> None:
    """Count one attempt under each (key, limit) in its own transaction; RateLimited (saying in how many seconds
    the next one is possible) when any is beyond its limit plus backoff, and then it is not counted."""
    with store.session() as session:
        counted = {key: _bump(session, key, now) for key, _ in limits}
        waits = [w for key, limit in limits if (w := allowed(counted[key][0], limit, counted[key][1], now))]
        if waits:  # refused: not counted, so the counters count checked attempts only
            session.execute(
                update(LoginCounter)
                .where(LoginCounter.key.in_(list(counted)))
                .values(attempts=LoginCounter.attempts - 1)
            )
    if waits:
        seconds = max(1, math.ceil(max(waits).total_seconds()))
        raise RateLimited(
            "Zu viele Fehlversuche. Der nächste Versuch ist in {seconds} Sekunden möglich.",
            field="password",
            seconds=seconds,
        )


def reset_attempts(store: Store, *keys: str) -> None:
    """Forget the counted attempts under ``keys`` (after a success)."""
    with store.session() as session:
        session.execute(delete(LoginCounter).where(LoginCounter.key.in_(keys)))


@dataclass(frozen=True)
class LoggedIn:
    """Who logged in: the account id, its roles and the session version to put into the cookie."""

    user_id: int
    roles: str
    session_version: int


def login_keys(username: str, client: str) -> tuple[str, str]:
    """The counter keys of an attempt: per account and client, and per account (sorted: one lock order)."""
    name = username.strip().lower()
    return f"addr:{name}|{client}", f"name:{name}"


def authenticate(
    store: Store,
    username: str,
    password: str,
    address: str,
    now: datetime | None = None,
    known_device: str | None = None,
) -> LoggedIn | None:
    """Check a login; None for a wrong name or password. Raises RateLimited beyond the limits (the message
    says in how many seconds the next attempt is possible).

    ``known_device``: the id of a browser in which this account logged in before (a signed cookie, see
    benger.web._auth); its attempts count per device instead of per address and are exempt from the
    per-account limit. The attempt is counted (and committed) before the password is checked, so the limits
    hold under any number of parallel requests; a success resets the counters of this account and client.
    """
    now = now or now_utc()
    by_client, by_name = login_keys(username, f"device:{known_device}" if known_device else address)
    limits = [(by_client, MAX_FAILURES)] + ([] if known_device else [(by_name, MAX_ACCOUNT_FAILURES)])
    count_attempt(store, limits, now)
    with store.session() as session:
        user = session.scalar(select(StudyUser).where(StudyUser.username == username.strip()))
        ok = False
        if user is not None and user.active:
            try:
                ok = _HASHER.verify(user.password_hash, password)
            except (VerificationError, InvalidHashError):
                ok = False
        else:
            _HASHER.hash(password)  # same cost for unknown names, so timing does not reveal them
        if not ok or user is None:
            return None
        session.execute(delete(LoginCounter).where(LoginCounter.key.in_((by_client, by_name))))
        if _HASHER.check_needs_rehash(user.password_hash):
            user.password_hash = _HASHER.hash(password)
        return LoggedIn(user.id, user.roles, user.session_version)


def _user(session: Session, user_id: int) -> StudyUser:
    user = session.get(StudyUser, user_id, with_for_update=True)
    if user is None:
        raise StudyError("Dieses Konto gibt es nicht.", field="user_id")
    return user


def user_by_name(session: Session, username: str) -> StudyUser:
    """The account called ``username``; StudyError when there is none."""
    user = session.scalar(select(StudyUser).where(StudyUser.username == username.strip()))
    if user is None:
        raise StudyError("Es gibt kein Konto {name}.", field="username", name=username)
    return user


def end_sessions(session: Session, user_id: int) -> None:
    """End every session of the account (logout): its session version goes up by one, atomically."""
    session.execute(
        update(StudyUser).where(StudyUser.id == user_id).values(session_version=StudyUser.session_version + 1)
    )


def set_active(session: Session, user_id: int, active: bool) -> None:
    """Deactivate (ends its sessions; login refused) or reactivate an account."""
    user = _user(session, user_id)
    user.active = active
    if not active:
        user.session_version += 1


def set_password(session: Session, user_id: int, password: str) -> None:
    """Set a new password (an admin's reset); every session of the account ends."""
    user = _user(session, user_id)
    check_password(password, user.username)
    user.password_hash = _HASHER.hash(password)
    user.session_version += 1


def change_password(session: Session, user_id: int, current: str, new: str) -> int:
    """The account holder changes their password; returns the new session version (other sessions end)."""
    user = _user(session, user_id)
    ok: bool
    try:
        ok = _HASHER.verify(user.password_hash, current)
    except (VerificationError, InvalidHashError):
        ok = False
    if not ok:
        raise StudyError("Das bisherige Passwort ist falsch.", field="current_password")
    set_password(session, user_id, new)
    return user.session_version


def set_roles(session: Session, user_id: int, roles: list[str]) -> None:
    """Replace the roles of an account (checked on every request, so they apply at once)."""
    _user(session, user_id).roles = _check_roles(roles)


def set_groups(session: Session, user_id: int, groups: list[str] | str) -> None:
    """Replace the groups of an account (which group-restricted studies it sees)."""
    _user(session, user_id).groups = parse_groups(groups)


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
        raise StudyError("Dieser Einladungslink ist ungültig, benutzt oder abgelaufen.", field="token")
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


#: Rows per page of the admin's accounts table.
ACCOUNTS_PER_PAGE = 50


@dataclass(frozen=True)
class AccountPage:
    """One page of the accounts table: ``users`` (by id), ``total`` matching accounts, ``page`` 1..``pages``."""

    users: list[StudyUser]
    total: int
    page: int
    pages: int
    query: str


def account_page(session: Session, query: str = "", page: int = 1, per_page: int = ACCOUNTS_PER_PAGE) -> AccountPage:
    """Accounts whose username, pseudonym or role contains ``query`` (case-insensitive, ``%``/``_`` literal),
    ``per_page`` at a time; a page beyond the last gives the last page, one below 1 the first."""
    query = query.strip()[:100]
    matches = select(StudyUser)
    if query:
        needle = query.lower()
        matches = matches.where(
            or_(
                *(
                    func.lower(column).contains(needle, autoescape=True)
                    for column in (StudyUser.username, StudyUser.pseudonym, StudyUser.roles)
                )
            )
        )
    total = session.scalar(select(func.count()).select_from(matches.subquery())) or 0
    pages = max(1, math.ceil(total / per_page))
    page = min(max(page, 1), pages)
    users = list(session.scalars(matches.order_by(StudyUser.id).offset((page - 1) * per_page).limit(per_page)))
    return AccountPage(users, total, page, pages, query)
