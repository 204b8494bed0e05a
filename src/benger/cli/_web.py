"""``benger serve`` (the study web app) and ``benger study ...`` (admin commands without the browser)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from benger.cli._options import (
    DbOption,
    MaxBodyOption,
    RunExecutorOption,
    TrustedProxyOption,
    out_option,
    port_option,
    require_free_port,
)
from benger.cli._web_accounts import create_user_cmd  # noqa: F401  (the account commands come first in the help)
from benger.cli._web_study import (
    FeedbackSwitch,
    StudyOption,
    _bounded,
    _has_accounts,
    _named,
    _store,
    _user_id,
    study_app,
    study_id,
    study_name,
)
from benger.errors import MissingDependencyError

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI


def server_config(app: FastAPI, host: str, port: int, trusted_proxies: list[str]) -> uvicorn.Config:
    """The uvicorn configuration of ``benger serve``.

    ``X-Forwarded-For``/``-Proto`` are honoured only from the addresses in ``trusted_proxies`` (uvicorn's
    own default trusts them from 127.0.0.1, which would let any local client pick the address the login
    limit counts under); with none given, the socket's peer address is the client.
    """
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        proxy_headers=bool(trusted_proxies),
        forwarded_allow_ips=",".join(trusted_proxies) if trusted_proxies else "",
        server_header=False,
    )


def _secret_key_note() -> None:
    """Say so at start when organisations cannot store API keys (BENGER_SECRET_KEY missing or invalid)."""
    from benger.errors import ConfigError
    from benger.llm._keys import check_secret_key

    try:
        check_secret_key()
    except ConfigError as exc:
        typer.echo(f"note: {exc}; until then runs use the API keys of the server's (or worker's) environment")


def register(app: typer.Typer) -> None:
    @app.command("serve")
    def serve_cmd(
        db: DbOption = None,
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, port_option()] = 8000,
        secure_cookies: Annotated[bool, typer.Option(help="Send the session cookie over HTTPS only.")] = False,
        sweep_every: Annotated[float, typer.Option(help="Seconds between auto-submits of overdue drafts.")] = 15.0,
        trusted_proxy: TrustedProxyOption = None,
        run_executor: RunExecutorOption = "local",
        max_body_mb: MaxBodyOption = 80,
    ) -> None:
        """Start the human-study web app (German UI) on the store."""
        require_free_port(host, port)
        try:
            import uvicorn

            from benger.web import create_app
        except ImportError as exc:
            raise MissingDependencyError("benger serve", "web", "fastapi/uvicorn") from exc
        if run_executor not in ("local", "celery"):
            raise typer.BadParameter(f"{run_executor!r}: choose local or celery", param_hint="--run-executor")
        if run_executor == "celery":
            from benger.workers._settings import check_settings

            check_settings()
        store = _store(db, create=True)
        typer.echo(f"benger study app on http://{host}:{port} (store {store.url})")
        _secret_key_note()
        if not _has_accounts(store):
            typer.echo(
                "no accounts yet: create the first admin with `benger study create-user NAME --role admin"
                + (f" --db {db}`" if db else "`")
                + ", then log in (admins invite the others)"
            )
        limit = max_body_mb * 2**20
        web = create_app(
            store,
            secure_cookies=secure_cookies,
            sweep_every_s=sweep_every,
            run_executor=run_executor,
            max_body_bytes=limit,
        )
        uvicorn.Server(server_config(web, host, port, list(trusted_proxy or []))).run()

    app.add_typer(study_app, name="study")


@study_app.command("visible-to")
def visible_to_cmd(
    study: StudyOption,
    group: Annotated[list[str] | None, typer.Option("--group", help="Group name (repeatable; none: everyone).")] = None,
    db: DbOption = None,
) -> None:
    """Make a study visible only to participants of these groups (no --group: to everyone)."""
    from benger.study import set_study_groups

    store = _store(db)
    sid = study_id(store, study)
    set_study_groups(store, sid, list(group or []))
    typer.echo(f"{_named(store, sid)} visible to: {' '.join(sorted(set(group or []))) or 'everyone'}")


@study_app.command("open")
def open_cmd(study: StudyOption, db: DbOption = None) -> None:
    """Open a study (draft or closed without picks -> open): participants may enrol and submit."""
    from benger.study import open_study

    store = _store(db)
    sid = study_id(store, study)
    open_study(store, sid)
    typer.echo(f"{_named(store, sid)} is open")


@study_app.command("close")
def close_cmd(study: StudyOption, db: DbOption = None) -> None:
    """Close a study: submissions end; running attempts submit their last draft."""
    from benger.study import close_study

    store = _store(db)
    sid = study_id(store, study)
    typer.echo(f"{_named(store, sid)} is closed; {close_study(store, sid)} running drafts submitted")


@study_app.command("finish")
def finish_cmd(study: StudyOption, db: DbOption = None) -> None:
    """Finish the reviews of a study (in_review -> done)."""
    from benger.study import finish_study

    store = _store(db)
    sid = study_id(store, study)
    finish_study(store, sid)
    typer.echo(f"{_named(store, sid)} is done")


@study_app.command("feedback")
def feedback_cmd(study: StudyOption, on: FeedbackSwitch = None, db: DbOption = None) -> None:
    """Let participants read a judge's feedback on their own submissions (only once submissions have closed)."""
    from benger.study import set_feedback

    if on is None:  # both at once is refused for every flag pair (benger.cli._options.refuse_opposite_flags)
        raise typer.BadParameter("give exactly one of --on and --off", param_hint="--on/--off")
    store = _store(db)
    set_feedback(store, sid := study_id(store, study), on)
    typer.echo(f"{_named(store, sid)}: feedback for participants {'on' if on else 'off'}")


