"""Figure 1 of the paper: mean judge raw score per group (traditional, co-creation, pooled AI, flagship AI) with
95% bootstrap intervals, read from the ``rq4`` block through its model (:class:`CoCreation`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from benger.analysis.results._models import CoCreation
from benger.report._figures import _COLORS, _STYLE, _save
from benger.report._fmt import num, provenance
from benger.report._model import Figure, Missing

FIG_ID = "fig_rq4_groups"
_TITLE = "Co-creation vs traditional vs AI (Figure 1)"
_GROUPS = (
    ("traditional", "Traditional", _COLORS[0]),
    ("co_creation", "Co-creation", _COLORS[2]),
    ("pooled", "AI (pooled)", _COLORS[1]),
    ("flagship", "AI (flagship)", _COLORS[3]),
)


@dataclass(frozen=True)
class GroupBar:
    """One bar: ``label``, ``n``, ``mean``, ``low``, ``high`` (raw 0-100; the 95% interval of the mean)."""

    key: str
    label: str
    n: int
    mean: float
    low: float
    high: float


def rq4_group_bars(rq4: CoCreation) -> tuple[list[GroupBar], str, str | None]:
    """The four bars of Figure 1 from the ``rq4`` block, the human population they describe, and a reason if any.

    Human arms come from ``rq4.judge.arms`` (every human solution judged) or else ``rq4.judge_picks.arms`` (the
    validation picks only: the population note says so); AI bars from ``rq4.ai``. Returns ``([], "", reason)``
    when any bar lacks a mean or either interval bound: the figure is skipped, never drawn with an empty bar.
    """
    effect, population = rq4.judge, "all human solutions"
    if effect is None and rq4.judge_picks is not None:
        effect = rq4.judge_picks
        population = "validation picks only (" + (rq4.reason or "the judge scored only these") + ")"
    if effect is None or not effect.arms:
        return [], "", "rq4 has no per-arm judge means with intervals" + (f" ({rq4.reason})" if rq4.reason else "")
    rows = {**effect.arms, **rq4.ai}
    bars, lacking = [], []
    for key, label, _ in _GROUPS:
        row = rows.get(key)
        mean, low, high, n = (num(row.mean), num(row.low), num(row.high), num(row.n)) if row else (None,) * 4
        if mean is None or low is None or high is None or n is None:
            lacking.append(label)
            continue
        bars.append(GroupBar(key, label, int(n), mean, low, high))
    if lacking:
        return [], "", "no mean with a 95% interval in rq4 for: " + ", ".join(lacking)
    return bars, population, None


def draw_rq4_groups(bars: list[GroupBar]) -> Any:
    """Vertical bars of ``bars`` (means) with asymmetric error bars (low, high); returns the matplotlib Figure."""
    colors = {k: c for k, _, c in _GROUPS}
    fig, ax = plt.subplots(figsize=(4.8, 3.4))
    x = list(range(len(bars)))
    err = [[b.mean - b.low for b in bars], [b.high - b.mean for b in bars]]
    ax.bar(
        x,
        [b.mean for b in bars],
        0.6,
        yerr=err,
        color=[colors[b.key] for b in bars],
        alpha=0.85,
        capsize=3,
        error_kw={"elinewidth": 0.8},
    )
    ax.set_xticks(x, [f"{b.label}\nn={b.n}" for b in bars])
    ax.set_ylim(0, 100)
    ax.set_ylabel("judge raw score (0-100)")
    ax.axhline(50, color="grey", lw=0.6, ls=":")
    return fig


def rq4_groups_figure(rq4: CoCreation, out_dir: Path) -> Figure | Missing:
    """Figure 1 written as ``figures/rq4_groups.{png,svg}``, or a :class:`Missing` with the reason."""
    bars, population, reason = rq4_group_bars(rq4)
    if reason is not None:
        return Missing(FIG_ID, _TITLE, reason)
    with plt.rc_context(_STYLE):
        fig = draw_rq4_groups(bars)
        path_png, path_svg = _save(fig, out_dir, FIG_ID[4:])
    inputs, method = provenance(rq4)
    return Figure(
        FIG_ID,
        _TITLE,
        path_png,
        path_svg,
        caption="Mean primary-judge raw score per group on Benchathon; whiskers: 95% percentile bootstrap CI of "
        f"each group's mean. Human groups: {population}. AI bars pool per-generation scores of all evaluated "
        "systems (pooled) and of the closed-flagship tier (flagship); dotted line: pass threshold (50 raw).",
        inputs=inputs,
        method=method,
    )
