"""``benger validate-judge``: can this judge stand in for a blind human reviewer on BenGER? (issue 13 §2).

Two ways to get the candidate's scores on the 45 released validation picks (30 human, 15 LLM, including the
LLM pick whose generation is in the superseded file):

* a judge configuration (run config with ``judges:`` or ``--judge NAME``): the picks are judged through the
  normal resumable path (``plan_judgements`` / ``run_judgements``) in a store that holds the release; a rerun
  judges only what is missing; ``--repeats k`` judges each pick k times (the mean is validated, the within-judge
  sd is reported);
* ``--recorded``: a "recorded judge" replays stored scores, either a judge of the release's
  ``creator_calibration_anchors.csv`` by the name a store gives it (``gpt-5.4-mini``, ``cfgB_opus``, as
  ``benger leaderboard --judge`` takes it; the file's own key ``gpt54mini`` too), a CSV file with columns
  ``solution_id,score``, or an inspect_ai log (``.eval``/``.json``) of the task ``benger/validation_picks``
  (:mod:`benger.interop.inspect_picks`).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from benger.cli._budget import print_estimate, print_key_needs, show_estimate
from benger.cli._options import (
    ConcOpt,
    ConfigArg,
    CorpusOpt,
    DbOption,
    JudgeModelArgOpt,
    JudgeModelBaseUrlOpt,
    JudgeModelOpt,
    JudgeOpt,
    ModelArgOpt,
    ModelBaseUrlOpt,
    ModelOpt,
    QuietOpt,
    SystemOpt,
    out_option,
)
from benger.errors import EXIT_INCOMPLETE, ConfigError, InputError, MissingDependencyError

ReleaseOpt = Annotated[
    Path | None,
    typer.Option("--release", envvar="BENGER_RELEASE", help="The official release folder (benger-release)."),
]


def _console(stderr: bool = False) -> Any:
    from benger._console import console

    return console(stderr=stderr, soft_wrap=True)


def recorded_scores(name: str, data: Any) -> tuple[dict[str, float], str, dict[str, Any]]:
    """Scores of a recorded judge: a judge key of the release's anchor file, a CSV file ``solution_id,score``
    (:func:`benger.analysis._validate_judge_scores.read_recorded_scores`) or an inspect log of
    ``benger/validation_picks`` (:func:`benger.interop.inspect_picks.read_pick_scores`).

    ``data``: the release's StudyData. Returns ``(pick id -> raw score, label, provenance)``; ``InputError``
    naming the file/line/field (or log sample) for bad input.
    """
    path = Path(name)
    if path.suffix.lower() == ".csv":
        import hashlib

        from benger.analysis._validate_judge_scores import read_recorded_scores

        scores = read_recorded_scores(path, picks=data.solutions)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]  # which file, exactly: its path and hash
        return scores, f"recorded ({path.name})", {"scores_file": f"{path.resolve()} (sha256 {digest})"}
    if path.suffix.lower() in (".eval", ".json"):  # an inspect log (benger.interop.inspect_picks.LOG_SUFFIXES)
        try:
            from benger.interop.inspect_picks import read_pick_scores
        except ImportError:
            raise MissingDependencyError("--recorded with an inspect log", "inspect", "inspect_ai") from None
        found = read_pick_scores(path, picks=data.solutions)
        return found.scores, found.label, found.provenance
    from benger.cli._checks import judge_listing
    from benger.judge._released import PAPER_JUDGE_NAMES

    stored = {PAPER_JUDGE_NAMES.get(key, key): key for key in data.judge_scores}  # the store's name -> file key
    key = stored.get(name, name)  # the file's own key (gpt54mini) still works
    if key not in data.judge_scores:
        raise InputError(
            f"--recorded {name!r}: not a judge of the release's anchor file ({judge_listing(sorted(stored))}), "
            "a .csv file nor an inspect log (.eval/.json)"
        )
    return dict(data.judge_scores[key]), f"recorded {data.judge_labels.get(key, key)} (release)", {}


def _store_validation(db: str | None, result: dict[str, Any], provenance: dict[str, Any]) -> None:
    """Saves the candidate's validation (``validation_record``) in the store, for its rows' judge status."""
    from benger.analysis._validate_run import store_validation
    from benger.cli._execute import _open

    store = _open(db)
    try:
        store_validation(store, result, provenance)
    finally:
        store.close()


def _write(result: dict[str, Any], markdown: str, out: Path | None) -> None:
    if out is None:
        return
    from benger.outputs import output_folder

    with output_folder(out, "validate-judge") as folder:
        folder.write_text("validate-judge.json", json.dumps(result, indent=2, default=str))
        folder.write_text("validate-judge.md", markdown)
    _console().print(f"wrote {out}/validate-judge.json, .md")


def _release(release: Path | None) -> Path:
    if release is None:
        raise ConfigError("name the official release folder with --release PATH (or BENGER_RELEASE)")
    from benger.cli._checks import require_folder

    return require_folder(release)


def validate_judge(
    config: ConfigArg = None,
    recorded: Annotated[
        str | None,
        typer.Option(
            "--recorded",
            help="Replay stored scores: a judge of the release (gpt-5.4-mini, cfgB_opus, ...), a CSV solution_id,score "
            "or an inspect log "
            "(.eval/.json) of benger/validation_picks.",
        ),
    ] = None,
    release: ReleaseOpt = None,
    db: DbOption = None,
    judge_: JudgeOpt = None,
    judge_model: JudgeModelOpt = None,
    judge_model_base_url: JudgeModelBaseUrlOpt = None,
    judge_model_arg: JudgeModelArgOpt = None,
    repeats: Annotated[
        int | None, typer.Option("--repeats", min=1, help="Judgements per pick (within-judge sd). [default: 1]")
    ] = None,
    concurrency: ConcOpt = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Judge only the first N picks (a quick check of a judge).")
    ] = None,
    quiet: QuietOpt = False,
    out: Annotated[Path | None, out_option("Write validate-judge.json/.md into this folder.")] = None,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Print what judging the picks would take and cost; call nothing.")
    ] = False,
    corpus: Annotated[
        str | None,
        typer.Option(
            "--corpus",
            help="Validate against the human reviews of this corpus of the store (your own "
            "reviews: benger import-reviews, or a finished study) instead of the release's.",
        ),
    ] = None,
) -> None:
    """Validate a judge (config, --judge, or --recorded scores) on the 45 released picks against the 180 human
    reviews, beside the paper's six judges: agreement, kappa, calibration offset, ICC(2,k) placement, alt-test."""
    from benger.analysis._data import StudyData
    from benger.analysis._validate_judge import to_markdown
    from benger.analysis._validate_run import release_result
    from benger.cli._execute import ModelOptions

    models = ModelOptions(judge_model=judge_model, judge_base_url=judge_model_base_url, judge_args=judge_model_arg)
    if corpus is not None:
        if recorded is not None or release is not None or dry_run or repeats is not None:
            raise ConfigError("--corpus validates a judge configuration (CONFIG / --judge) on your own reviews; "
                              "--recorded, --release, --repeats and --dry-run do not apply")  # fmt: skip
        from benger.cli._reviews import corpus_validation

        result, incomplete = corpus_validation(corpus, config, judge_, db, quiet, models)
        markdown = to_markdown(result)
        _console().print(markdown)
        _write(result, markdown, out)
        if incomplete:
            raise typer.Exit(EXIT_INCOMPLETE)
        return
    if recorded is not None:  # options that only apply to judging would be silently ignored
        if config is not None or judge_ or judge_model:
            raise ConfigError("give either --recorded or a judge configuration (CONFIG / --judge), not both")
        judging = [
            flag
            for flag, value in (("--repeats", repeats), ("--concurrency", concurrency), ("--limit", limit))
            if value is not None
        ]
        judging += ["--dry-run"] if dry_run else []
        if judging:
            raise ConfigError(
                f"--recorded replays stored scores and judges nothing, so {', '.join(judging)} would be ignored: "
                "give them with a judge configuration (CONFIG / --judge)"
            )
    path = _release(release)
    data = StudyData.from_release(path)
    provenance: dict[str, Any] = {"release": str(path)}
    incomplete = False
    if recorded is not None:
        scores, label, recorded_from = recorded_scores(recorded, data)
        provenance["judge"] = label
        provenance.update(recorded_from)
    else:
        scores, label, judged, incomplete = _judge_release(
            data, path, config, judge_, db, repeats or 1, concurrency, quiet, dry_run, models, limit
        )
        provenance.update(judged)
    result = release_result(data, scores, label, provenance)
    if "judge_config_hash" in provenance:  # a judge configuration was judged into a store: keep the verdict there
        _store_validation(db, result, provenance)
    markdown = to_markdown(result)
    _console().print(markdown)
    _write(result, markdown, out)
    if incomplete:
        _console(stderr=True).print(
            f"incomplete: {provenance.get('scored', '?')} of {provenance.get('picks', '?')} picks scored "
            f"({provenance.get('unscored', 0)} unscored); run the same command again to judge the rest (exit code "
            f"{EXIT_INCOMPLETE})"
        )
        raise typer.Exit(EXIT_INCOMPLETE)


