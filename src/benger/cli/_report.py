"""``benger reproduce`` (from the release) and ``benger analyze`` (from a store): results, tables, figures, HTML."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from benger.cli._options import DbOption, out_option, resamples_option, seed_option
from benger.cli._reviews import RubricOption, corpus_rubrics

OutOption = Annotated[Path, out_option("Output folder (created): results.json, tables/, figures/, report.html.")]
SeedOption = Annotated[int, seed_option("Seed of every bootstrap and resampling stream.")]
BootOption = Annotated[int, resamples_option("--n-boot", "Bootstrap resamples per interval.")]


def _summary(out: Path, results: dict) -> None:
    meta = results.get("meta") or {}
    typer.echo(f"wrote {out / 'results.json'}, {out / 'tables'}, {out / 'figures'} and {out / 'report.html'}")
    if meta.get("primary_judge"):
        typer.echo(f"primary judge: {meta['primary_judge']}; seed {meta.get('seed')}, n_boot {meta.get('n_boot')}")


def register(app: typer.Typer) -> None:
    @app.command("reproduce")
    def reproduce_cmd(
        release: Annotated[Path, typer.Option("--release", help="The released data folder (holds data/).")],
        out: OutOption,
        seed: SeedOption = 7,
        n_boot: BootOption = 2000,
        include_superseded: Annotated[
            bool,
            typer.Option(
                "--include-superseded",
                help="Count the superseded April Benchathon generations as final, as the paper's printed "
                "numbers do (Table 1 GPT-5.4 n = 30, Table 12 n = 208).",
            ),
        ] = False,
    ) -> None:
        """Recompute the paper's results from the released files and write the report."""
        from benger.report import reproduce

        _summary(out, reproduce(release, out, seed=seed, n_boot=n_boot, include_superseded=include_superseded))

    @app.command("analyze")
    def analyze_cmd(
        out: OutOption,
        db: DbOption = None,
        corpus: Annotated[
            list[str] | None,
            typer.Option(
                "--corpus",
                help="A corpus of the store to analyse (repeat for several: one folder each under --out). "
                "Default: the Falllösung corpus with the most generations.",
            ),
        ] = None,
        seed: SeedOption = 7,
        n_boot: BootOption = 2000,
        rubric: RubricOption = None,
    ) -> None:
        """Compute the same results, tables, figures and report for a study run with benger (from its store)."""
        from benger.report import analyze

        rubrics = corpus_rubrics(rubric)

        def report(name: str, folder: Path, results: dict) -> None:
            typer.echo(f"corpus {name}:")
            _summary(folder, results)
            for item in results.get("skipped") or []:
                typer.echo(f"  skipped {item['block']}: {item['reason']}")
            for item in ((results.get("rq1") or {}).get("leaderboard") or {}).get("left_out") or []:
                typer.echo(f"  left out of Table 1: {item['reason']}")

        analyze(db, out, seed=seed, n_boot=n_boot, corpora=corpus or None, on_corpus=report, rubrics=rubrics)
