"""The ``benger study`` command group and what its commands share: the store they open, the study a ``--study``
names, the bounds of their options (benger.cli._web and benger.cli._web_accounts add the commands)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from benger.store import Store

study_app = typer.Typer(help="Human study: accounts, studies, picks, review assignment, export.", no_args_is_help=True)
StudyOption = Annotated[str, typer.Option("--study", help="Study name or id (see `benger study list`).")]
FeedbackSwitch = Annotated[
    bool | None, typer.Option("--on/--off", help="Show participants the judge's feedback, or stop showing it.")
]


def _store(db: str | None, *, create: bool = False) -> Store:
    """The store at ``db``. Only the commands that start a deployment create one (``create=True``: ``serve`` and
    ``study create-user``, docs/study.md's first two steps); every other ``study`` command needs the store to
    exist and refuses a missing file or one that is not a benger store (exit 2, the file left as it was), so a
    mistyped ``--db`` never leaves an empty store behind. ``study create`` refuses too: a study is created from
    a corpus the store already holds."""
    from benger.store import open_store

    return open_store(db, create=create)


def _bounded(field: str) -> Any:
    """A typer callback checking an option against the study's bound for ``field`` (benger.study._bounds, the one
    table the web forms and the Python API check too): a value outside it is refused before the store is opened,
    naming the option and the range (exit 2)."""
    from benger.study._bounds import BOUNDS

    bound = BOUNDS[field]

    def check(value: int | None) -> int | None:
        return value if value is None else bound.check(value, field=bound.option)

    return check


def _has_accounts(store: Store) -> bool:
    """True when the store has at least one study account (else nobody can pass the login page)."""
    from sqlalchemy import select

    from benger.study._models import StudyUser

    with store.session() as session:
        return session.scalar(select(StudyUser.id).limit(1)) is not None


def study_name(positional: str | None, option: str | None) -> str:
    """The name of the study ``study create`` makes: ``--study NAME`` (as every ``study`` command names its study)
    or, as before, the positional NAME; both at once, or neither, is a usage error (exit 2)."""
    if positional is not None and option is not None:
        raise typer.BadParameter(
            f"the study is named twice ({positional!r} and --study {option!r}): give --study NAME only",
            param_hint="--study",
        )
    if positional is None and option is None:
        raise typer.BadParameter("name the new study: --study NAME", param_hint="--study")
    return str(option if option is not None else positional)


def study_id(store: Store, ref: str) -> int:
    """The id of the study ``ref`` names: its name, or its id (digits; an id wins over a name of digits).

    Raises StudyError (field ``--study``) listing the studies when none matches.
    """
    from sqlalchemy import select

    from benger.study import StudyError
    from benger.study._models import Study

    with store.session() as session:
        studies = {s.id: s.name for s in session.scalars(select(Study).order_by(Study.id))}
    wanted = ref.strip()
    if wanted.isdecimal() and wanted.isascii() and int(wanted) in studies:
        return int(wanted)
    for sid, name in studies.items():
        if name == wanted:
            return sid
    known = "; ".join(f"{sid} {name!r}" for sid, name in studies.items()) or "–"
    raise StudyError(
        "Es gibt keine Studie mit dem Namen oder der Nummer {ref}; die Studien (Nummer Name): {known}.",
        field="--study",
        ref=repr(ref),
        known=known,
    )


def _named(store: Store, sid: int) -> str:
    """``study 'name' (id N)`` for the command's one line of output."""
    from benger.study._models import Study

    with store.session() as session:
        study = session.get(Study, sid)
        return f"study {study.name if study else '?'!r} (id {sid})"


def _user_id(store: Store, username: str) -> int:
    from benger.study import user_by_name

    with store.session() as session:
        return user_by_name(session, username).id
