"""Figures (matplotlib, Agg backend), each written as PNG and SVG from its validated results.json block."""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure as MplFigure
from matplotlib.transforms import Bbox
from scipy import stats as sps

from benger.analysis._percent import RAW
from benger.analysis.results._models import CorpusCell, Leaderboard, LeaderboardRow, Meta, MetricValidity, TaskSystem
from benger.analysis.results._models_rq5 import Calibration, PerDimension
from benger.outputs import atomic_write_bytes
from benger.report._fmt import judge_label, num, pool_label, provenance
from benger.report._heatmap_fig import draw_heatmap, heatmap_grid
from benger.report._model import Figure, Missing
from benger.report._tables import rq3_sources
from benger.report._tables_agreement import scale_note
from benger.report._tables_calibration import per_dimension_pools

_STYLE: Any = {
    "svg.hashsalt": "benger",
    "svg.fonttype": "path",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
}
_COLORS = ("#1f5f8b", "#d1742b", "#4a8c3f", "#8c3f6e")


def _pool_color(pool: str, k: int) -> str:
    """The same colour for a pool in every figure (human blue, LLM orange)."""
    return {"human": _COLORS[0], "llm": _COLORS[1]}.get(pool, _COLORS[(k + 2) % len(_COLORS)])


def _tight_bbox(fig: MplFigure, dpi: float) -> Bbox:
    """The box ``savefig(bbox_inches="tight", dpi=dpi)`` crops a raster image to (inches, padded by
    ``savefig.pad_inches``): one layout pass with drawing disabled, as savefig does it for the PNG."""
    original = fig.dpi
    fig.dpi = dpi
    try:
        renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]  # Agg canvas
        with renderer._draw_disabled():
            fig.draw(renderer)
        return fig.get_tightbbox(renderer).padded(plt.rcParams["savefig.pad_inches"])
    finally:
        fig.dpi = original


def _save(fig: MplFigure, out_dir: Path, fid: str) -> tuple[str, str]:
    """Write ``figures/<fid>.png`` (150 dpi) and ``.svg`` cropped to one tight box, the PNG's (the layout pass that
    finds it is as costly as drawing, so it runs once, not once per format; the SVG's own box would differ by a
    few hundredths of an inch of text-metric rounding)."""
    paths = []
    bbox = _tight_bbox(fig, 150)
    for ext in ("png", "svg"):
        buf = io.BytesIO()
        kwargs: dict[str, Any] = {"dpi": 150} if ext == "png" else {}
        meta = {"Software": "benger"} if ext == "png" else {"Date": None, "Creator": "benger"}
        fig.savefig(buf, format=ext, bbox_inches=bbox, metadata=meta, **kwargs)
        rel = f"figures/{fid}.{ext}"
        atomic_write_bytes(out_dir / rel, buf.getvalue())
        paths.append(rel)
    plt.close(fig)
    return paths[0], paths[1]


def _err(est: Any, low: Any, high: Any) -> tuple[float, float, float]:
    e, lo, hi = num(est), num(low), num(high)
    if e is None:
        return math.nan, 0.0, 0.0
    return e, (e - lo) if lo is not None else 0.0, (hi - e) if hi is not None else 0.0


def _cell(r: LeaderboardRow, key: str) -> CorpusCell | None:
    return {"bench": r.bench, "zjs": r.zjs, "gp": r.gp}[key]


