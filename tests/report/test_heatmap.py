"""The task x system matrix behind the heatmap."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pytest

from benger.analysis.results._models import TaskSystem
from benger.report import task_labels, task_system_matrix
from benger.report._heatmap_fig import MAX_SYSTEM_ROWS, MAX_TASK_COLUMNS, HeatmapGrid, draw_heatmap, heatmap_grid


def test_matrix_means_ordering_and_gaps() -> None:
    areas = {"t1": "Zivilrecht", "t2": "Strafrecht", "t3": "Zivilrecht"}
    tasks = task_labels(areas)
    assert tasks == [("t1", "Zivilrecht", "Civ 1"), ("t2", "Strafrecht", "Crim 2"), ("t3", "Zivilrecht", "Civ 3")]
    scores = [
        ("a", "t1", 60.0),
        ("a", "t1", 70.0),  # two generations in one cell: mean 65
        ("a", "t2", 50.0),
        ("b", "t1", 80.0),
        ("b", "t3", 90.0),  # b has no t2 generation
        ("b", "unknown-task", 0.0),  # not a corpus task: ignored
    ]
    m = task_system_matrix(scores, tasks, "judge-x", {"b": "System B"})
    # b: mean(80, 90) = 85 > a: mean(60, 70, 50) = 60, so b is the first row
    assert [s["system"] for s in m["systems"]] == ["b", "a"]
    assert m["systems"][0]["display"] == "System B" and m["systems"][1]["display"] == "a"
    assert m["systems"][1]["mean"] == 60.0
    # columns grouped by area in order of first appearance: Zivilrecht (t1, t3), then Strafrecht (t2)
    assert [t["task_id"] for t in m["tasks"]] == ["t1", "t3", "t2"]
    assert m["values"] == [[80.0, 90.0, None], [65.0, None, 50.0]]
    assert m["n"] == [[1, 1, 0], [2, 0, 1]]
    assert m["inputs"] == ["generations:5", "judge_scores:judge-x"]


# ---------------------------------------------------------------- issue 18 item 1: bounded at any corpus size
def _block(n_tasks: int, n_systems: int = 12) -> TaskSystem:
    areas = ("Zivilrecht", "Öffentliches Recht", "Strafrecht")
    task_areas = {f"t{i}": areas[min(2, 3 * i // n_tasks)] for i in range(n_tasks)}
    rng = np.random.default_rng(0)
    scores = [
        (f"s{k}", t, float(v))
        for k in range(n_systems)
        for t, v in zip(task_areas, rng.integers(0, 101, n_tasks), strict=True)
    ]
    return TaskSystem.model_validate(task_system_matrix(scores, task_labels(task_areas), "judge-x"))


def _texts(fig: Any) -> int:
    return sum(len(ax.texts) for ax in fig.axes)


def test_heatmap_of_4000_tasks_is_bounded() -> None:
    # before: 0.45 inch per task (1,803 inch wide) and one text label per cell (48,000 texts): 5.6 GB, 92 s
    grid = heatmap_grid(_block(4000))
    assert grid.values.shape == (12, MAX_TASK_COLUMNS) and grid.binned
    fig = draw_heatmap(grid)
    try:
        width, height = fig.get_size_inches()
        assert width <= 0.45 * MAX_TASK_COLUMNS + 3 and height <= 0.34 * MAX_SYSTEM_ROWS + 1.6
        assert _texts(fig) <= 3  # only the 3 area captions, no per-cell numbers
    finally:
        plt.close(fig)


def test_binned_cell_is_the_mean_of_all_generations_in_the_bin() -> None:
    # 61 tasks of one area -> more than MAX_TASK_COLUMNS: tasks are pooled into bins of 1-2 tasks.
    # system a: every task scored 10 except task t0 scored twice (0 and 30): its bin (t0, t1) holds 0, 30, 10
    areas = {f"t{i}": "Zivilrecht" for i in range(61)}
    scores = [("a", t, 10.0) for t in areas if t != "t0"] + [("a", "t0", 0.0), ("a", "t0", 30.0)]
    grid = heatmap_grid(TaskSystem.model_validate(task_system_matrix(scores, task_labels(areas), "j")))
    assert grid.values.shape == (1, MAX_TASK_COLUMNS)
    assert grid.values[0, 0] == pytest.approx((0 + 30 + 10) / 3)  # not the mean of cell means (15 + 10) / 2
    assert grid.columns[0] == "Civ 1–2" and grid.columns[1] == "Civ 3"
    assert "pool consecutive tasks" in grid.note


def test_many_systems_keep_the_best_and_worst_rows() -> None:
    grid = heatmap_grid(_block(10, n_systems=50))
    assert grid.values.shape == (MAX_SYSTEM_ROWS, 10) and grid.omitted_systems == 10
    assert "10 middle-ranked systems not shown" in grid.note


def test_small_heatmap_keeps_one_column_and_one_number_per_task() -> None:
    block = _block(15, n_systems=4)
    grid = heatmap_grid(block)
    assert not grid.binned and grid.note == "" and grid.columns == [t.label for t in block.tasks]
    fig = draw_heatmap(grid)
    try:
        assert _texts(fig) == 4 * 15 + 3  # a number per cell plus the area captions
    finally:
        plt.close(fig)


def test_the_largest_grid_renders_without_a_full_size_float_image(tmp_path: Path) -> None:
    """imshow resampled the grid to the output's pixels in float64 (~190 MiB at 40 x 60 cells, 150 dpi: issue 26);
    one quad per cell draws it with the canvas alone (a 3,150 x 1,875 RGBA buffer, 23 MiB)."""
    import tracemalloc

    from benger.report._figures import _save

    rng = np.random.default_rng(0)
    values = np.round(rng.uniform(0, 100, (MAX_SYSTEM_ROWS, MAX_TASK_COLUMNS)), 1)
    values[0, 0] = np.nan
    grid = HeatmapGrid(values, [f"s{i}" for i in range(MAX_SYSTEM_ROWS)], [f"T{j}" for j in range(MAX_TASK_COLUMNS)],
                       ["Zivilrecht"] * MAX_TASK_COLUMNS, binned=True, omitted_systems=0)  # fmt: skip
    (tmp_path / "figures").mkdir()
    tracemalloc.start()
    try:
        _save(draw_heatmap(grid), tmp_path, "heatmap")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 80 * 2**20, peak / 2**20
    assert (tmp_path / "figures" / "heatmap.png").stat().st_size > 5000
