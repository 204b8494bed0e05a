"""Shared helpers of the CLI commands: consoles, the run config from a file and/or options, the store, running
the pipeline stages with progress, printing the leaderboard and the exit code of an incomplete run.

Used by ``cli._core`` (run/generate/judge/leaderboard/demo), ``cli._demo`` (the release demo) and
``cli._validate`` (validate-judge, estimate); it imports none of them, so the command modules form no cycle.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import typer
from rich.console import Console

from benger._console import console as new_console
from benger.errors import EXIT_INCOMPLETE, ConfigError, InputError


def _out() -> Console:
    console = new_console()
    # piped output: do not squeeze the leaderboard into 80 columns
    return console if console.is_terminal else new_console(width=max(console.width, 160))


def _err() -> Console:
    return new_console(stderr=True, soft_wrap=True)  # one message per line when piped (no wrap at 80)


def _config(
    path: Path | None,
    *,
    corpus: list[str] | None = None,
    system: list[str] | None = None,
    judge: list[str] | None = None,
    tasks: str | None = None,
    limit: int | None = None,
    concurrency: int | None = None,
    executor: str | None = None,
    repeats: int | None = None,
    repetitions: int | None = None,
    need: tuple[str, ...] = (),
    models: Any = None,
    calls: tuple[str, ...] = (),
    dry_run: bool = False,
) -> Any:
    """A RunConfig from a YAML file and/or command-line options (options win); ``models``: the
    :class:`ModelOptions` of ``--model`` / ``--judge-model``; ``calls``: the stages ("generate", "judge") whose
    models the command would call, checked here (:func:`check_models`), before any store work, whether the
    command then calls them or only estimates (``dry_run``: ``--dry-run``, ``estimate``, which call nothing and
    so need no API key)."""
    from benger.cli._workers import register_celery_executor
    from benger.pipeline import RunConfig, load_run_config

    register_celery_executor()
    cli_systems, cli_judges = (models or ModelOptions()).specs()
    if path is not None:
        config = load_run_config(path)
    else:
        if "systems" in need and not system and not cli_systems:
            raise ConfigError("name at least one --system or --model (or pass a run config)")
        if "judges" in need and not judge and not cli_judges:
            raise ConfigError("name at least one --judge or --judge-model (or pass a run config)")
        config = RunConfig(
            corpora=corpus or ["demo"],
            systems=[*(system or []), *cli_systems],
            judges=[*(judge or []), *cli_judges],
        )
    updates: dict[str, Any] = {}
    if path is not None and corpus:
        updates["corpora"] = corpus
    if path is not None and (judge or cli_judges):
        updates["judges"] = [*(judge or []), *cli_judges]
    if path is not None and cli_systems:
        updates["systems"] = cli_systems
    if concurrency is not None:
        updates["concurrency"] = concurrency
    if executor is not None:
        updates["executor"] = executor
    if repeats is not None:
        updates["repeats"] = repeats
    if repetitions is not None:
        updates["repetitions"] = repetitions
    filters = config.filters.model_copy()
    if tasks:
        filters.tasks = [t.strip() for t in tasks.split(",") if t.strip()]
    if limit is not None:
        filters.limit = limit
    if path is not None and system:
        filters.systems = list(system)
    updates["filters"] = filters
    new = config.model_copy(update=updates)
    new.source = config.source
    if cli_systems or cli_judges:  # checked as a config file's entries are, before anything runs
        new.resolved_systems()
        new.resolved_judges()
    # a config file without them would do nothing and exit 0 (with a config, --judge replaces its judges while
    # --system only filters its systems)
    sections = (
        ("corpora", "add one under corpora:, e.g. corpora: [demo]"),
        ("systems", "add one under systems:"),
        ("judges", "add one under judges: or pass --judge"),
    )
    for section, advice in sections:
        if section in need and not getattr(new, section):
            raise InputError(f"nothing to run: no {section} ({advice})", file=path, field=section)
    if new.executor not in ("local", "celery"):
        raise ConfigError(f"unknown executor {new.executor!r}; expected 'local' or 'celery'")
    check_models(new, calls, keys=not dry_run)
    return new


@dataclass
class ModelOptions:
    """``--model`` / ``--model-base-url`` / ``-M`` and the same for ``--judge-model`` (cli._options)."""

    model: list[str] | None = None
    base_url: str | None = None
    args: list[str] | None = None
    judge_model: list[str] | None = None
    judge_base_url: str | None = None
    judge_args: list[str] | None = None

    def specs(self) -> tuple[list[Any], list[Any]]:
        """The run-config entries of the systems and the judges named on the command line."""
        from benger.pipeline._config import model_spec

        for flag, value, owner in (
            ("--model-base-url", self.base_url, self.model),
            ("-M", self.args, self.model),
            ("--judge-model-base-url", self.judge_base_url, self.judge_model),
            ("--judge-model-arg", self.judge_args, self.judge_model),
        ):
            if value and not owner:
                raise ConfigError(
                    f"{flag} sets a model named with --{'judge-' if 'judge' in flag else ''}model: name one"
                )
        systems = [model_spec(m, base_url=self.base_url, args=self.args) for m in self.model or []]
        judges = [
            model_spec(m, base_url=self.judge_base_url, args=self.judge_args, judge=True, option="--judge-model")
            for m in self.judge_model or []
        ]
        return systems, judges


#: SQLite files this process created by opening a store: the CLI boundary removes those still empty when the
#: command fails (:func:`discard_new_empty_stores`), so a refused input leaves no store file behind
_NEW_STORES: list[Path] = []


def _preflight(config: Any) -> None:
    """Everything a run reads besides its store, checked before the store is opened (issue 32, item 5): the
    settings of the chosen executor (``BENGER_VISIBILITY_TIMEOUT``, the broker URL, ...)."""
    if config is not None and getattr(config, "executor", "local") == "celery":
        from benger.workers._settings import check_settings

        check_settings()


def consumes_store(stages: tuple[str, ...]) -> bool:
    """Whether a run of ``stages`` only consumes what its store holds (judge: the stored generations), so its
    store must exist as a reader's must (``open_store(create=False)``), in the real run and the dry run alike
    (``judge --db typo.db`` created a store and exited 0 with "nothing to judge": 2026-12-04 attack, item 4)."""
    return "generate" not in stages


def _open(db: str | None, config: Any = None, *, loads_corpora: bool = False, create: bool = True) -> Any:
    """The store of a command (``db``, else the run config's ``db``), opened only after everything else the
    command reads is validated (:func:`_preflight`). For a command that loads the config's corpora into the
    store (``loads_corpora``: run, generate, judge, estimate), a store that does not exist yet is created only
    after the corpus sources are read: a missing or bad corpus file is reported without leaving an empty new
    store behind (an existing store may hold corpora by name; the run checks those). ``create=False``: the
    store must exist already (:func:`consumes_store`)."""
    from benger.config import database_url
    from benger.store import open_store

    location = db if db is not None else (config.db if config is not None else None)
    url = database_url(location)
    _preflight(config)
    path = Path(url[len("sqlite:///") :]) if url.startswith("sqlite:///") else None
    new_file = path is not None and not path.exists()
    if loads_corpora and config is not None and new_file:
        from benger.corpora import resolve_corpus_source

        for spec in config.corpora:
            resolve_corpus_source(spec)
    store = open_store(location, create=create)
    if new_file and path is not None:
        _NEW_STORES.append(path)
    return store


def discard_new_empty_stores() -> None:
    """Remove the SQLite stores this command created that hold no row (only the schema): called by the CLI
    boundary when a command fails, so that a refused input (an unknown task in a release, ...) leaves nothing."""
    import sqlite3

    while _NEW_STORES:
        path = _NEW_STORES.pop()
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
                tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
                rows = any(
                    conn.execute(f'SELECT 1 FROM "{t}" LIMIT 1').fetchone()
                    for t in tables
                    if t != "alembic_version" and not t.startswith("sqlite_") and "_fts" not in t  # FTS: its config
                )
            conn.close()
        except sqlite3.Error:
            continue
        if not rows:
            for suffix in ("", "-wal", "-shm", "-journal"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)


def _execute(config: Any, db: str | None, stages: tuple[str, ...], quiet: bool, guard: Any = None) -> Any:
    """Run the pipeline ``stages`` ("generate", "judge") of ``config`` on the store; returns the RunResult."""
    return _execute_then(config, db, stages, quiet, guard, None)[0]


def _execute_ranked(config: Any, db: str | None, quiet: bool, guard: Any = None) -> tuple[Any, Any]:
    """Generate, judge, then the leaderboard of the run on the same store: (RunResult, Leaderboard)."""
    return _execute_then(config, db, ("generate", "judge"), quiet, guard, run_leaderboard)


def run_leaderboard(store: Any, config: Any, result: Any) -> Any:
    """The leaderboard of a finished run: its corpora, its systems, the config's ``leaderboard`` options
    (``judges``, else the run's judges, else every judge in the store; ``ci``, ``seed``, ``n_resamples``)."""
    from benger.analysis import leaderboard_from_store

    options = config.leaderboard
    return leaderboard_from_store(
        store,
        corpora=result.corpora,
        systems=result.systems,
        judges=options.judges or (result.judges or None),
        ci=options.ci,
        seed=options.seed,
        n_resamples=options.n_resamples,
    )


def _execute_then(
    config: Any,
    db: str | None,
    stages: tuple[str, ...],
    quiet: bool,
    guard: Any,
    then: Callable[[Any, Any, Any], Any] | None,
) -> tuple[Any, Any]:
    """(RunResult, ``then(store, config, result)`` or None): ``then`` runs on the open store after the run."""
    import asyncio
    import contextlib

    from benger.cli._reasons import failure_reasons
    from benger.pipeline import ProgressReporter, run_config
    from benger.pipeline._budget import guarded_factory

    store = _open(db, config, loads_corpora=True, create=not consumes_store(stages))
    reporter = ProgressReporter(_err(), enabled=not quiet)
    factory = guarded_factory(config, guard) if guard is not None else None
    refused = 0
    try:
        with guard.bound(store) if guard is not None else contextlib.nullcontext():
            result = asyncio.run(run_config(config, store, stages=stages, progress=reporter, model_factory=factory))
            refused = guard.refused if guard is not None else 0
        extra = then(store, config, result) if then is not None else None
        reasons = [] if result.complete else failure_reasons(store, result)  # cli._reasons
    except KeyboardInterrupt:
        _err().print("interrupted: every finished item is saved; run the same command again to continue")
        raise typer.Exit(130) from None
    finally:
        store.close()
    if refused:
        _err().print(f"budget cap reached: {refused} call(s) not made; rerun with a higher cap to continue")
    for stats in (result.generation, result.judgement):
        if stats is not None and stats.errors:
            for key, message in stats.errors[:5]:
                _err().print(f"error {key}: {message}")
            _err().print(f"{len(stats.errors)} item(s) failed with an error (see above)")
    for line in reasons:
        _err().print(line)
    return result, extra


def check_models(config: Any, stages: tuple[str, ...], *, keys: bool = True) -> list[str]:
    """Build (and drop) the model of every system and judge the stages will call, before any call or store
    write: an unknown provider, a missing SDK or base URL is one configuration error (exit 2) named once, not a
    failure of every item with "run the same command again". Called by :func:`_config` for every command that
    calls or estimates models (run, generate, judge, estimate, validate-judge, their ``--dry-run``), so all of
    them refuse alike. Local models were checked when the config was loaded (``llm.system_problem``); building
    one would assemble its GGUF.

    A missing API key (:class:`MissingKeyError`): with ``keys`` (a real run) one ConfigError naming every such
    system and its variable; without (an estimate, which calls nothing) the returned list says what a real run
    will need (``"OPENAI_API_KEY (system 'gpt-5.4', openai, model gpt-5.4)"``; empty when nothing is missing)."""
    from benger.errors import MissingKeyError
    from benger.llm import create_model

    systems = config.resolved_systems() if "generate" in stages else []
    if config.filters.systems:
        systems = [s for s in systems if s.name in config.filters.systems]
    found: dict[str, MissingKeyError] = {}  # by what it needs: a model that is system and judge is named once
    for system in [*systems, *(config.resolved_judges() if "judge" in stages else [])]:
        if system.provider != "local":
            try:
                create_model(system)
            except MissingKeyError as exc:
                found.setdefault(exc.need, exc)
    missing = list(found.values())
    if keys and len(missing) == 1:
        raise missing[0]
    if keys and missing:
        raise ConfigError(
            f"{len(missing)} systems need an API key: set the environment variables "
            + "; ".join(m.need for m in missing)
        )
    return [m.need for m in missing]


def _exit_if_incomplete(result: Any) -> None:
    """Exit with EXIT_INCOMPLETE (3) unless every unit of the run has a usable result (docs/cli.md, "Exit
    codes"): units failed, unscored or not yet run (a rerun continues them) and excluded generations (final:
    refused, short, malformed, ...) are counted on stderr."""
    if result.complete:
        return
    left = ", ".join(f"{stage} {n}" for stage, n in result.remaining.items() if n)
    if left:
        _err().print(
            f"incomplete: items failed or remain ({left}); run the same command again to continue "
            f"(exit code {EXIT_INCOMPLETE})"
        )
    excluded = getattr(result, "excluded", {}) or {}
    if excluded:
        detail = ", ".join(f"{n} {why}" for why, n in sorted(excluded.items()))
        _err().print(
            f"incomplete: {sum(excluded.values())} generation(s) excluded without a usable result ({detail}); "
            f"final, a rerun does not redo them (exit code {EXIT_INCOMPLETE})"
        )
    raise typer.Exit(EXIT_INCOMPLETE)


#: The width of a piped console (the most characters a piped table's line gets).
PIPED_WIDTH = 1000


def print_table(table: Any) -> None:
    """Print a rich table (not expanded: every caller's) on stdout. Piped (not a terminal) it gets its natural
    width, at most :data:`PIPED_WIDTH` characters: a reader or a pager then sees one line per row, no cell
    wrapped. A table that is not expanded takes its natural width of a wider console and collapses its columns
    only beyond it, so the piped console is simply that wide and the table is laid out once (measuring it first,
    to size the console, laid it out three times: ~0.02 CPU-s of ``benger leaderboard``; issue 26)."""
    console = new_console()
    if not console.is_terminal:
        console = new_console(width=PIPED_WIDTH)
    console.print(table)


def _show(board: Any, out: Path | None) -> None:
    print_table(board.to_rich())
    if out is not None:
        from benger.outputs import output_folder

        with output_folder(out, "leaderboard") as folder:
            folder.write_text("leaderboard.csv", board.to_csv())
            folder.write_text("leaderboard.md", board.to_markdown())
            folder.write_text("leaderboard.json", board.to_json())
        _out().print(f"wrote {out}/leaderboard.csv, .md, .json")
