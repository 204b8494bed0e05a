"""The task x system matrix behind the heatmap, computed from per-generation judge scores."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from statistics import fmean
from typing import Any

_AREA_ABBR = {"Zivilrecht": "Civ", "Öffentliches Recht": "Pub", "Strafrecht": "Crim"}


def task_labels(task_areas: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """``(task_id, area, label)`` per task in corpus order; the label is area abbreviation + 1-based position."""
    items = enumerate(task_areas.items())
    return [(tid, area, f"{_AREA_ABBR.get(area, area[:4])} {i + 1}") for i, (tid, area) in items]


def task_system_matrix(
    scores: Iterable[tuple[str, str, float]],
    tasks: Sequence[tuple[str, str, str]],
    judge: str,
    display: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Mean judge raw score per (system, task): the ``rq1.task_system`` block of results.json.

    ``scores`` holds ``(system, task_id, raw)`` per scored generation, ``tasks`` ``(task_id, area, label)`` in
    corpus order. A cell without a scored generation is ``None``. Systems are ordered by the mean over all their
    generations (highest first); tasks are grouped by legal area (order of first appearance), corpus order within.
    """
    known = {t[0] for t in tasks}
    cells: dict[tuple[str, str], list[float]] = defaultdict(list)
    n_gen = 0
    for system, task_id, raw in scores:
        if task_id in known:
            cells[(system, task_id)].append(float(raw))
            n_gen += 1
    per_system: dict[str, list[float]] = defaultdict(list)
    for (system, _), vals in cells.items():
        per_system[system] += vals
    systems = sorted(per_system, key=lambda s: (-fmean(per_system[s]), s))
    areas = list(dict.fromkeys(t[1] for t in tasks))
    ordered = sorted(enumerate(tasks), key=lambda it: (areas.index(it[1][1]), it[0]))
    names = display or {}
    return {
        "method": f"Mean {judge} raw score (0-100) per system and task over all scored generations; systems ordered "
        "by their mean over all generations, tasks grouped by legal area.",
        "inputs": [f"generations:{n_gen}", f"judge_scores:{judge}"],
        "source": "per_annotation",
        "judge": judge,
        "systems": [{"system": s, "display": names.get(s, s), "mean": round(fmean(per_system[s]), 4)} for s in systems],
        "tasks": [{"task_id": t[0], "label": t[2], "area": t[1]} for _, t in ordered],
        "values": [
            [round(fmean(cells[(s, t[0])]), 4) if cells.get((s, t[0])) else None for _, t in ordered] for s in systems
        ],
        "n": [[len(cells.get((s, t[0]), [])) for _, t in ordered] for s in systems],
    }


def task_system_from_study(data: Any) -> dict[str, Any]:
    """``task_system_matrix`` for a :class:`benger.analysis.StudyData` (its primary-judge generation scores)."""
    display = {name: meta.display for name, meta in data.systems.items()}
    scores = ((g.system, g.task_id, g.raw) for g in data.generations)
    return task_system_matrix(scores, task_labels(data.task_areas), data.primary_judge, display)
