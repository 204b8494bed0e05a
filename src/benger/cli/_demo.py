"""``benger demo`` and ``benger demo --release PATH``: the README's main job on real released items (issue 13 §4).

The embedded Qwen2.5-Coder-0.5B model answers a balanced sample of real Grundprinzipien items (Ja/Nein accuracy
against the gold labels), writes and judges the two Benchathon cases that are cheapest to judge together with
their validation picks, is placed beside the paper's 12 systems in the one leaderboard (its own judge section: not
comparable with the paper's GPT-5.4-mini rows), and the embedded judge is validated on those cases' real picks
(human and LLM) against the blind reviews, beside the paper's six judges. Sample sizes:
``benger.pipeline._demo`` (DEMO_GP_ITEMS, DEMO_CASES, DEMO_PICKS_PER_CASE).
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from pathlib import Path
from typing import Annotated, Any

import typer

from benger.cli._checks import require_folder
from benger.cli._options import LimitOpt, OutOpt, QuietOpt, ThreadsOpt
from benger.errors import EXIT_INCOMPLETE


def run_release_demo(release: Path, db: str, quiet: bool, out: Path | None, limit: int | None) -> None:
    """Run the release demo into the store ``db``; prints the leaderboard and the judge validation."""
    from rich.table import Table

    from benger.analysis import leaderboard_from_store
    from benger.analysis._data import StudyData
    from benger.analysis._validate_judge import HEADER, table_rows, validate_judge, validation_record
    from benger.analysis._validate_run import judge_picks, picks_judge_key
    from benger.cli._execute import _err, _execute, _open, _out, _show
    from benger.corpora import load_release
    from benger.llm import load_catalog
    from benger.pipeline import ProgressReporter, RunConfig
    from benger.pipeline._demo import DEMO_CASES, DEMO_GP_ITEMS, DEMO_MODEL, release_demo_config, release_demo_plan
    from benger.pipeline._fit import token_counter

    start = time.monotonic()
    data = load_release(release)
    count, _ = token_counter(load_catalog().system(DEMO_MODEL))
    n_gp, n_cases = (DEMO_GP_ITEMS, DEMO_CASES) if limit is None else (limit, min(limit, DEMO_CASES))
    plan = release_demo_plan(data, count, n_gp=n_gp, n_cases=n_cases)
    cfg = release_demo_config(plan)
    store = _open(db)
    try:
        if store.get_task(plan["cases"][0], "benchathon") is None:
            _err().print(f"importing the release {release} into {db} (once)")
            store.import_release(data)
    finally:
        store.close()
    all_picks = [pick for picks in plan["picks"].values() for pick in picks]
    kinds = Counter("LLM" if kind == "generation" else "human" for kind, _ in all_picks)
    picks_label = " and ".join(f"{n} {kind}" for kind, n in sorted(kinds.items(), key=lambda kv: kv[0] != "human"))
    _err().print(
        f"benger demo on the release: {DEMO_MODEL} answers {len(plan['gp'])} Grundprinzipien items and "
        f"{len(plan['cases'])} Benchathon case(s), judges them, and after each case judges its validation picks "
        f"({picks_label} in all; contexts from the prompts: system {plan['n_ctx_system']}, judge "
        f"{plan['n_ctx_judge']} tokens)"
    )

    def part(tasks: list[str]) -> RunConfig:
        return cfg.model_copy(update={"filters": cfg.filters.model_copy(update={"tasks": tasks})})

    # Grundprinzipien first, then each case followed by its picks: llama.cpp evaluates the shared
    # rubric + Sachverhalt + Musterlösung prefix of a case once for its judgement and its picks
    results = [_execute(part(plan["gp"]), db, ("generate", "judge"), quiet)]
    judge_cfg = cfg.model_copy(update={"systems": [], "filters": cfg.filters.model_copy()})
    reporter = ProgressReporter(_err(), enabled=not quiet)
    per_pick: dict[str, list[float]] = {}
    unscored: dict[str, str] = {}
    errors: list[Any] = []
    for case in plan["cases"]:
        results.append(_execute(part([case]), db, ("generate", "judge"), quiet))
        targets = [(kind, sid, "falloesung") for kind, sid in plan["picks"][case]]
        store = _open(db)
        try:
            stats, pick_scores, missed, judge = asyncio.run(judge_picks(store, judge_cfg, targets, progress=reporter))
        finally:
            store.close()
        per_pick.update(pick_scores)
        unscored.update(missed)
        errors += stats.errors
    study = StudyData.from_release(release)
    scores = {sid: sum(v) / len(v) for sid, v in per_pick.items()}
    report = validate_judge(
        study, scores, label=f"{judge.name} [{judge.config_hash()[:8]}]", provenance={"release": str(release)}
    )
    judge_hash, rubric_id = picks_judge_key(judge_cfg, judge)
    record = validation_record(report, judge=judge.name, judge_config_hash=judge_hash, rubric_id=rubric_id)
    store = _open(db)
    try:  # the validation first: the leaderboard names the demo judge's status on its rows
        store.save_judge_validation(record)
        board = leaderboard_from_store(store, corpora=["benchathon", "grundprinzipien"], ci="normal")
    finally:
        store.close()
    _show(board, out)
    _out().print(
        f"The local system is ranked only within its own judge ({cfg.resolved_judges()[0].name}): not "
        "comparable with the paper's rows, which GPT-5.4-mini judged."
    )
    table = Table(title=f"Judge validation on {len(scores)} real picks ({picks_label}; paper judges: all 45 picks)")
    for col in HEADER:
        table.add_column(col)
    for row in table_rows(report):
        table.add_row(*row)
    _out().print(table)
    if unscored:
        _out().print(f"{len(unscored)} pick(s) unscored by the demo judge (left out, never 0)")
    _out().print(
        f"demo finished in {(time.monotonic() - start) / 60:.1f} min; a 0.5B judge on {len(scores)} picks is an "
        "illustration: see `benger validate-judge` for the full 45-pick validation"
    )
    if not all(r.complete for r in results) or errors or len(per_pick) + len(unscored) < len(all_picks):
        _err().print(f"incomplete: rerun the same command to continue (exit code {EXIT_INCOMPLETE})")
        raise typer.Exit(EXIT_INCOMPLETE)


def demo(
    db: Annotated[
        str, typer.Option("--db", envvar="BENGER_DEMO_DB", help="Store for the demo run.")
    ] = "benger-demo.db",
    limit: LimitOpt = None,
    quiet: QuietOpt = False,
    out: OutOpt = None,
    release: Annotated[
        Path | None,
        typer.Option("--release", envvar="BENGER_RELEASE", help="Use real items of the official release folder."),
    ] = None,
    threads: ThreadsOpt = None,
) -> None:
    """Run the embedded Qwen2.5-Coder-0.5B model as system and judge (real release items with --release, else the
    built-in demo corpus); print the leaderboard."""
    from benger.cli._execute import _err, _execute_ranked, _exit_if_incomplete, _show
    from benger.pipeline._demo import DEMO_MODEL, demo_config

    if release is not None:
        require_folder(release)
        run_release_demo(release, db, quiet, out, limit)
        return
    cfg = demo_config(limit=limit)
    _err().print(
        "benger demo: no release given (--release PATH or BENGER_RELEASE), so the built-in demo corpus written "
        f"by us is used; local model {DEMO_MODEL} as system and judge (store {db}); this takes a few "
        "minutes on a laptop CPU"
    )
    result, board = _execute_ranked(cfg, db, quiet)
    _show(board, out)
    _exit_if_incomplete(result)
