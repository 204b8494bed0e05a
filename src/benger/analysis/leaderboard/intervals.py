"""The leaderboard's intervals: a row's mean interval by method (``auto`` resolved per row), the Wilson
intervals of its pass rate and accuracy, and the board's CI sentence (:func:`ci_method`). Fewer than
``MIN_INTERVAL_N`` units give no interval; the unit is the task where a row has repetitions (``CiSettings.unit``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from benger.analysis.leaderboard.context import CiSettings, LeaderboardContext
from benger.analysis.leaderboard.model import RAW_SCALE
from benger.stats import (
    MIN_INTERVAL_N,
    NO_INTERVAL,
    bca_mean_cis,
    best_method,
    bootstrap_mean_cis,
    mean_ci,
    proportion_ci,
)
from benger.stats._mean_ci import describe

Interval = tuple[Any, Any, Any]  # low, high, the method used (None: no interval)
#: The Pass cell of a scored row none of whose judgements carries a pass value (``pass_note`` says why).
PASS_UNKNOWN = "pass unknown"


def pass_note(n: int, pass_n: int, rubric: str | None) -> str | None:
    """Why a scored row's pass rate is missing or covers only part of it; None where every scored generation has
    a pass value. The store derives a missing pass value only for the built-in rubrics whose rule it knows
    (:mod:`benger.store._pass`); for any other rubric the value stays unknown, never guessed."""
    if n == 0 or pass_n >= n:
        return None
    if pass_n == 0:
        return (
            f"{PASS_UNKNOWN}: the judgements under rubric {rubric or '–'} carry no pass value (a rubric without a "
            "pass rule, or judged before it had one) and benger knows no rule to derive one"
        )
    return f"pass rate over the {pass_n} of {n} scored generations that carry a pass value"


def resolved(method: str, n: int) -> str:
    """The method a row of ``n`` values gets: ``auto`` by simulated coverage (``best_method``), ``bootstrap`` is
    ``percentile``."""
    if method == "auto":
        return best_method(n)
    return "percentile" if method == "bootstrap" else method


def cis(rows: Sequence[list[float]], settings: CiSettings) -> list[Interval]:
    """The CI ends and method per row (``None`` ends for n < 3). The percentile and BCa rows share one seed, so
    rows of one size share their resample indices (``bootstrap_mean_cis`` / ``bca_mean_cis``: the same numbers as
    one ``bootstrap_mean_ci`` / ``bca_mean_ci`` per row)."""
    out: list[Interval] = [(None, None, None)] * len(rows)
    wanted = [k for k, scores in enumerate(rows) if len(scores) >= MIN_INTERVAL_N]
    kinds = {k: resolved(settings.method, len(rows[k])) for k in wanted}
    confidence = settings.confidence
    for kind, batched in (("percentile", bootstrap_mean_cis), ("bca", bca_mean_cis)):
        members = [k for k in wanted if kinds[k] == kind]
        values = [np.asarray(rows[k], dtype=float) for k in members]  # arrays skip the per-value missing check
        found = batched(values, confidence=confidence, n_resamples=settings.n_resamples, seed=settings.seed)
        for k, interval in zip(members, found, strict=True):
            out[k] = (interval.low, interval.high, kind)
    for k in wanted:
        if kinds[k] not in ("percentile", "bca"):
            interval, used = mean_ci(
                np.asarray(rows[k], dtype=float),
                kinds[k],
                confidence=confidence,
                n_resamples=settings.n_resamples,
                seed=settings.seed,
                bounds=RAW_SCALE,
            )
            out[k] = (interval.low, interval.high, used)
    return out


def proportion_cis(row: dict[str, Any], context: LeaderboardContext, answer_tasks: int) -> None:
    """Wilson intervals of the pass rate and the Ja/Nein accuracy, over tasks where a row has repetitions."""
    ci = context.ci
    for share, n, n_tasks, low, high in (
        (row["pass_rate"], row.pop("_pass_n"), row["tasks"], "pass_ci_low", "pass_ci_high"),
        (row["accuracy"], row["answer_items"], answer_tasks, "accuracy_ci_low", "accuracy_ci_high"),
    ):
        units = n_tasks if ci.unit == "task" and 0 < n_tasks < n else n
        if share is not None and units:
            interval = proportion_ci(share * units, units, confidence=ci.confidence)
            row[low], row[high] = interval.low, interval.high


def ci_method(ci: CiSettings) -> str:
    """The board's CI sentence: method (``auto``: which per n), resampling unit, and the n < 3 rule."""
    unit = (
        "resampling unit: the generation (the paper's rule)"
        if ci.unit == "generation"
        else "resampling unit: the task (a task's repetitions and judge repeats nested in it)"
    )
    tail = f"{unit}; rows with fewer than {MIN_INTERVAL_N} units: {NO_INTERVAL}"
    if ci.method == "auto":
        level = f"{100 * ci.confidence:g}%"
        return (
            f"{level} interval chosen per row by simulated coverage at its n (benger.stats.COVERAGE: the method "
            f"closest to 95 %; B = {ci.n_resamples}, seed {ci.seed} where resampled); {tail}"
        )
    named = describe(resolved(ci.method, 0), ci.confidence, ci.n_resamples, ci.seed)
    return f"{named.replace('the scale', '0–100')}; {tail}"
