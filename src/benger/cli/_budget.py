"""Know the cost first: the dry-run table (``--dry-run``, ``benger estimate``) and the budget caps
(``--max-cost``, ``--max-tokens``) of run/generate/judge; see docs/validate-judge.md."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated, Any

import typer

from benger.errors import ConfigError

DryRunOpt = Annotated[
    bool, typer.Option("--dry-run", help="Print what the run would do and cost (after resume); call nothing.")
]


def _cost_cap(value: float | None) -> float | None:
    """Callback of ``--max-cost``: a finite amount of USD, at least 0 (``nan``, ``inf``, ``1e400`` are no cap)."""
    if value is not None and not (math.isfinite(value) and value >= 0):
        raise typer.BadParameter(f"{value} is not an amount of USD: give a finite number >= 0")
    return value


MaxCostOpt = Annotated[
    float | None,
    typer.Option(
        "--max-cost", callback=_cost_cap, help="Stop before the run's calls could pass this cost (USD); exit 3."
    ),
]
MaxTokensOpt = Annotated[
    int | None,
    typer.Option("--max-tokens", min=1, help="Stop before the run's calls could pass this many tokens; exit 3."),
]


def _fmt(value: float | None, spec: str, unit: str = "") -> str:
    return "unknown" if value is None else f"{value:{spec}}{unit}"


_COST_LABELS = (("generate", "candidates"), ("judge", "judges"))


def print_estimate(estimate: Any) -> None:
    """The dry-run table: one row per stage and model, then candidate / judge / total cost."""
    from rich.table import Table

    table = Table(title=f"Dry run (after resume; concurrency {estimate.concurrency})")
    for col in ("stage", "model", "config", "calls", "input tok", "output tok", "time", "cost USD", "release cost",
                "too long", "tokens from", "output from"):  # fmt: skip
        table.add_column(col)
    for r in estimate.rows:
        table.add_row(
            r.stage,
            r.system,
            r.config_id,
            str(r.calls),
            f"{r.input_tokens:,}",
            f"{r.output_tokens:,}",
            _fmt(None if r.seconds is None else r.seconds / 60, ".1f", " min"),
            _fmt(r.cost_usd, ".4f"),
            _fmt(r.observed_cost_usd, ".4f"),
            _fmt(r.too_long, ","),
            r.token_source,
            r.output_source,
        )
    from benger.cli._execute import print_table

    print_table(table)  # piped: the table's natural width, not 80 squeezed columns
    stages = {r.stage for r in estimate.rows}  # a stage that is not part of this run has no cost, not 0
    parts = [f"{label} {_fmt(estimate.cost(stage), '.4f', ' USD')}" for stage, label in _COST_LABELS if stage in stages]
    parts.append(f"total {_fmt(estimate.cost(), '.4f', ' USD')}")
    from benger._console import console

    console(soft_wrap=True).print(f"cost: {', '.join(parts)} (unknown = a model without catalog prices)")
    unchecked = list(dict.fromkeys(r.system for r in estimate.rows if r.too_long is None and r.calls))
    if unchecked:
        console(soft_wrap=True).print(
            f"too long: unknown for {', '.join(unchecked)}: the context window is unknown, so prompt lengths "
            "cannot be checked (set context_window in the run config or catalog)"
        )


def budget_or_estimate(
    cfg: Any, db: str | None, stages: tuple[str, ...], dry_run: bool, max_cost: float | None, max_tokens: int | None
) -> Any:
    """For run/generate/judge: on ``--dry-run`` print the estimate and exit 0; with a cap return the
    ``BudgetGuard`` to run under (else None)."""
    from benger.pipeline._budget import BudgetGuard

    if dry_run:
        show_estimate(cfg, db, stages)
        raise typer.Exit(0)
    caps = getattr(cfg, "budget", None)  # the config's budget: section; an option on the command line wins
    if max_cost is None and caps is not None:
        max_cost = caps.max_cost
    if max_tokens is None and caps is not None:
        max_tokens = caps.max_tokens
    if max_cost is None and max_tokens is None:
        return None
    if max_cost is not None:
        _require_prices(cfg, stages)
    return BudgetGuard(max_cost=max_cost, max_tokens=max_tokens)


def _require_prices(cfg: Any, stages: tuple[str, ...]) -> None:
    """``--max-cost`` needs a price for every model the stages call: refuse before any call or store work.

    (The guard would refuse each call of an unpriced model, leave every item failed and say "budget cap
    reached", which no higher cap can cure.)
    """
    from benger.pipeline._estimate import _cost

    models = []
    if "generate" in stages:
        wanted = cfg.filters.systems
        models += [s for s in cfg.resolved_systems() if not wanted or s.name in wanted]
    if "judge" in stages:
        models += cfg.resolved_judges()
    unpriced = list(dict.fromkeys(m.name for m in models if _cost(m, 1, 1) is None))
    if unpriced:
        raise ConfigError(
            f"--max-cost needs prices, and {', '.join(unpriced)} {'has' if len(unpriced) == 1 else 'have'} none "
            "(price_in_per_mtok / price_out_per_mtok in the run config or the catalog): set them, or cap the run "
            "with --max-tokens instead"
        )


def show_estimate(cfg: Any, db: str | None, stages: tuple[str, ...], release: Path | None = None) -> Any:
    """Compute and print the estimate of ``cfg`` on the store ``db`` (release observations when given)."""
    import os

    from benger.pipeline._estimate import Observed, estimate_run

    if release is None and os.environ.get("BENGER_RELEASE"):
        release = Path(os.environ["BENGER_RELEASE"])
    observed = Observed.from_release(release) if release else None  # a bad release: before the store is touched
    store = estimate_store(db, cfg, stages)
    try:
        estimate = estimate_run(cfg, store, stages=stages, observed=observed)
    finally:
        if store is not None:
            store.close()
    print_estimate(estimate)
    print_key_needs(cfg, stages)
    return estimate


def print_key_needs(cfg: Any, stages: tuple[str, ...]) -> None:
    """After an estimate (which calls nothing, so needs no key): the API keys a real run of ``stages`` will need
    and that are not set, each with its system (``cli._execute.check_models``)."""
    from benger.cli._execute import check_models

    needs = check_models(cfg, stages, keys=False)
    if needs:
        from benger._console import console

        console(soft_wrap=True).print(f"API keys: not set here, a real run needs {'; '.join(needs)}")


def estimate_store(db: str | None, cfg: Any, stages: tuple[str, ...] = ("generate", "judge")) -> Any:
    """The store a dry run reads (``--dry-run``, ``benger estimate``: they "call nothing" and write nothing):
    None where no store is yet (a missing or 0-byte SQLite file: nothing is created), else the existing benger
    store, opened read-only (another program's database is refused, left as it is). An older store is not
    upgraded: the dry run says that the run would upgrade it and plans without it (None). A run of ``stages``
    that only consumes its store (``cli._execute.consumes_store``: judge) needs one: a missing or empty file is
    refused as the real run refuses it."""
    from benger.cli._execute import _preflight, consumes_store
    from benger.config import database_url
    from benger.store import open_store
    from benger.store._engine import pending_upgrade

    location = db if db is not None else cfg.db
    url = database_url(location)
    _preflight(cfg)
    path = Path(url[len("sqlite:///") :]) if url.startswith("sqlite:///") else None
    missing = path is not None and (not path.exists() or (path.is_file() and path.stat().st_size == 0))
    if missing and not consumes_store(stages):
        return None
    store = open_store(location, create=False, read_only=True)  # never upgraded: a run would upgrade it, not this
    older = pending_upgrade(store.engine)
    if older is None:
        return store
    store.close()  # its tables are those of an older schema: plan from the corpus sources, as without a store
    typer.echo(
        f"note: {path if path is not None else store.url}: the run would upgrade this store first (schema "
        f"{older[0]} -> {older[1]}); a dry run writes nothing, so this estimate counts none of the results it holds"
    )
    return None
