"""``benger import-reviews`` (your own blind/creator reviews from CSV/JSONL) and ``validate-judge --corpus`` (a judge
against those reviews, or against the reviews of a finished study on the platform, with the same table as against
the paper's; docs/own-study.md)."""

from __future__ import annotations

import asyncio
import dataclasses
import statistics
from pathlib import Path
from typing import Annotated, Any

import typer

from benger.cli._options import DbOption
from benger.errors import EXIT_INCOMPLETE, InputError

#: The least a validation needs: reviewed solutions with a judge score, and distinct blind reviewers.
MIN_PICKS = 3
MIN_BLIND_REVIEWERS = 2


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
    from benger.config import require_existing_store
    from benger.corpora._reviews import load_reviews_file
    from benger.pipeline._corpus_rubrics import corpus_rubrics as kept_rubrics
    from benger.store import open_store

    rubrics = corpus_rubrics(rubric)
    store = open_store(require_existing_store(db))
    try:
        rubrics = kept_rubrics(store, store.corpus_names(), rubrics)
        reviews = load_reviews_file(source, store, rubrics=rubrics)
        store.add_human_reviews(reviews)
    finally:
        store.close()
    roles = {role: sum(r.role == role for r in reviews) for role in ("blind", "creator")}
    solutions = len({r.target_id for r in reviews})
    reviewers = len({r.grader_id for r in reviews})
    typer.echo(f"imported {len(reviews)} reviews ({roles['blind']} blind, {roles['creator']} creator) of "
               f"{solutions} solutions by {reviewers} reviewers")  # fmt: skip
    ungraded = sum(r.grade_points is None for r in reviews)
    if ungraded:
        no_pass = sum(r.passed is None for r in reviews)
        typer.echo(f"{ungraded} of them under a rubric without a grade table: raw points only, no grade points"
                   + (f", and {no_pass} without a pass (the rubric has no pass mark)" if no_pass else ""))  # fmt: skip


def corpus_validation(
    corpus: str, config: Path | None, judge_: list[str] | None, db: str | None, quiet: bool, models: Any = None
) -> tuple[dict[str, Any], bool]:
    """Judge the reviewed solutions of ``corpus`` with the configured judge and validate it against their reviews
    (``benger validate-judge CONFIG --db STORE --corpus NAME``). Returns (result, incomplete)."""
    from benger.analysis._data import StudyData
    from benger.analysis._percent import PERCENT_SCALE, as_percent, percent
    from benger.analysis._validate_judge import validate_judge
    from benger.cli._execute import _config, _err
    from benger.cli._judging import judge_picks
    from benger.config import require_existing_store
    from benger.pipeline import ProgressReporter, rubric_for_task
    from benger.pipeline._corpus_rubrics import corpus_rubrics as kept_rubrics
    from benger.store import open_store

    cfg = _config(config, judge=judge_, need=("judges",), models=models, calls=("judge",))
    rubrics = cfg.resolved_rubrics()
    cfg.resolved_judges()
    store = open_store(require_existing_store(db))
    try:
        if corpus not in store.corpus_names():
            raise InputError(f"no corpus named {corpus!r} in the store (its corpora: "
                             f"{', '.join(store.corpus_names()) or 'none'})", field="--corpus")  # fmt: skip
        rubrics = kept_rubrics(store, [corpus], rubrics, option="rubrics:")
        data = StudyData.from_store(store, corpus=corpus, rubrics=rubrics)
        _enough(corpus, data)
        targets, totals = [], {}
        for sid, sol in sorted(data.solutions.items()):
            kind = "generation" if sol.pool == "llm" else "human_solution"
            owner = store.get_generation_by_id(sid) if kind == "generation" else store.get_human_solution(sid)
            task = store.get_task(owner.task_id, owner.corpus) if owner is not None else None
            if task is None:
                raise InputError(f"reviewed solution {sid!r} or its task is not in the store", field="--corpus")
            rubric = rubric_for_task(task, rubrics)
            targets.append((kind, sid, rubric))
            totals[sid] = rubric.max_total
        reporter = ProgressReporter(_err(), enabled=not quiet)
        stats, per_pick, unscored, judge = asyncio.run(judge_picks(store, cfg, targets, progress=reporter))
    finally:
        store.close()
    for sid, reason in sorted(unscored.items())[:5]:
        _err().print(f"unscored solution {sid}: {reason}")
    scores = {sid: percent(statistics.fmean(v), totals[sid]) for sid, v in per_pick.items()}
    # one rule with analyze's RQ5 (benger.analysis._percent); the judge's scores are the fresh ones above
    on_percent = dataclasses.replace(as_percent(data, totals), judge_scores={})
    provenance = {
        "corpus": corpus,
        "judge": judge.name,
        "judge_config": judge.config_hash()[:8],
        "rubrics": ", ".join(sorted({t[2].id for t in targets})),
        "scale": PERCENT_SCALE,
        "unscored": len(unscored),
    }
    try:
        result = validate_judge(on_percent, scores, label=f"{judge.name} [{judge.config_hash()[:8]}]",
                                provenance=provenance, paper_judges=())  # fmt: skip
    except ValueError as exc:
        raise InputError(str(exc)) from None
    incomplete = len(per_pick) + len(unscored) < len(targets) or bool(stats.errors)
    return result, incomplete


def _enough(corpus: str, data: Any) -> None:
    """Refuse, with the reason, a corpus whose reviews cannot support the validation table."""
    blind = {r.grader for r in data.reviews if r.role == "blind"}
    reviewed = {r.solution_id for r in data.reviews if r.role == "blind"}
    if len(reviewed) < MIN_PICKS:
        raise InputError(
            f"corpus {corpus!r} has blind reviews of {len(reviewed)} solution(s); validating a judge needs at least "
            f"{MIN_PICKS} (correlations, kappa and the alt-test are undefined below that). Import reviews with "
            "`benger import-reviews FILE --db STORE` or finish a study on the platform",
            field="--corpus",
        )
    if len(blind) < MIN_BLIND_REVIEWERS:
        raise InputError(
            f"corpus {corpus!r} has {len(blind)} blind reviewer(s); the blind pool, the ICC and the alt-test need at "
            f"least {MIN_BLIND_REVIEWERS}",
            field="--corpus",
        )


def register(app: typer.Typer) -> None:
    app.command(name="import-reviews")(import_reviews)


__all__ = ["EXIT_INCOMPLETE", "RubricOption", "corpus_rubrics", "corpus_validation", "import_reviews", "register"]
