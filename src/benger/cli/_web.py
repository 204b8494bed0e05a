"""``benger serve`` (the study web app) and ``benger study ...`` (admin commands without the browser)."""

from __future__ import annotations

import getpass
import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from benger.cli._options import DbOption
from benger.errors import InputError, MissingDependencyError

if TYPE_CHECKING:
    from benger.store import Store

study_app = typer.Typer(help="Human study: accounts, studies, picks, review assignment, export.", no_args_is_help=True)
StudyOption = Annotated[int, typer.Option("--study", help="Study id (see `benger study list`).")]


def _store(db: str | None) -> Store:
    from benger.store import open_store

    return open_store(db)


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        db: DbOption = None,
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="Port.")] = 8000,
        secure_cookies: Annotated[bool, typer.Option(help="Send the session cookie over HTTPS only.")] = False,
        sweep_every: Annotated[float, typer.Option(help="Seconds between auto-submits of overdue drafts.")] = 15.0,
    ) -> None:
        """Start the human-study web app (German UI) on the store."""
        try:
            import uvicorn

            from benger.web import create_app
        except ImportError as exc:
            raise MissingDependencyError("benger serve", "web", "fastapi/uvicorn") from exc
        store = _store(db)
        typer.echo(f"benger study app on http://{host}:{port} (store {store.url})")
        uvicorn.run(create_app(store, secure_cookies=secure_cookies, sweep_every_s=sweep_every), host=host, port=port)

    app.add_typer(study_app, name="study")


@study_app.command("create-user")
def create_user_cmd(
    username: Annotated[str, typer.Argument(help="Login name.")],
    role: Annotated[list[str], typer.Option("--role", help="admin, participant, grader or creator (repeatable).")],
    db: DbOption = None,
    password: Annotated[str | None, typer.Option(help="Password (asked for when omitted).")] = None,
) -> None:
    """Create an account."""
    from benger.study import create_user

    secret = password or getpass.getpass("Passwort: ")
    with _store(db).session() as session:
        user = create_user(session, username, secret, role)
        typer.echo(f"created {user.username} ({user.roles}), pseudonym {user.pseudonym}")


@study_app.command("invite")
def invite_cmd(role: Annotated[str, typer.Argument(help="Role of the invited account.")], db: DbOption = None) -> None:
    """Print a one-time invitation path (valid 14 days)."""
    from benger.study import create_invitation

    with _store(db).session() as session:
        typer.echo(f"/invite/{create_invitation(session, role)}")


@study_app.command("create")
def create_cmd(
    name: Annotated[str, typer.Argument(help="Study name.")],
    corpus: Annotated[str, typer.Option(help="Corpus in the store (Falllösung tasks).")],
    db: DbOption = None,
    seed: Annotated[int, typer.Option(help="Seed of the arm design and the review assignment.")] = 20260509,
    time_limit: Annotated[int, typer.Option(help="Seconds per task.")] = 7200,
) -> None:
    """Create a study from a corpus."""
    from benger.study import create_study

    typer.echo(f"study id {create_study(_store(db), name, corpus, seed, time_limit)}")


@study_app.command("list")
def list_cmd(db: DbOption = None) -> None:
    """List the studies."""
    from sqlalchemy import select

    from benger.study._models import Study

    with _store(db).session() as session:
        for study in session.scalars(select(Study).order_by(Study.id)):
            typer.echo(f"{study.id}\t{study.name}\t{study.corpus}\tseed={study.seed}\t{study.time_limit_s}s")


@study_app.command("set-author")
def set_author_cmd(task_id: str, username: str, study: StudyOption, db: DbOption = None) -> None:
    """Record the author (creator role) of a task."""
    from sqlalchemy import select

    from benger.study import set_author
    from benger.study._models import StudyUser

    store = _store(db)
    with store.session() as session:
        user_id = session.scalar(select(StudyUser.id).filter_by(username=username))
    if user_id is None:
        raise InputError(f"no user {username!r}", field="username")
    set_author(store, study, task_id, user_id)


@study_app.command("picks")
def picks_cmd(study: StudyOption, db: DbOption = None) -> None:
    """Select the validation picks (median-expertise humans, tier-balanced LLM rotation)."""
    from benger.study import run_picks

    typer.echo(f"{run_picks(_store(db), study)} picks")


@study_app.command("assign")
def assign_cmd(
    study: StudyOption,
    db: DbOption = None,
    seed: Annotated[int | None, typer.Option(help="Seed (default: the study's).")] = None,
) -> None:
    """Assign 1 creator and 3 blind reviews per pick."""
    from benger.study import run_assignment

    typer.echo(f"{run_assignment(_store(db), study, seed)} review assignments")


@study_app.command("expire")
def expire_cmd(db: DbOption = None) -> None:
    """Auto-submit every overdue draft now."""
    from benger.study import expire_overdue

    typer.echo(f"{expire_overdue(_store(db))} drafts submitted")


@study_app.command("export")
def export_cmd(
    study: StudyOption, out: Annotated[Path, typer.Option(help="Output folder (release layout).")], db: DbOption = None
) -> None:
    """Export picks, assignments and reviews in the release layout."""
    from benger.study import export_study

    typer.echo(json.dumps(export_study(_store(db), study, out)))