def _judge_release(
    data: Any,
    path: Path,
    config: Path | None,
    judge_: list[str] | None,
    db: str | None,
    repeats: int,
    concurrency: int | None,
    quiet: bool,
    dry_run: bool = False,
    models: Any = None,
    limit: int | None = None,
) -> tuple[dict[str, float], str, dict[str, Any], bool]:
    """Judge the picks with the configured judge (importing the release into the store once); returns
    (mean score per pick, label, provenance, incomplete)."""
    from benger.analysis._validate_run import judge_release, release_targets
    from benger.cli._execute import _config, _err, _open
    from benger.pipeline import ProgressReporter

    cfg = _config(
        config,
        judge=judge_,
        repeats=repeats,
        concurrency=concurrency,
        need=("judges",),
        models=models,
        calls=("judge",),
        dry_run=dry_run,
    )
    if config is not None and repeats == 1:
        cfg = cfg.model_copy(update={"repeats": 1})
    # the judge is resolved before the store is opened: an unknown name must leave no store behind and no
    # release imported into it (a config without judges is refused by _config)
    cfg.resolved_judges()
    if dry_run:
        _estimate_release(cfg, db, data, path, limit)
        raise typer.Exit(0)
    store = _open(db, cfg)
    try:
        targets = release_targets(store, data, path, limit=limit, say=_err().print)
        reporter = ProgressReporter(_err(), enabled=not quiet)
        scores, label, provenance, incomplete, stats, unscored = asyncio.run(
            judge_release(store, cfg, targets, progress=reporter)
        )
    finally:
        store.close()
    for key, message in stats.errors[:5]:
        _err().print(f"error {key}: {message}")
    for sid, reason in sorted(unscored.items())[:5]:
        _err().print(f"unscored pick {sid}: {reason}")
    return scores, label, provenance, incomplete


