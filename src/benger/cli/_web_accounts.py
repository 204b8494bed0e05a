"""``benger study create-user``, ``deactivate``, ``activate``, ``set-password``, ``set-roles``, ``set-groups``: the
accounts of the study platform without the browser."""

from __future__ import annotations

import getpass
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from benger.cli._options import DbOption
from benger.cli._web_study import _store, _user_id, study_app

if TYPE_CHECKING:
    pass


@study_app.command("create-user")
def create_user_cmd(
    username: Annotated[str, typer.Argument(help="Login name.")],
    role: Annotated[list[str], typer.Option("--role", help="admin, participant, grader or creator (repeatable).")],
    db: DbOption = None,
    password: Annotated[str | None, typer.Option(help="Password (asked for when omitted).")] = None,
) -> None:
    """Create an account."""
    from benger.study import create_user

    secret = _secret(password, "Password: ")
    with _store(db, create=True).session() as session:
        user = create_user(session, username, secret, role)
        typer.echo(f"created {user.username} ({user.roles}), pseudonym {user.pseudonym}")


@study_app.command("deactivate")
def deactivate_cmd(username: Annotated[str, typer.Argument(help="Login name.")], db: DbOption = None) -> None:
    """Deactivate an account: its sessions end and it can no longer log in."""
    _set_active(username, db, active=False)


@study_app.command("activate")
def activate_cmd(username: Annotated[str, typer.Argument(help="Login name.")], db: DbOption = None) -> None:
    """Reactivate a deactivated account."""
    _set_active(username, db, active=True)


def _set_active(username: str, db: str | None, *, active: bool) -> None:
    from benger.study import set_active

    store = _store(db)
    with store.session() as session:
        set_active(session, _user_id(store, username), active)
    typer.echo(f"{'activated' if active else 'deactivated'} {username}")


@study_app.command("set-password")
def set_password_cmd(
    username: Annotated[str, typer.Argument(help="Login name.")],
    db: DbOption = None,
    password: Annotated[str | None, typer.Option(help="New password (asked for when omitted).")] = None,
) -> None:
    """Reset an account's password; every session of the account ends."""
    from benger.study import set_password

    store = _store(db)
    secret = _secret(password, "New password: ")
    with store.session() as session:
        set_password(session, _user_id(store, username), secret)
    typer.echo(f"password of {username} reset; its sessions ended")


@study_app.command("set-roles")
def set_roles_cmd(
    username: Annotated[str, typer.Argument(help="Login name.")],
    role: Annotated[list[str], typer.Option("--role", help="admin, participant, grader or creator (repeatable).")],
    db: DbOption = None,
) -> None:
    """Replace the roles of an account."""
    from benger.study import set_roles

    store = _store(db)
    with store.session() as session:
        set_roles(session, _user_id(store, username), role)
    typer.echo(f"roles of {username}: {' '.join(sorted(set(role)))}")


@study_app.command("set-groups")
def set_groups_cmd(
    username: Annotated[str, typer.Argument(help="Login name.")],
    group: Annotated[
        list[str] | None, typer.Option("--group", help="Group name (repeatable; none: no groups).")
    ] = None,
    db: DbOption = None,
) -> None:
    """Replace the groups of an account (which group-restricted studies it sees)."""
    from benger.study import set_groups

    store = _store(db)
    with store.session() as session:
        set_groups(session, _user_id(store, username), list(group or []))
    typer.echo(f"groups of {username}: {' '.join(sorted(set(group or []))) or '-'}")


def _secret(password: str | None, prompt: str) -> str:
    """The password given (an empty one too: the account rules refuse it), else one asked for without echo; without
    a terminal (a script, ``echo ... |``), the first line of standard input, read without getpass's
    "GetPassWarning: Can not control echo on the terminal" (an empty input is refused by the account rules)."""
    if password is not None:
        return password
    if not sys.stdin.isatty():
        line = sys.stdin.readline()
        if not line:  # the input ended: the CLI says to give the value as an option
            raise EOFError
        return line.rstrip("\r\n")
    return getpass.getpass(prompt)
