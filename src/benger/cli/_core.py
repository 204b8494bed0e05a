"""Core commands: run, generate, judge, import, corpora (and demo: ``cli._demo``; leaderboard: ``cli._leaderboard``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from benger.cli import _options as opt
from benger.cli._budget import DryRunOpt, MaxCostOpt, MaxTokensOpt, budget_or_estimate
from benger.cli._checks import check_corpus_name
from benger.cli._demo import demo
from benger.cli._execute import (
    ModelOptions,
    _config,
    _err,
    _execute,
    _execute_ranked,
    _execute_then,
    _exit_if_incomplete,
    _open,
    _out,
    _show,
)
from benger.cli._options import (
    ConcOpt,
    ConfigArg,
    CorpusOpt,
    DbOption,
    ExecOpt,
    JudgeOpt,
    LimitOpt,
    OutOpt,
    QuietOpt,
    SystemOpt,
    TasksOpt,
    ThreadsOpt,
)
from benger.errors import ConfigError, InputError


def run(
    config: ConfigArg = None,
    db: DbOption = None,
    corpus: CorpusOpt = None,
    system: SystemOpt = None,
    judge_: JudgeOpt = None,
    model: opt.ModelOpt = None,
    model_base_url: opt.ModelBaseUrlOpt = None,
    model_arg: opt.ModelArgOpt = None,
    judge_model: opt.JudgeModelOpt = None,
    judge_model_base_url: opt.JudgeModelBaseUrlOpt = None,
    judge_model_arg: opt.JudgeModelArgOpt = None,
    tasks: TasksOpt = None,
    limit: LimitOpt = None,
    concurrency: ConcOpt = None,
    executor: ExecOpt = None,
    quiet: QuietOpt = False,
    out: OutOpt = None,
    dry_run: DryRunOpt = False,
    max_cost: MaxCostOpt = None,
    max_tokens: MaxTokensOpt = None,
    threads: ThreadsOpt = None,
) -> None:
    """Generate, judge and print the leaderboard of a run config (or of --model/--judge-model); reruns resume."""
    cfg = _config(
        config,
        corpus=corpus,
        system=system,
        judge=judge_,
        tasks=tasks,
        limit=limit,
        concurrency=concurrency,
        executor=executor,
        need=("corpora", "systems"),
        models=ModelOptions(model, model_base_url, model_arg, judge_model, judge_model_base_url, judge_model_arg),
        calls=("generate", "judge"),
        dry_run=dry_run,
    )
    guard = budget_or_estimate(cfg, db, ("generate", "judge"), dry_run, max_cost, max_tokens)
    result, board = _execute_ranked(cfg, db, quiet, guard)
    _show(board, out)
    _exit_if_incomplete(result)


def generate(
    config: ConfigArg = None,
    db: DbOption = None,
    corpus: CorpusOpt = None,
    system: SystemOpt = None,
    tasks: TasksOpt = None,
    limit: LimitOpt = None,
    repetitions: Annotated[int | None, typer.Option("--repetitions", min=1, help="Runs per system and task.")] = None,
    model: opt.ModelOpt = None,
    model_base_url: opt.ModelBaseUrlOpt = None,
    model_arg: opt.ModelArgOpt = None,
    concurrency: ConcOpt = None,
    executor: ExecOpt = None,
    quiet: QuietOpt = False,
    dry_run: DryRunOpt = False,
    max_cost: MaxCostOpt = None,
    max_tokens: MaxTokensOpt = None,
    threads: ThreadsOpt = None,
) -> None:
    """Generate outputs: skips finished items (ok/excluded), retries failed ones, saves each as it arrives."""
    cfg = _config(
        config,
        corpus=corpus,
        system=system,
        tasks=tasks,
        limit=limit,
        concurrency=concurrency,
        executor=executor,
        repetitions=repetitions,
        need=("corpora", "systems"),
        models=ModelOptions(model, model_base_url, model_arg),
        calls=("generate",),
        dry_run=dry_run,
    )
    guard = budget_or_estimate(cfg, db, ("generate",), dry_run, max_cost, max_tokens)
    _exit_if_incomplete(_execute(cfg, db, ("generate",), quiet, guard))


def judge(
    config: ConfigArg = None,
    db: DbOption = None,
    corpus: CorpusOpt = None,
    system: SystemOpt = None,
    judge_: JudgeOpt = None,
    tasks: TasksOpt = None,
    limit: LimitOpt = None,
    repeats: Annotated[int | None, typer.Option("--repeats", min=1, help="Judgements per target and judge.")] = None,
    human: Annotated[bool, typer.Option("--human-solutions", help="Also judge the stored human solutions.")] = False,
    judge_model: opt.JudgeModelOpt = None,
    judge_model_base_url: opt.JudgeModelBaseUrlOpt = None,
    judge_model_arg: opt.JudgeModelArgOpt = None,
    concurrency: ConcOpt = None,
    executor: ExecOpt = None,
    quiet: QuietOpt = False,
    dry_run: DryRunOpt = False,
    max_cost: MaxCostOpt = None,
    max_tokens: MaxTokensOpt = None,
    threads: ThreadsOpt = None,
) -> None:
    """Judge stored generations (of --system, else all) blind with a rubric; unparseable replies are stored unscored."""
    cfg = _config(
        config,
        corpus=corpus,
        system=system,
        judge=judge_,
        tasks=tasks,
        limit=limit,
        concurrency=concurrency,
        executor=executor,
        repeats=repeats,
        need=("corpora", "judges"),
        models=ModelOptions(judge_model=judge_model, judge_base_url=judge_model_base_url, judge_args=judge_model_arg),
        calls=("judge",),
        dry_run=dry_run,
    )
    if human:
        cfg.judge_human_solutions = True
    guard = budget_or_estimate(cfg, db, ("judge",), dry_run, max_cost, max_tokens)
    from benger.cli._judging import nothing_to_judge

    hint = lambda store, _cfg, result: nothing_to_judge(store, result, config, db)  # noqa: E731
    result, nothing = _execute_then(cfg, db, ("judge",), quiet, guard, hint)
    if nothing:
        _err().print(nothing)
    _exit_if_incomplete(result)


@contextmanager
def _named_source(source: str) -> Iterator[None]:
    """A value the store refuses (too long for its column, a NUL in an id) is reported with the imported file
    or release folder it came from: the store knows the field and the value, not the file."""
    try:
        yield
    except InputError as exc:
        if exc.file is not None:
            raise
        raise InputError(exc.reason, file=source, line=exc.line, field=exc.field, record=exc.record) from exc


def import_(
    source: Annotated[
        str,
        typer.Argument(
            help="'release:PATH', 'zjs:PATH', a .jsonl/.csv corpus file, 'demo', 'hf DIR' (a Hugging Face datasets "
            "folder) or 'inspect LOG' (an inspect_ai log)."
        ),
    ],
    path: Annotated[
        str | None,
        typer.Argument(metavar="[PATH]", help="The folder of 'hf' or the log of 'inspect'.", show_default=False),
    ] = None,
    db: DbOption = None,
    replace: Annotated[
        bool,
        typer.Option("--replace", help="Replace a stored corpus of the same name (prints what is removed)."),
    ] = False,
    as_name: Annotated[
        str | None,
        typer.Option("--as", help="Import the corpus under this name (one-corpus sources; inspect: the system name)."),
    ] = None,
    map_: Annotated[
        list[str] | None,
        typer.Option("--map", metavar="COLUMN=FIELD", help="hf: read this column as this corpus field (repeatable)."),
    ] = None,
    split: Annotated[str | None, typer.Option("--split", help="hf: import only this split of the folder.")] = None,
) -> None:
    """Import corpora (or the whole official release: tasks, human solutions, reviews) into the store.

    A corpus name already in the store with other tasks is refused unless --replace or --as NAME is given.
    A task is (corpus, task id): a file may reuse another corpus's task ids, and they stay separate tasks.
    Each import is one transaction: all or nothing.
    """
    from benger.cli._interop import import_interop, print_import_counts, split_source
    from benger.corpora import resolve_corpus_source
    from benger.store._corpora import renamed

    interop = split_source(source, path)
    if interop is not None:  # hf DIR, inspect LOG: cli._interop
        import_interop(*interop, db, replace=replace, as_name=as_name, mapping=map_, split=split)
        return
    if map_ or split:
        raise ConfigError("--map and --split are for 'benger import hf DIR'")
    if as_name is not None and source.startswith("release:"):
        raise ConfigError("--as names one corpus; the release holds two (benchathon, grundprinzipien)")
    # read and validate the source first: a bad file must not create (or touch) the store
    if source.startswith("release:"):
        from benger.corpora import load_release

        folder = source.partition(":")[2].strip()
        if not folder:  # "" would be read as "." and reported as "." is no release
            raise InputError("release: needs a path, e.g. release:../benger-release", field="source")
        release = load_release(folder)
        store = _open(db)
        try:
            with _named_source(folder):
                counts = store.import_release(release, replace=replace)
        finally:
            store.close()
        print_import_counts(counts, "this release")
        return
    loaded = resolve_corpus_source(source)
    if as_name is not None:
        if len(loaded) != 1:
            raise ConfigError(f"--as names one corpus; {source!r} holds {len(loaded)}")
        loaded = [renamed(loaded[0], as_name)]
    for corpus in loaded:  # the name from --as or the file's stem
        check_corpus_name(corpus.name, None if as_name is not None else source)
    store = _open(db)
    try:
        with _named_source(source):
            changes = store.add_corpora(loaded, replace=replace)
        for change in changes:
            what = {"added": "imported", "unchanged": "unchanged", "replaced": "replaced"}[change.action]
            _out().print(f"{what} corpus {change.corpus}: {change.tasks} tasks")
            if change.action == "replaced":
                _out().print(f"  removed {change.removed()}")
    finally:
        store.close()


def corpora(db: DbOption = None) -> None:
    """List the corpora in the store and the built-in demo corpora.

    Without --db (and BENGER_DB) and no ./benger.db yet, only the built-in corpora are listed; a --db (or
    BENGER_DB) that names no store is refused.
    """
    import os

    from rich.table import Table

    from benger.config import DB_ENV, DEFAULT_DB_FILE
    from benger.corpora import DEMO_NAMES
    from benger.store import open_store

    table = Table(title="Corpora")
    for col in ("Corpus", "Where", "Tasks"):
        table.add_column(col)
    names: list[str] = []
    if db is not None or os.environ.get(DB_ENV) or Path(DEFAULT_DB_FILE).exists():
        store = open_store(db, create=False)
        try:
            names = store.corpus_names()
            for name in names:
                table.add_row(name, "store", str(len(store.load_corpus(name).tasks)))
        finally:
            store.close()
    for name in DEMO_NAMES:
        if name not in names:
            table.add_row(name, "built-in (benger import demo)", "–")
    _out().print(table)


def register(app: typer.Typer) -> None:
    from benger.cli import _leaderboard  # its own module: ``benger leaderboard`` builds no other command

    before: list[tuple[str, Callable[..., None]]] = [("run", run), ("generate", generate), ("judge", judge)]
    after: list[tuple[str, Callable[..., None]]] = [("import", import_), ("corpora", corpora), ("demo", demo)]
    for name, command in before:
        app.command(name=name)(command)
    _leaderboard.register(app)
    for name, command in after:
        app.command(name=name)(command)