def _estimate_release(cfg: Any, db: str | None, data: Any, path: Path, limit: int | None) -> None:
    """``validate-judge --dry-run``: the estimate of judging the picks, which writes nothing (as every dry run:
    ``cli._budget.estimate_store``, the store ``db`` names opened read-only, none created). Where that store does
    not hold the release yet (or is no store yet, or an older one), the picks' prompts are read from a scratch
    store in a temporary folder that the release is imported into, removed afterwards: the real run would
    import the release, judge every pick, and nothing of it is judged yet."""
    import tempfile

    from benger.analysis._validate_run import pick_targets, release_targets
    from benger.cli._budget import estimate_store
    from benger.cli._execute import _err
    from benger.pipeline._estimate import Observed, estimate_judging
    from benger.store import open_store

    observed = Observed.from_release(path)
    store = estimate_store(db, cfg, ("generate", "judge"))  # a missing store is no refusal: the run creates it
    human = next(t[1] for t in pick_targets(data) if t[0] == "human_solution")
    try:
        if store is not None and store.get_human_solution(human) is not None:
            targets = release_targets(store, data, path, limit=limit)  # imports nothing: the release is there
            print_estimate(estimate_judging(cfg, store, targets, observed=observed))
        else:
            _err().print(f"the run would import the release {path} into the store first (a dry run writes nothing)")
            with tempfile.TemporaryDirectory(prefix="benger-dry-run-") as folder:
                scratch = open_store(Path(folder) / "release.db")
                try:
                    targets = release_targets(scratch, data, path, limit=limit)
                    print_estimate(estimate_judging(cfg, scratch, targets, observed=observed))
                finally:
                    scratch.close()
    finally:
        if store is not None:
            store.close()
    print_key_needs(cfg, ("judge",))


def estimate(
    config: ConfigArg = None,
    db: DbOption = None,
    corpus: CorpusOpt = None,
    system: SystemOpt = None,
    judge_: JudgeOpt = None,
    model: ModelOpt = None,
    model_base_url: ModelBaseUrlOpt = None,
    model_arg: ModelArgOpt = None,
    judge_model: JudgeModelOpt = None,
    judge_model_base_url: JudgeModelBaseUrlOpt = None,
    judge_model_arg: JudgeModelArgOpt = None,
    release: ReleaseOpt = None,
    stage: Annotated[str, typer.Option("--stage", help="run (generate + judge), generate or judge.")] = "run",
    out: Annotated[Path | None, out_option("Write estimate.json into this folder.")] = None,
) -> None:
    """Dry run of a run config: items left after resume, input/output tokens, time and cost (candidate and
    judge apart; unknown prices stay unknown). The same table as `benger run CONFIG --dry-run` when both see the
    same release: --release (or BENGER_RELEASE, which --dry-run reads) takes output lengths from the release's
    observed generations, else each call is counted at max_output_tokens."""
    from benger.cli._execute import ModelOptions, _config

    stages = {"run": ("generate", "judge"), "generate": ("generate",), "judge": ("judge",)}.get(stage)
    if stages is None:
        raise ConfigError(f"--stage {stage!r}: expected run, generate or judge")
    need = {"run": ("systems",), "generate": ("systems",), "judge": ("judges",)}[stage] + ("corpora",)
    models = ModelOptions(model, model_base_url, model_arg, judge_model, judge_model_base_url, judge_model_arg)
    cfg = _config(
        config, corpus=corpus, system=system, judge=judge_, need=need, models=models, calls=stages, dry_run=True
    )
    result = show_estimate(cfg, db, stages, release)
    if out is not None:
        from benger.outputs import output_folder

        with output_folder(out, "estimate") as folder:
            folder.write_text("estimate.json", json.dumps(result.as_dict(), indent=2))


def register(app: typer.Typer) -> None:
    app.command(name="validate-judge")(validate_judge)
    app.command(name="estimate")(estimate)
