"""``benger view``: the read-only results viewer over a store, served locally or written as a static bundle."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benger.cli._options import DbOption, port_option, require_free_port
from benger.errors import InputError, MissingDependencyError


def _bundle_folder(bundle: str | None) -> Path | None:
    """The ``--bundle`` folder; an empty or blank value is refused (as a path it is ``.``: the current folder)."""
    if bundle is None:
        return None
    if not bundle.strip():
        raise InputError(
            "--bundle needs a folder name (an empty one would write the bundle into the current folder; "
            "write `--bundle .` for that)",
            field="--bundle",
        )
    return Path(bundle)


def register(app: typer.Typer) -> None:
    @app.command("view")
    def view_cmd(
        db: DbOption = None,
        bundle: Annotated[
            str | None,
            typer.Option("--bundle", help="Write the pages as static files into this folder (opens from file://)."),
        ] = None,
        host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
        port: Annotated[int, port_option("Port (8002: beside stub-server on 8001, serve on 8000).")] = 8002,
        organiser: Annotated[
            bool,
            typer.Option(
                "--organiser",
                help="Show the solutions and reviews of studies that are not done yet (default: left out).",
            ),
        ] = False,
    ) -> None:
        """Leaderboard, solutions with their judgements and reviews, compare, browse, judge validation and the
        error analysis of a store (read-only; German and English)."""
        from benger.store import open_store
        from benger.web._policy import Principal  # the web stack is imported below, after the warm start

        out = _bundle_folder(bundle)
        principal = Principal.local(organiser=organiser)
        if out is None:
            require_free_port(host, port)

        store = open_store(db, create=False)
        try:
            if out is not None:
                try:
                    from benger.web.viewer import write_bundle
                except ImportError as exc:
                    raise MissingDependencyError("benger view", "web", "fastapi/uvicorn") from exc
                say = lambda m: typer.echo(m, err=True)  # noqa: E731
                counts = write_bundle(store, out, principal=principal, progress=say)
                typer.echo(
                    f"wrote {out}: {counts['pages']} pages ({counts['solutions']} solutions, {counts['tasks']} "
                    f"tasks, languages {', '.join(counts['languages'])}), {counts['bytes'] / 1e6:.1f} MB; open "
                    f"{out / 'index.html'}"
                )
                return
            from benger.web.viewer._warm import warm

            warm(store, principal)  # the leaderboard (the slowest page) while the web stack loads and starts
            try:
                import uvicorn

                from benger.web.viewer import create_viewer_app
            except ImportError as exc:
                raise MissingDependencyError("benger view", "web", "fastapi/uvicorn") from exc
            viewer = create_viewer_app(store, principal)
            typer.echo(f"benger viewer on http://{host}:{port}/view/ (store {store.url}; read-only)")
            uvicorn.run(viewer, host=host, port=port, server_header=False)
        finally:
            store.close()