@study_app.command("invite")
def invite_cmd(role: Annotated[str, typer.Argument(help="Role of the invited account.")], db: DbOption = None) -> None:
    """Print a one-time invitation path (valid 14 days)."""
    from benger.study import create_invitation

    with _store(db).session() as session:
        typer.echo(f"/invite/{create_invitation(session, role)}")


@study_app.command("create")
def create_cmd(
    corpus: Annotated[str, typer.Option(help="Corpus in the store (Falllösung tasks).")],
    name: Annotated[
        str | None,
        typer.Argument(metavar="NAME", help="Study name (as before; --study is the same).", show_default=False),
    ] = None,
    study: Annotated[str | None, typer.Option("--study", help="Name of the new study.", show_default=False)] = None,
    db: DbOption = None,
    seed: Annotated[
        int,
        typer.Option(
            help="Seed of the arm design and the review assignment (0-2147483647).", callback=_bounded("seed")
        ),
    ] = 20260509,
    time_limit: Annotated[
        int, typer.Option(help="Seconds per task (1 s to 30 days).", callback=_bounded("time_limit_s"))
    ] = 7200,
) -> None:
    """Create a study from a corpus: benger study create --study NAME --corpus CORPUS."""
    from benger.study import create_study

    name = study_name(name, study)

    typer.echo(f"created study {name!r} (id {create_study(_store(db), name, corpus, seed, time_limit)})")


@study_app.command("list")
def list_cmd(db: DbOption = None) -> None:
    """List the studies."""
    from sqlalchemy import select

    from benger.study._models import Study

    store = _store(db)
    with store.session() as session:
        studies = list(session.scalars(select(Study).order_by(Study.id)))
    for study in studies:
        typer.echo(f"{study.id}\t{study.name}\t{study.corpus}\t{study.state}\tseed={study.seed}\t{study.time_limit_s}s")
    if not studies:
        where = store.engine.url.database if store.engine.dialect.name == "sqlite" else store.url
        corpora = ", ".join(store.corpus_names()) or "none yet: benger import first"
        typer.echo(
            f"no studies in {where}; create one with `benger study create --study NAME --corpus CORPUS"
            + (f" --db {db}`" if db else "`")
            + f" (corpora in the store: {corpora})"
        )


@study_app.command("set-author")
def set_author_cmd(task_id: str, username: str, study: StudyOption, db: DbOption = None) -> None:
    """Record the author (creator role) of a task."""
    from benger.study import set_author

    store = _store(db)
    set_author(store, study_id(store, study), task_id, _user_id(store, username))


@study_app.command("picks")
def picks_cmd(
    study: StudyOption,
    db: DbOption = None,
    llm_only: Annotated[
        bool, typer.Option("--llm-only", help="Pick LLM generations only (a study without human submissions).")
    ] = False,
) -> None:
    """Select the validation picks of a closed study (again until reviews start)."""
    from benger.study import run_picks

    store = _store(db)
    typer.echo(f"{run_picks(store, study_id(store, study), llm_only=llm_only)} picks")


@study_app.command("assign")
def assign_cmd(
    study: StudyOption,
    db: DbOption = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed (0-2147483647; default: the study's).", callback=_bounded("seed"))
    ] = None,
) -> None:
    """Assign 1 creator and 3 blind reviews per pick (again until reviews start)."""
    from benger.study import run_assignment

    store = _store(db)
    typer.echo(f"{run_assignment(store, study_id(store, study), seed)} review assignments")


@study_app.command("expire")
def expire_cmd(db: DbOption = None) -> None:
    """Auto-submit every overdue draft now."""
    from benger.study import expire_overdue

    typer.echo(f"{expire_overdue(_store(db))} drafts submitted")


@study_app.command("export")
def export_cmd(
    study: StudyOption, out: Annotated[Path, out_option("Output folder (release layout).")], db: DbOption = None
) -> None:
    """Export picks, assignments, reviews and submissions (with the AI tools named) in the release layout."""
    from benger.study import export_study

    store = _store(db)
    typer.echo(json.dumps(export_study(store, study_id(store, study), out)))
