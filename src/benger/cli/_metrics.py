"""``benger metrics``: automatic metrics for the generations and human solutions in the store."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from benger.cli._checks import refuse_unknown
from benger.cli._options import DbOption
from benger.errors import InputError


def register(app: typer.Typer) -> None:
    @app.command("metrics")
    def metrics_cmd(
        db: DbOption = None,
        metrics: Annotated[
            str | None,
            typer.Option(
                "--metrics",
                help="Comma list or group: lexical, embedding, all (default: lexical + semantic_similarity).",
            ),
        ] = None,
        corpus: Annotated[str | None, typer.Option("--corpus", help="Only targets of this corpus.")] = None,
        systems: Annotated[
            list[str] | None,
            typer.Option("--system", "-s", "--systems", help="Only these systems (repeatable); skips human solutions."),
        ] = None,
        limit: Annotated[int | None, typer.Option("--limit", min=1, help="Score at most this many targets.")] = None,
        humans: Annotated[bool, typer.Option("--humans/--no-humans", help="Also score human solutions.")] = True,
        encoder: Annotated[
            str | None, typer.Option("--encoder", help="Local HF model directory for BERTScore/MoverScore.")
        ] = None,
        layer: Annotated[int | None, typer.Option("--layer", help="Encoder layer (default: last).")] = None,
        workers: Annotated[
            int,
            typer.Option(
                "--workers",
                min=1,
                help="Processes for the embedding metrics (each loads the encoder, ~0.8 GB; threads split the cores).",
            ),
        ] = 1,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
        list_: Annotated[
            bool, typer.Option("--list", help="Print every registered metric with its signature and exit.")
        ] = False,
    ) -> None:
        """Compute automatic metrics per item and store them with their signatures (resumable)."""
        if list_:
            _print_list(encoder, layer)
            return
        if metrics is not None and not any(name.strip() for name in metrics.split(",")):
            raise InputError(
                f"names no metric ({metrics!r}); give a comma list or a group (see `benger metrics --list`)",
                field="--metrics",
            )
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        from benger._console import console as new_console
        from benger.metrics import EmbeddingOptions
        from benger.metrics._store import score_store
        from benger.store import open_store

        store = open_store(db)
        _check_systems(store, systems or [])
        refuse_unknown([corpus] if corpus is not None else None, store.corpus_names(), "corpus", "--corpus",
                       "stored corpora")  # fmt: skip
        options = EmbeddingOptions(encoder=encoder, layer=layer)
        console = new_console(stderr=True)
        with Progress(
            TextColumn("metrics"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=console,
            disable=quiet,
        ) as progress:
            task = progress.add_task("metrics", total=None)
            try:
                summary = score_store(
                    store,
                    metrics,
                    corpus=corpus,
                    systems=systems,
                    limit=limit,
                    include_humans=humans,
                    embedding=options,
                    on_total=lambda n: progress.update(task, total=n),
                    on_advance=lambda n: progress.advance(task, n),
                    workers=workers,
                    on_estimate=lambda estimate: _print_estimate(console, estimate),
                )
            except KeyboardInterrupt:
                progress.stop()
                console.print("interrupted: every finished batch is saved; run the same command again to continue")
                raise typer.Exit(130) from None
        for m in summary.written:
            typer.echo(f"{m}: {summary.written[m]} computed, {summary.skipped[m]} already stored")
        if summary.no_reference:
            typer.echo(f"{summary.no_reference} targets skipped: empty text or no reference")


def _print_estimate(console: Any, estimate: Any) -> None:
    """One line before the bulk of the embedding metrics: their time, measured on a sample of each."""
    if not estimate.seconds:
        return
    parts = ", ".join(
        f"{m} {estimate.words[m]:,} words ~{s / 60:.1f} min (from {estimate.sampled[m]} pairs)"
        for m, s in estimate.seconds.items()
    )
    workers = "1 worker" if estimate.workers == 1 else f"{estimate.workers} workers"
    console.print(
        f"embedding metrics: about {sum(estimate.seconds.values()) / 60:.1f} min left with {workers} ({parts}; "
        "measured on this machine now: the progress bar shows the real remaining time)"
    )


def _check_systems(store: Any, systems: list[str]) -> None:
    """InputError (field ``--system``) naming the systems of ``systems`` with no generation in ``store``.

    Without it a misspelt name scores nothing and the command ends with exit 0 ("0 computed")."""
    known = {s.name for s in store.systems()}
    unknown = [name for name in systems if name not in known and not store.generations(system=name)]
    if unknown:
        stored = ", ".join(sorted(known)) or "none"
        raise InputError(
            f"no generation of {', '.join(repr(n) for n in unknown)} in the store; stored systems: {stored}",
            field="--system",
        )


def _print_list(encoder: str | None, layer: int | None) -> None:
    """One block per registered metric: ``key [family] label``, then its signature (or why it is unavailable)."""
    from benger.errors import BengerError
    from benger.metrics import EmbeddingOptions, all_metrics, bind_metrics

    options = EmbeddingOptions(encoder=encoder, layer=layer)
    for key, defn in all_metrics().items():
        default = ", default" if defn.default else ""
        typer.echo(f"{key} [{defn.family}{default}] {defn.label}")
        try:
            typer.echo(f"    {bind_metrics([key], options)[key][2]}")
        except BengerError as exc:
            typer.echo(f"    unavailable: {exc}")
