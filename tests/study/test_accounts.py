"""Accounts: the login limit (atomic on PostgreSQL, per account, per account and address), deactivation,
password reset and change, roles, and the account commands of the CLI."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from datetime import timedelta
from pathlib import Path

import pytest
import typer
from study_helpers import PASSWORD, user
from typer.testing import CliRunner

from benger.cli import _web
from benger.store import Store, open_store
from benger.study import (
    RateLimited,
    StudyError,
    authenticate,
    change_password,
    create_user,
    set_active,
    set_password,
    set_roles,
)
from benger.study._accounts import BACKOFF, FAILURE_WINDOW, MAX_ACCOUNT_FAILURES, MAX_FAILURES, now_utc
from benger.study._models import StudyUser


def _outcome(store: Store, name: str, password: str, address: str) -> str:
    try:
        return "ok" if authenticate(store, name, password, address) else "wrong"
    except RateLimited:
        return "limited"


@pytest.fixture
def pg_store(pg_database: Callable[[str], AbstractContextManager[str]]) -> Iterator[Store]:
    with pg_database("benger_login") as url:
        store = open_store(url)
        try:
            yield store
        finally:
            store.close()


@pytest.mark.postgres
def test_100_parallel_wrong_passwords_check_at_most_the_limit_on_postgres(pg_store: Store) -> None:
    user(pg_store, "ziel", "participant")
    with ThreadPoolExecutor(32) as pool:
        outcomes = list(pool.map(lambda _: _outcome(pg_store, "ziel", "falsch-falsch", "10.0.0.1"), range(100)))
    # every attempt is numbered by the atomic counter; only numbers 1..5 reach the password check
    assert (outcomes.count("wrong"), outcomes.count("limited")) == (MAX_FAILURES, 100 - MAX_FAILURES)
    assert _outcome(pg_store, "ziel", PASSWORD, "10.0.0.1") == "limited"  # the right password waits too


def test_limit_per_account_across_addresses(store: Store) -> None:
    user(store, "ziel", "participant")
    # a new address for every guess: the per-address limit never triggers, the per-account one does
    outcomes = [_outcome(store, "Ziel", "falsch-falsch", f"10.0.0.{i}") for i in range(MAX_ACCOUNT_FAILURES + 1)]
    assert outcomes == ["wrong"] * MAX_ACCOUNT_FAILURES + ["limited"]
    assert _outcome(store, "ziel", PASSWORD, "10.9.9.9") == "limited"
    # after the window a new one starts; the right password then resets the counters
    later = now_utc() + FAILURE_WINDOW + timedelta(seconds=1)
    assert authenticate(store, "ziel", PASSWORD, "10.9.9.9", now=later) is not None
    assert _outcome(store, "ziel", "falsch-falsch", "10.0.0.1") == "wrong"


def test_limit_per_account_and_address(store: Store) -> None:
    user(store, "ziel", "participant")
    outcomes = [_outcome(store, "ziel", "falsch-falsch", "10.0.0.1") for _ in range(MAX_FAILURES + 1)]
    assert outcomes == ["wrong"] * MAX_FAILURES + ["limited"]
    assert _outcome(store, "ziel", PASSWORD, "10.0.0.2") == "ok"  # another address is not blocked yet


def test_deactivation_password_reset_and_change(store: Store) -> None:
    uid = user(store, "anna", "participant")
    logged = authenticate(store, "anna", PASSWORD, "a")
    assert logged is not None and logged.session_version == 0
    with store.session() as session:
        set_active(session, uid, False)
    assert authenticate(store, "anna", PASSWORD, "a") is None
    with store.session() as session:
        set_active(session, uid, True)
        set_password(session, uid, "neues-passwort")
    assert authenticate(store, "anna", PASSWORD, "a") is None
    again = authenticate(store, "anna", "neues-passwort", "a")
    assert again is not None and again.session_version == 2  # deactivation and reset each ended the sessions
    with store.session() as session, pytest.raises(StudyError, match="bisherige Passwort ist falsch"):
        change_password(session, uid, "falsch-falsch", "noch-ein-passwort")
    with store.session() as session:
        assert change_password(session, uid, "neues-passwort", "noch-ein-passwort") == 3
        with pytest.raises(StudyError, match="mindestens 8 Zeichen"):
            set_password(session, uid, "kurz")
        with pytest.raises(StudyError, match="Unbekannte Rolle"):
            set_roles(session, uid, ["boss"])
        set_roles(session, uid, ["grader", "participant"])
        assert session.get(StudyUser, uid).roles == "grader participant"  # type: ignore[union-attr]


def test_cli_account_commands(store: Store, tmp_path: Path) -> None:
    app = typer.Typer()
    _web.register(app)
    db = str(store.url)
    uid = user(store, "bert", "participant")
    runner = CliRunner()

    def run(*args: str) -> str:
        result = runner.invoke(app, ["study", *args, "--db", db])
        assert result.exit_code == 0, result.output
        return result.output

    assert "password of bert reset" in run("set-password", "bert", "--password", "cli-passwort")
    assert authenticate(store, "bert", "cli-passwort", "x") is not None
    assert "roles of bert: creator grader" in run("set-roles", "bert", "--role", "grader", "--role", "creator")
    assert "groups of bert: kurs-a kurs-b" in run("set-groups", "bert", "--group", "kurs-b", "--group", "kurs-a")
    run("deactivate", "bert")
    assert authenticate(store, "bert", "cli-passwort", "x") is None
    run("activate", "bert")
    with store.session() as session:
        row = session.get(StudyUser, uid)
        assert row is not None and (row.active, row.roles, row.session_version) == (True, "creator grader", 2)
        assert row.groups == "kurs-a kurs-b"
    missing = runner.invoke(app, ["study", "deactivate", "niemand", "--db", db])
    assert missing.exit_code != 0 and "Es gibt kein Konto niemand" in str(missing.exception or missing.output)


def test_21_wrong_logins_never_refuse_the_owner_on_a_known_device(store: Store) -> None:
    """Issue 25, observation 4: 21 wrong logins for a name made the owner's right password fail with 429 for
    15 minutes. Now the attacker is slowed (one guess per BACKOFF), the owner's known device is not refused."""
    user(store, "ziel", "participant")
    now = now_utc()
    outcomes = [_outcome(store, "ziel", "falsch-falsch", f"10.0.0.{i}") for i in range(21)]
    assert outcomes == ["wrong"] * MAX_ACCOUNT_FAILURES + ["limited"]
    assert authenticate(store, "ziel", PASSWORD, "192.168.1.5", known_device="geraet-1") is not None
    # from an unknown device: backoff, not a lockout: one more attempt per minute since the window began
    now = now_utc()  # (the owner's login reset the counters; the attack starts again)
    for i in range(21):
        _outcome(store, "ziel", "falsch-falsch", f"10.0.1.{i}")
    with pytest.raises(RateLimited, match=r"in \d+ Sekunden"):
        authenticate(store, "ziel", PASSWORD, "10.9.9.9", now=now + timedelta(seconds=5))
    assert authenticate(store, "ziel", PASSWORD, "10.9.9.9", now=now + BACKOFF + timedelta(seconds=1)) is not None


