"""The task × system heatmap, bounded at any corpus size (issue 18 item 1).

Up to ``MAX_TASK_COLUMNS`` tasks every task is a column; above it, consecutive tasks of one legal area are
pooled into bins (at most ``MAX_TASK_COLUMNS`` columns, each area keeps at least one), and a cell is the mean
of all scored generations in its bin. Above ``MAX_SYSTEM_ROWS`` systems, the best and the worst half of the
rows are shown and the rest is counted in the caption. Per-cell numbers are written only while the grid has at
most ``MAX_CELL_LABELS`` cells (the release's 12 systems x 15 tasks have them); a grid without them gets
narrower columns. So the figure size and the number of artists are bounded whatever the corpus, and so is the
drawing time (each text artist is laid out and drawn four times: PNG and SVG, each measured once for the tight
bounding box).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure as MplFigure

from benger.analysis.results._models import TaskSystem

MAX_TASK_COLUMNS = 60
MAX_SYSTEM_ROWS = 40
MAX_CELL_LABELS = 300
#: Column width in inches with and without per-cell numbers.
COLUMN_INCH, NARROW_COLUMN_INCH = 0.45, 0.3


@dataclass(frozen=True)
class HeatmapGrid:
    """What is drawn: ``values`` (rows × columns, NaN = no scored generation), labels, areas, and a note."""

    values: np.ndarray
    rows: list[str]
    columns: list[str]
    areas: list[str]
    binned: bool
    omitted_systems: int

    @property
    def note(self) -> str:
        parts = []
        if self.binned:
            parts.append("columns pool consecutive tasks of one area (mean of all scored generations in the bin)")
        if self.omitted_systems:
            parts.append(f"{self.omitted_systems} middle-ranked systems not shown")
        return "; ".join(parts)


def _bins_per_area(sizes: list[int], limit: int) -> list[int]:
    """Columns per area (largest remainder): proportional to its task count, at least 1 and at most its task
    count, summing to ``max(limit, #areas)`` when the tasks allow."""
    total = sum(sizes)
    share = [limit * s / total for s in sizes]
    bins = [min(s, max(1, math.floor(x))) for s, x in zip(sizes, share, strict=True)]
    while sum(bins) > max(limit, len(sizes)):
        bins[int(np.argmax(bins))] -= 1
    for i in sorted(range(len(sizes)), key=lambda i: bins[i] - share[i]):
        if sum(bins) >= limit:
            break
        if bins[i] < sizes[i]:
            bins[i] += 1
    return bins


def heatmap_grid(ts: TaskSystem) -> HeatmapGrid:
    """The bounded grid for a ``rq1.task_system`` block (``values``/``n`` systems × tasks, ``tasks``, ``systems``)."""
    values = np.array([[math.nan if v is None else float(v) for v in row] for row in ts.values], dtype=float)
    counts = np.array(ts.n or np.where(np.isnan(values), 0, 1), dtype=float).reshape(values.shape)
    systems = [s.display or s.system for s in ts.systems]
    tasks = list(ts.tasks)
    areas = [t.area or "" for t in tasks]
    labels = [t.label or t.task_id for t in tasks]
    binned = len(tasks) > MAX_TASK_COLUMNS
    if binned:
        runs: list[tuple[str, int, int]] = []  # (area, start, stop) of consecutive tasks of one area
        for j, area in enumerate(areas):
            if runs and runs[-1][0] == area:
                runs[-1] = (area, runs[-1][1], j + 1)
            else:
                runs.append((area, j, j + 1))
        cols, col_labels, col_areas = [], [], []
        per_run = _bins_per_area([stop - start for _, start, stop in runs], MAX_TASK_COLUMNS)
        for (area, start, stop), k in zip(runs, per_run, strict=True):
            for edges in np.array_split(np.arange(start, stop), k):
                w = counts[:, edges]
                total = np.nansum(np.where(w > 0, values[:, edges] * w, 0.0), axis=1)
                n = w.sum(axis=1)
                with np.errstate(invalid="ignore", divide="ignore"):
                    cols.append(np.where(n > 0, total / np.where(n > 0, n, 1), math.nan))
                first, last = labels[edges[0]], labels[edges[-1]]
                col_labels.append(first if first == last else f"{first}–{last.split()[-1]}")
                col_areas.append(area)
        values, labels, areas = np.column_stack(cols), col_labels, col_areas
    omitted = 0
    if len(systems) > MAX_SYSTEM_ROWS:
        half = MAX_SYSTEM_ROWS // 2
        keep = list(range(half)) + list(range(len(systems) - half, len(systems)))
        omitted = len(systems) - len(keep)
        values, systems = values[keep], [systems[i] for i in keep]
    return HeatmapGrid(values, systems, labels, areas, binned, omitted)


def draw_heatmap(grid: HeatmapGrid) -> MplFigure:
    """The matplotlib figure of a grid (size grows with the bounded grid only); the caller saves and closes it."""
    n_rows, n_cols = grid.values.shape
    labelled = n_rows * n_cols <= MAX_CELL_LABELS
    column = COLUMN_INCH if labelled else NARROW_COLUMN_INCH
    fig, ax = plt.subplots(figsize=(column * n_cols + 3, 0.34 * n_rows + 1.6))
    # one quad per cell, drawn by Agg as is: imshow resamples the grid to the output's pixels in float64
    # (~190 MiB at the bounded grid's largest size; issue 26)
    edges = (np.arange(n_cols + 1) - 0.5, np.arange(n_rows + 1) - 0.5)
    im = ax.pcolormesh(*edges, np.ma.masked_invalid(grid.values), cmap="viridis", vmin=0, vmax=100)
    ax.set_xlim(-0.5, n_cols - 0.5)
    ax.set_ylim(n_rows - 0.5, -0.5)  # the first row on top, as an image
    if labelled:
        for i in range(n_rows):
            for j in range(n_cols):
                v = grid.values[i, j]
                if not math.isnan(v):
                    color = "white" if v < 55 else "black"
                    ax.text(j, i, f"{v:.0f}", ha="center", va="center", fontsize=6.5, color=color)
    ax.set_yticks(range(n_rows), grid.rows)
    ax.set_xticks(range(n_cols), grid.columns, rotation=90)
    if grid.omitted_systems:
        ax.axhline(n_rows / 2 - 0.5, color="white", lw=2, ls="--")
    start = 0
    for j in range(1, n_cols + 1):
        if j == n_cols or grid.areas[j] != grid.areas[start]:
            if j < n_cols:
                ax.axvline(j - 0.5, color="white", lw=2)
            ax.text((start + j - 1) / 2, -0.8, grid.areas[start], ha="center", va="bottom", fontsize=8)
            start = j
    ax.spines[:].set_visible(False)
    fig.colorbar(im, ax=ax, label="judge raw score", fraction=0.03)
    return fig
