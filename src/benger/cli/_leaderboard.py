"""``benger leaderboard``: the leaderboard of a store, read through SQLAlchemy Core (``benger.store.open_reader``).

Its own module, so that the command builds no other command and imports no stage (issue 26: ``benger
leaderboard`` on an 8k store took 1.2 CPU-s, 0.03 s of it SQL; ``tests/cli/test_lazy_imports.py`` lists what it
must not load, ``benchmarks/bench_startup.py`` times it).
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Literal

import typer

from benger.cli._checks import refuse_unknown, refuse_unknown_judges
from benger.cli._execute import _err, _show
from benger.cli._options import CorpusOpt, DbOption, JudgeOpt, OutOpt, SystemOpt, resamples_option, seed_option
from benger.errors import ConfigError, InputError

#: The values of ``--ci`` (``benger.analysis.leaderboard.CiKind``'s, which a test compares; not imported here: the
#: command's module loads no model), taken in any case (``--ci BCA`` is ``bca``).
CiChoice = Literal["auto", "bootstrap", "percentile", "bca", "t", "normal"]

#: OpenBLAS reads its thread count here when numpy and scipy load it (each has its own copy).
BLAS_THREADS = "OPENBLAS_NUM_THREADS"


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Inside the block, OpenBLAS loads with one thread unless the user set ``OPENBLAS_NUM_THREADS``; the
    environment is restored at the exit. Each OpenBLAS (numpy's, scipy's) starts a worker thread per core when
    loaded, which spins for ~40 ms CPU on a 2-core machine (issue 26); the leaderboard's statistics call no BLAS
    routine (gathers, sums and percentiles), so its numbers are the same. A library loaded before the block
    keeps its threads."""
    before = os.environ.get(BLAS_THREADS)
    if before is None:
        os.environ[BLAS_THREADS] = "1"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(BLAS_THREADS, None)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Inside the block Python's cyclic garbage collector does not run; at the exit it runs again (unless it was
    off before). The command's imports (SQLAlchemy, numpy, pydantic's models) build ~75k long-lived objects, and
    every few hundred allocations a collection traversed them again: ~200 collections, 0.07 CPU-s of
    ``benger leaderboard`` on an 8k store, collecting ~1,000 objects (issue 26). The command's data (its rows are
    tuples, its resamples numpy arrays) is freed by reference counting, so its peak memory stays the same."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def leaderboard(
    db: DbOption = None,
    corpus: CorpusOpt = None,
    system: SystemOpt = None,
    judge_: JudgeOpt = None,
    ci: Annotated[
        CiChoice,
        typer.Option(
            "--ci",
            case_sensitive=False,
            help="auto (per row the method whose simulated coverage is closest to 95 % at its n), percentile "
            "(bootstrap; 'bootstrap' is its old name), bca, t, or normal (z·sd/√n, clipped to 0–100).",
        ),
    ] = "auto",
    seed: Annotated[int, seed_option()] = 0,
    resamples: Annotated[int, resamples_option()] = 2000,
    pool_judges: Annotated[
        bool,
        typer.Option(
            "--pool-judges",
            help="Rank every judge together (per generation: mean of each judge's repeat mean). "
            "Default: one ranking per judge configuration, judges never mixed. Not with --judge.",
        ),
    ] = False,
    include_superseded: Annotated[
        bool,
        typer.Option(
            "--include-superseded/--exclude-superseded",
            help="Count superseded generations (the release's April runs) in their system's row, as the paper's "
            "Table 1 does (default), or leave them out as the release's manuscript does.",
        ),
    ] = True,
    metric_signature: Annotated[
        list[str] | None,
        typer.Option(
            "--metric-signature",
            metavar="METRIC=SIGNATURE",
            help="Use this signature of a metric (repeatable). Default: each metric's most frequent signature.",
        ),
    ] = None,
    out: OutOpt = None,
) -> None:
    """Print the leaderboard (system configuration x judge x corpus, ranked per judge) and optionally export
    CSV/Markdown/JSON with each row's provenance."""
    with one_blas_thread(), gc_paused():
        _leaderboard(db, corpus, system, judge_, ci, seed, resamples, pool_judges, include_superseded,
                     metric_signature, out)  # fmt: skip


def _leaderboard(
    db: str | None,
    corpus: list[str] | None,
    system: list[str] | None,
    judge_: list[str] | None,
    ci: str,
    seed: int,
    resamples: int,
    pool_judges: bool,
    include_superseded: bool,
    metric_signature: list[str] | None,
    out: Path | None,
) -> None:
    from benger.analysis import leaderboard_from_store
    from benger.store import open_reader  # Core reads only: no ORM, no write paths (issue 26)
    from benger.store._aggregate_items import judge_names

    if pool_judges and judge_:
        raise typer.BadParameter(
            "--judge ranks one judge's scores, --pool-judges mixes every judge (the footer could not name one "
            "judge configuration): give one or the other",
            param_hint="'--pool-judges'",
        )
    signatures: dict[str, str] = {}
    for item in metric_signature or []:
        metric, sep, signature = item.partition("=")
        if not sep or not metric or not signature:
            raise ConfigError(f"--metric-signature takes METRIC=SIGNATURE, not {item!r}")
        if signatures.get(metric, signature) != signature:  # the last one would silently win
            raise ConfigError(f"--metric-signature names two signatures of {metric}: {signatures[metric]!r} and "
                              f"{signature!r}; give one")  # fmt: skip
        signatures[metric] = signature
    store = open_reader(db)
    try:
        refuse_unknown(corpus, store.corpus_names(), "corpus", "--corpus", "stored corpora")
        if judge_:
            refuse_unknown_judges(judge_, judge_names(store))
        board = leaderboard_from_store(
            store,
            corpora=corpus or None,
            systems=system or None,
            judges=judge_ or None,
            ci=ci,
            seed=seed,
            n_resamples=resamples,
            metric_signatures=signatures or None,
            pool_judges=pool_judges,
            include_superseded=include_superseded,
        )
        # each --system must select rows: a typo in one of several would be silently ignored, and the table
        # shows labels (Opus-4.7), not the names --system takes (claude-opus-4-7)
        ranked = {r.system for r in board.rows}
        stored_systems = sorted({s.name for s in store.systems()} | ranked) if system else []
        hint = "--system takes the name, not the label the table shows; stored systems"
        refuse_unknown(system, stored_systems, "system", "--system", hint)
        aliases = board.system_aliases  # a name given for a configuration made under another name
        idle = [name for name in system or [] if name not in ranked and not ranked & set(aliases.get(name, []))]
        if idle and ranked:
            raise InputError(f"no generation of {', '.join(idle)} in the selected corpora", field="--system")
    finally:
        store.close()
    if not board.rows and (corpus or system):
        raise InputError("the --corpus/--system filters select no generation", field="--corpus/--system")
    absent = [j for j in judge_ or [] if not any(r.judge == j for r in board.rows)]
    if absent:  # each --judge, not only all of them: a typo in one would be silently ignored
        raise InputError(f"no judgement by {', '.join(absent)} in the selected rows", field="--judge")
    if not board.rows:  # an empty table alone reads like a broken command
        _err().print(
            "nothing to rank: the store holds no generation yet (benger run/generate CONFIG, or benger import "
            "release:PATH for the paper's systems)"
        )
    _show(board, out)


def register(app: typer.Typer) -> None:
    app.command(name="leaderboard")(leaderboard)