def leaderboard_figure(lb: Leaderboard, out_dir: Path) -> Figure | Missing:
    """Horizontal bars of the per-system mean raw score with 95% CI error bars, one panel per corpus."""
    rows = lb.rows
    title = "Leaderboard with 95% confidence intervals"
    if not rows:
        return Missing("fig_leaderboard", title, "results.json has no rq1.leaderboard rows")

    def has(r: LeaderboardRow, k: str) -> bool:
        c = _cell(r, k)
        return c is not None and num(c.raw) is not None

    panels = [
        (k, n)
        for k, n in (("bench", "Benchathon"), ("zjs", "ZJS"), ("gp", "Grundprinzipien"))
        if any(has(r, k) for r in rows)
    ]
    rows = [r for r in rows if any(has(r, k) for k, _ in panels)]
    if not panels:
        return Missing("fig_leaderboard", title, "no per-corpus means in rq1.leaderboard")
    with plt.rc_context(_STYLE):
        fig, axes = plt.subplots(
            1, len(panels), figsize=(3.6 * len(panels) + 1.4, 0.28 * len(rows) + 1.2), sharey=True, squeeze=False
        )
        labels = [r.display or r.system for r in rows]
        y = np.arange(len(rows))
        for ax, (key, name) in zip(axes[0], panels, strict=True):
            cells = [_cell(r, key) for r in rows]
            vals = [(math.nan, 0.0, 0.0) if c is None else _err(c.raw, c.low, c.high) for c in cells]
            est = np.array([v[0] for v in vals])
            err = np.array([[v[1] for v in vals], [v[2] for v in vals]])
            colors = [_COLORS[1] if r.kind == "human" else _COLORS[0] for r in rows]
            ax.barh(y, np.nan_to_num(est), xerr=err, color=colors, alpha=0.85, capsize=2, error_kw={"elinewidth": 0.8})
            ax.set_title(name)
            if lb.unit in (None, RAW):
                ax.set_xlim(0, 100)
                ax.set_xlabel("judge raw score (0-100)")
                ax.axvline(50, color="grey", lw=0.6, ls=":")
            else:  # a user's own rubric: its own scale, and no pass line of the paper's
                ax.set_xlim(0, None)
                ax.set_xlabel(f"judge {lb.unit}", wrap=True)
        axes[0][0].set_yticks(y, labels)
        axes[0][0].invert_yaxis()
        path_png, path_svg = _save(fig, out_dir, "leaderboard")
    inputs, method = provenance(lb)
    return Figure(
        "fig_leaderboard",
        title,
        path_png,
        path_svg,
        caption="Mean LLM-judge raw score per system (blue)"
        + (" and human group (orange)" if any(r.kind == "human" for r in rows) else "")
        + "; whiskers: 95% CI; dotted line: pass threshold (50 raw ≈ 4 grade points).",
        inputs=inputs,
        method=method,
    )


def heatmap_figure(ts: TaskSystem | None, out_dir: Path) -> Figure | Missing:
    """Task x system heatmap of the judge's raw score (Benchathon), systems by mean, tasks grouped by area."""
    title = "Benchathon task × system heatmap"
    if ts is None or not ts.values:
        return Missing("fig_task_system_heatmap", title, "results.json has no rq1.task_system matrix")
    grid = heatmap_grid(ts)
    with plt.rc_context(_STYLE):
        fig = draw_heatmap(grid)
        path_png, path_svg = _save(fig, out_dir, "task_system_heatmap")
    inputs, method = provenance(ts)
    return Figure(
        "fig_task_system_heatmap",
        title,
        path_png,
        path_svg,
        caption="Per-cell mean judge raw score; rows: systems by overall mean (top = highest); "
        "columns: tasks grouped by legal area; blank: no scored generation" + (f"; {grid.note}." if grid.note else "."),
        inputs=inputs,
        method=method,
    )


def metric_figure(rq3: MetricValidity, out_dir: Path) -> Figure | Missing:
    """Bars of Pearson and Spearman correlation between each metric and the judge, one panel per source."""
    sources = rq3_sources(rq3)
    title = "Automatic metrics vs LLM judge"
    if not sources:
        return Missing("fig_metric_judge_correlation", title, "results.json has no rq3 correlations")
    with plt.rc_context(_STYLE):
        fig, axes = plt.subplots(1, len(sources), figsize=(3.2 * len(sources) + 0.6, 3.4), sharey=True, squeeze=False)
        order = list(dict.fromkeys(m for _, b in sources for m in b.metrics))
        for ax, (name, b) in zip(axes[0], sources, strict=True):
            metrics = [m for m in order if m in b.metrics]
            x = np.arange(len(metrics))
            cells = [b.metrics[m] for m in metrics]
            series = (("Pearson r", [num(c.pearson) for c in cells]), ("Spearman ρ", [num(c.spearman) for c in cells]))
            for k, (lab, v) in enumerate(series):
                ax.bar(
                    x + (k - 0.5) * 0.38, [math.nan if z is None else z for z in v], 0.38, label=lab, color=_COLORS[k]
                )
            ax.set_xticks(x, metrics, rotation=45, ha="right")
            ax.set_title(name)
            ax.axhline(0, color="black", lw=0.6)
            ax.set_ylim(-1, 1)
        axes[0][0].set_ylabel("correlation with judge raw score")
        axes[0][0].legend(loc="lower left", frameon=False)
        path_png, path_svg = _save(fig, out_dir, "metric_judge_correlation")
    ins, meths = zip(*(provenance(b) for _, b in sources), strict=True)
    return Figure(
        "fig_metric_judge_correlation",
        title,
        path_png,
        path_svg,
        caption="Per-generation and per-system correlations of each automatic metric with the judge.",
        inputs="; ".join(dict.fromkeys(i for i in ins if i)),
        method="; ".join(dict.fromkeys(m for m in meths if m)),
    )