def test_a_known_device_has_its_own_limit(store: Store) -> None:
    user(store, "ziel", "participant")
    outcomes = []
    for _ in range(MAX_FAILURES + 1):
        try:
            outcomes.append(bool(authenticate(store, "ziel", "falsch-falsch", "a", known_device="gestohlen")))
        except RateLimited:
            outcomes.append(None)
    assert outcomes == [False] * MAX_FAILURES + [None]  # a stolen device cookie gives no unlimited guessing
    assert authenticate(store, "ziel", PASSWORD, "a", known_device="anderes") is not None


def test_refused_attempts_are_not_counted(store: Store) -> None:
    user(store, "ziel", "participant")
    t0 = now_utc()
    for i in range(MAX_FAILURES + 10):  # 10 refused on top of the 5 checked
        with contextlib.suppress(RateLimited):
            authenticate(store, "ziel", "falsch-falsch", "a", now=t0 + timedelta(seconds=i))
    # one minute in, exactly one more attempt is checked (the refused ones did not use it up)
    assert authenticate(store, "ziel", PASSWORD, "a", now=t0 + BACKOFF + timedelta(seconds=1)) is not None


def test_an_account_cannot_be_admin_and_grader(store: Store) -> None:
    """Issue 25, observation 6: an admin+grader account received blind slots while its admin download showed
    their provenance. benger's choice: the two roles never go together (and a legacy account holding both is
    no blind grader, see tests/study/test_reviews.py)."""
    with store.session() as session:
        with pytest.raises(StudyError, match="nicht zugleich admin und grader"):
            create_user(session, "orga", PASSWORD, ["admin", "grader"])
        uid = create_user(session, "orga2", PASSWORD, ["admin", "creator"]).id
        with pytest.raises(StudyError, match="nicht zugleich admin und grader"):
            set_roles(session, uid, ["admin", "grader"])
