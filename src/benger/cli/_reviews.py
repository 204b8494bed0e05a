"""``benger import-reviews`` (your own blind/creator reviews from CSV/JSONL) and ``validate-judge --corpus`` (a judge
against those reviews, or against the reviews of a finished study on the platform, with the same table as against
the paper's; docs/own-study.md)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Annotated, Any

import typer

from benger.cli._options import DbOption
from benger.errors import EXIT_INCOMPLETE, InputError

RubricOption = Annotated[
    list[str] | None,
    typer.Option(
        "--rubric",
        help="CORPUS=FILE: the rubric of a corpus's tasks without their own Bewertungsbogen "
        "(as in a run config's rubrics:); repeatable.",
    ),
]


def corpus_rubrics(specs: list[str] | None) -> dict[str, Any]:
    """``--rubric CORPUS=FILE`` options as corpus -> Rubric (InputError naming the option for a bad one)."""
    from benger.judge import load_rubric

    rubrics = {}
    for spec in specs or []:
        corpus, sep, file = spec.partition("=")
        if not sep or not corpus or not file:
            raise InputError(f"--rubric {spec!r}: expected CORPUS=FILE", field="--rubric")
        rubrics[corpus] = load_rubric(file)
    return rubrics


def import_reviews(
    source: Annotated[Path, typer.Argument(help="Reviews file (.csv or .jsonl): solution_id, reviewer, role, dims.")],
    db: DbOption = None,
    rubric: RubricOption = None,
) -> None:
    """Import your own human reviews (blind and creator) of stored solutions; all or nothing."""
    from benger.corpora._reviews import load_reviews_file, review_changes
    from benger.pipeline._corpus_rubrics import corpus_rubrics as kept_rubrics
    from benger.store import open_store

    rubrics = corpus_rubrics(rubric)
    store = open_store(db, create=False)
    try:
        rubrics = kept_rubrics(store, store.corpus_names(), rubrics)  # the store's rubric; --rubric must agree
        reviews = load_reviews_file(source, store, rubrics=rubrics)
        changed, counts = review_changes(store, reviews)
        store.add_human_reviews(changed)
    finally:
        store.close()
    roles = {role: sum(r.role == role for r in reviews) for role in ("blind", "creator")}
    solutions = len({r.target_id for r in reviews})
    reviewers = len({r.grader_id for r in reviews})
    typer.echo(f"imported {len(reviews)} reviews ({roles['blind']} blind, {roles['creator']} creator) of "
               f"{solutions} solutions by {reviewers} reviewers")  # fmt: skip
    typer.echo(f"  {counts['new']} new, {counts['replaced']} replaced (a changed review of the same reviewer, "
               f"solution and role), {counts['unchanged']} unchanged")  # fmt: skip
    if not changed:
        typer.echo("nothing new: the store already holds these reviews (nothing was written)")
    ungraded = sum(r.grade_points is None for r in reviews)
    if ungraded:
        no_pass = sum(r.passed is None for r in reviews)
        typer.echo(f"{ungraded} of them under a rubric without a grade table: raw points only, no grade points"
                   + (f", and {no_pass} without a pass (the rubric has no pass mark)" if no_pass else ""))  # fmt: skip


def corpus_validation(
    corpus: str, config: Path | None, judge_: list[str] | None, db: str | None, quiet: bool, models: Any = None
) -> tuple[dict[str, Any], bool]:
    """Judge the reviewed solutions of ``corpus`` with the configured judge and validate it against their reviews
    (``benger validate-judge CONFIG --db STORE --corpus NAME``; the code the workbench runs too:
    :func:`benger.analysis._validate_run.validate_on_corpus`). Returns (result, incomplete)."""
    from benger.analysis._validate_run import validate_on_corpus
    from benger.cli._execute import _config, _err
    from benger.pipeline import ProgressReporter
    from benger.store import open_store

    cfg = _config(config, judge=judge_, need=("judges",), models=models, calls=("judge",))
    cfg.resolved_rubrics()
    cfg.resolved_judges()
    store = open_store(db, create=False)
    try:
        reporter = ProgressReporter(_err(), enabled=not quiet)
        done = asyncio.run(validate_on_corpus(store, cfg, corpus, progress=reporter))
    finally:
        store.close()
    for sid, reason in sorted(done.unscored.items())[:5]:
        _err().print(f"unscored solution {sid}: {reason}")
    return done.result, done.incomplete


def register(app: typer.Typer) -> None:
    app.command(name="import-reviews")(import_reviews)


__all__ = ["EXIT_INCOMPLETE", "RubricOption", "corpus_rubrics", "corpus_validation", "import_reviews", "register"]