def calibration_figure(cal: Calibration, meta: Meta, out_dir: Path) -> Figure | Missing:
    """Direct offset (judge − mean blind) per judge and pool with a t-based 95% CI."""
    title = "Judge calibration: offset to the blind pool"
    if not cal.rows:
        return Missing("fig_judge_calibration", title, "results.json has no rq5.calibration rows")
    pools = list(dict.fromkeys(str(r.pool) for r in cal.rows))
    judges = list(dict.fromkeys(str(r.judge) for r in cal.rows))
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(6.4, 0.42 * len(judges) + 1.3))
        for k, pool in enumerate(pools):
            for i, judge in enumerate(judges):
                r = next((r for r in cal.rows if r.pool == pool and str(r.judge) == judge), None)
                m, sd, n = (num(r.judge_minus_pool_mean), num(r.judge_minus_pool_sd), num(r.n)) if r else (None,) * 3
                if m is None:
                    continue
                half = float(sps.t.ppf(0.975, n - 1) * sd / math.sqrt(n)) if sd is not None and n and n > 1 else 0.0
                ax.errorbar(
                    m,
                    i + (k - (len(pools) - 1) / 2) * 0.25,
                    xerr=half,
                    fmt="o",
                    color=_pool_color(pool, k),
                    capsize=2,
                    label=pool_label(pool) if i == 0 or not ax.get_legend_handles_labels()[1] else None,
                )
        ax.axvline(0, color="black", lw=0.6)
        ax.set_yticks(range(len(judges)), [judge_label(j, meta.judge_labels) for j in judges])
        ax.invert_yaxis()
        ax.set_xlabel(f"judge − mean blind reviewer ({'percent points' if scale_note(cal) else 'raw points'})")
        handles, labels = ax.get_legend_handles_labels()
        uniq = dict(zip(labels, handles, strict=True))
        ax.legend(uniq.values(), uniq.keys(), frameon=False, loc="best")
        path_png, path_svg = _save(fig, out_dir, "judge_calibration")
    inputs, method = provenance(cal)
    return Figure(
        "fig_judge_calibration",
        title,
        path_png,
        path_svg,
        caption="Mean paired difference between each judge and the mean of the blind reviewers, per pool; "
        "whiskers: 95% CI mean ± t(0.975, n−1)·sd/√n.",
        inputs=inputs,
        method=method,
    )


def dimension_figure(per_dim: PerDimension, out_dir: Path) -> Figure | Missing:
    """Pearson r per rubric dimension between the primary judge and the mean blind reviewer, per pool."""
    pd = per_dimension_pools(per_dim)
    title = "Agreement per rubric dimension"
    if not any(pd.values()):
        return Missing("fig_per_dimension_agreement", title, "results.json has no rq5.per_dimension")
    pools = list(pd)
    dims = list(dict.fromkeys(d for p in pools for d in pd[p]))
    with plt.rc_context(_STYLE):
        fig, ax = plt.subplots(figsize=(7.2, 3.4))
        x = np.arange(len(dims))
        width = 0.8 / max(len(pools), 1)
        for k, pool in enumerate(pools):
            v = [num(c.pearson) if (c := pd[pool].get(d)) is not None else None for d in dims]
            xs = x + (k - (len(pools) - 1) / 2) * width
            ax.bar(
                xs, [math.nan if z is None else z for z in v], width, label=pool_label(pool), color=_pool_color(pool, k)
            )
            for xi, z in zip(xs, v, strict=True):
                if z is None:  # r undefined (e.g. constant scores): say so instead of an empty slot
                    ax.text(xi, 0.02, "n/a", ha="center", va="bottom", fontsize=7, color="grey", rotation=90)
        ax.set_xticks(x, dims, rotation=40, ha="right")
        ax.set_ylabel("Pearson r (judge vs mean blind)")
        ax.set_ylim(min(-0.2, ax.get_ylim()[0]), 1)
        ax.axhline(0, color="black", lw=0.6)
        ax.legend(frameon=False)
        path_png, path_svg = _save(fig, out_dir, "per_dimension_agreement")
    inputs, method = provenance(per_dim)
    return Figure(
        "fig_per_dimension_agreement",
        title,
        path_png,
        path_svg,
        caption="Pearson r between the primary judge's and the mean blind reviewer's points on each "
        f"dimension ({'; '.join(pool_label(p) for p in pools)}); n/a: r undefined.",
        inputs=inputs or "human reviews, primary-judge dimension scores",
        method=method or "Pearson r per dimension over the picks of each pool.",
    )
