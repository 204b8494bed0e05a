"""Paper Appendix A, Benchathon: Table 2 (per-system judge raw / grade points / pass with bootstrap CIs, plus the
human graders' columns of each system's picked solutions) and Table 5 (per-system automatic metrics with CIs)."""

from __future__ import annotations

import math
import os
from collections import defaultdict
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from benger.analysis._data import StudyData
from benger.analysis._percent import on_own_rubric
from benger.judge import grade_points, passed
from benger.stats import bootstrap_mean_ci, named_rng
from benger.stats._intervals import Interval, _percentiles, resample_means

HUMAN_ROWS = ("traditional", "co_creation")


#: Cells already computed, by (columns, seed, names, n_boot): the bootstrap of a cell depends on nothing else, so a
#: cell of the same values and names is the same numbers (final and with-superseded tables share most cells).
CellMemo = dict[tuple[Any, ...], list[dict[str, Any]]]

#: At most this many cells are bootstrapped at once (threads: numpy draws, gathers and sums without the GIL)
MAX_WORKERS = 4


def joint_cis(columns: list[np.ndarray], n_boot: int, rng: np.random.Generator) -> list[Interval]:
    """The 95% percentile bootstrap interval of each column's mean (finite values, one size n) from one set of
    resamples drawn from ``rng``: the first column's is ``bootstrap_mean_ci(columns[0], seed=rng)``, bit for bit
    (the same draws, gathers and sums), the others' use the same resampled rows."""
    n = int(columns[0].size)
    if n == 1:
        return [Interval(float(c.mean()), None, None, 1, 0) for c in columns]
    means = resample_means(columns, n_boot, rng)
    return [Interval(float(c.mean()), *_percentiles(m, 0.95), n, 0) for c, m in zip(columns, means, strict=True)]


def _bootstrap(key: tuple[Any, ...]) -> list[dict[str, Any]]:
    columns, seed, names, n_boot = key
    rng = named_rng(seed, "appendix_a", *names)
    if len(columns) == 1:
        found = [bootstrap_mean_ci(columns[0], n_resamples=n_boot, seed=rng)]
    else:
        found = joint_cis([np.asarray(c, dtype=float) for c in columns], n_boot, rng)
    return [
        {"mean": ci.estimate, "low": ci.low, "high": ci.high, "halfwidth": ci.half_width, "n": ci.n} for ci in found
    ]


class _Cells:
    """The cells of one call, each a mean with a 95% percentile bootstrap CI (generator from the seed and the
    cell's names; the cells of one :meth:`joint` call share one generator and its draws): :meth:`cell` hands out
    an empty dict at once, :meth:`fill` bootstraps every cell not in the memo (each generator on its own, so in
    any order and in parallel the same numbers; 64 draws of 8,000 values at 256k generations) and fills the
    dicts."""

    def __init__(self, memo: CellMemo) -> None:
        self.memo = memo
        self.wanted: list[tuple[tuple[Any, ...], list[dict[str, Any] | None]]] = []

    def cell(self, values: list[float], seed: int, *names: str, n_boot: int) -> dict[str, Any] | None:
        """The cell's dict (filled by :meth:`fill`); None without values."""
        return self.joint([values], seed, *names, n_boot=n_boot)[0]

    def joint(self, columns: list[list[float]], seed: int, *names: str, n_boot: int) -> list[dict[str, Any] | None]:
        """One dict per column (of one length; filled by :meth:`fill`), the columns resampled together from the
        generator of ``names`` (:func:`joint_cis`; one column: :func:`bootstrap_mean_ci`); None without values."""
        if not columns[0]:
            return [None] * len(columns)
        out: list[dict[str, Any] | None] = [{} for _ in columns]
        self.wanted.append(((tuple(tuple(c) for c in columns), seed, names, n_boot), out))
        return out

    def fill(self) -> None:
        todo = list(dict.fromkeys(key for key, _ in self.wanted if key not in self.memo))
        workers = min(MAX_WORKERS, os.cpu_count() or 1, len(todo))
        if workers > 1:
            pool = ThreadPoolExecutor(workers, thread_name_prefix="benger-appendix-a")
            try:
                self.memo.update(zip(todo, pool.map(_bootstrap, todo), strict=True))
            finally:
                pool.shutdown(cancel_futures=True)  # an error or Ctrl-C: no further cell starts
        else:
            self.memo.update((key, _bootstrap(key)) for key in todo)
        for key, out in self.wanted:
            for cell, found in zip(out, self.memo[key], strict=True):
                assert cell is not None
                cell.update(found)


def _rubric_cells(
    raws: list[float], seed: int, key: str, prefix: str, n_boot: int, cells: _Cells, *, paper_scale: bool = True
) -> dict[str, Any]:
    """Raw, grade-point and pass cells; grade points and pass by the paper's 0-18 table of raw 0-100 points, so
    none (None) off the paper's scale (``paper_scale`` False: a user's own rubric)."""
    if not paper_scale:
        raw = cells.cell(raws, seed, key, prefix + "raw", n_boot=n_boot)
        return {f"{prefix}raw": raw, f"{prefix}grade_points": None, f"{prefix}pass_rate": None}
    # raws repeat (half-point scores): each distinct value is mapped once
    mapped = {x: (float(grade_points(x)), float(passed(x))) for x in set(raws)}
    points, passes = [mapped[x][0] for x in raws], [mapped[x][1] for x in raws]
    if all(math.isfinite(x) for x in raws):
        # grade points and pass are functions of the raw points: resampled with the raw cell's draws (one B x n
        # draw instead of three: ~2 CPU-s of analyze at 256k generations; the raw cell's numbers unchanged)
        raw, gp, rate = cells.joint([raws, points, passes], seed, key, prefix + "raw", n_boot=n_boot)
    else:  # a missing raw score is dropped from its cell alone (bootstrap_mean_ci)
        raw = cells.cell(raws, seed, key, prefix + "raw", n_boot=n_boot)
        gp = cells.cell(points, seed, key, prefix + "gp", n_boot=n_boot)
        rate = cells.cell(passes, seed, key, prefix + "pass", n_boot=n_boot)
    return {f"{prefix}raw": raw, f"{prefix}grade_points": gp, f"{prefix}pass_rate": rate}


def appendix_a(
    data: StudyData,
    *,
    seed: int = 0,
    n_boot: int = 2000,
    include_superseded: bool = False,
    metrics_all: Mapping[str, Mapping[str, float]] | None = None,
    human_metrics: Mapping[str, Mapping[str, tuple[str | None, float]]] | None = None,
    memo: CellMemo | None = None,
) -> dict[str, Any]:
    """Tables 2 and 5 on the Benchathon generations (final only, or with the superseded ones as the paper prints).

    Table 2 ``h_*`` columns pool every human review (creator and blind) of the system's picked solutions; human
    rows take the reviews of the human picks per condition. Human judge columns need the primary-judge scores of
    all human solutions (``unavailable`` when absent). ``metrics_all`` (metric -> generation -> value) must hold
    the superseded generations' values when ``include_superseded``; ``human_metrics`` (metric -> annotation ->
    (condition, value)) gives the human rows of Table 5. ``memo`` (shared between calls, e.g. the final and the
    with-superseded tables) skips the bootstrap of a cell already computed with the same values, seed and names;
    every number is the same with or without it.
    """
    cells = _Cells({} if memo is None else memo)
    paper = not on_own_rubric(data)
    gens = data.generations if include_superseded else data.final_generations()
    raws: dict[str, list[float]] = defaultdict(list)
    system_of = {}
    for g in gens:
        raws[g.system].append(g.raw)
        system_of[g.generation_id] = g.system
    reviews: dict[str, list[float]] = defaultdict(list)
    for r in data.reviews:
        sol = data.solutions[r.solution_id]
        key = sol.author if sol.pool == "llm" else sol.condition
        if key:
            reviews[key].append(r.raw)
    scored: dict[str, list[float]] = defaultdict(list)
    annotations: dict[str, int] = defaultdict(int)
    for a in data.annotations:
        if a.condition:
            annotations[a.condition] += 1
            if a.judge_raw is not None:
                scored[a.condition].append(a.judge_raw)
    table2 = []
    for cond in HUMAN_ROWS:
        row: dict[str, Any] = {"row": f"human_{cond}", "kind": "human", "n": annotations[cond]}
        if scored[cond] and len(scored[cond]) == annotations[cond] and data.human_sample is None:
            row.update(_rubric_cells(scored[cond], seed, cond, "", n_boot, cells, paper_scale=paper))
        else:
            row.update({"raw": None, "grade_points": None, "pass_rate": None, "judge_source": "unavailable"})
            sample = f"; the data hold {data.human_sample}" if data.human_sample else ""
            row["judge_reason"] = (
                f"primary-judge scores exist for {len(scored[cond])} of {annotations[cond]} solutions{sample}"
            )
        row["n_h"] = len(reviews[cond])
        row.update(_rubric_cells(reviews[cond], seed, cond, "h_", n_boot, cells, paper_scale=paper))
        table2.append(row)
    order = sorted(raws, key=lambda s: (-sum(raws[s]) / len(raws[s]), s))
    for system in order:
        row = {"row": system, "kind": "system", "n": len(raws[system]), "n_h": len(reviews[system])}
        row.update(_rubric_cells(raws[system], seed, system, "", n_boot, cells, paper_scale=paper))
        row.update(_rubric_cells(reviews[system], seed, system, "h_", n_boot, cells, paper_scale=paper))
        table2.append(row)
    values = metrics_all if metrics_all is not None else data.metrics
    names = sorted(values)
    table5 = []
    for cond in HUMAN_ROWS:
        per = {m: [v for c, v in (human_metrics or {}).get(m, {}).values() if c == cond] for m in names}
        row = {"row": f"human_{cond}", "kind": "human", "n": max((len(v) for v in per.values()), default=0)}
        row["metrics"] = {m: cells.cell(per[m], seed, cond, "metric", m, n_boot=n_boot) for m in names}
        table5.append(row)
    by_system: dict[str, dict[str, list[float]]] = {m: defaultdict(list) for m in names}
    for m in names:  # one pass over each metric's values, each system's in the metric's order
        for gid, v in values[m].items():
            if (owner := system_of.get(gid)) is not None:
                by_system[m][owner].append(v)
    for system in order:
        per = {m: by_system[m].get(system, []) for m in names}
        row = {"row": system, "kind": "system", "n": len(raws[system])}
        row["metrics"] = {m: cells.cell(per[m], seed, system, "metric", m, n_boot=n_boot) for m in names}
        table5.append(row)
    cells.fill()
    scale = (
        "grade points by the half-up table, pass = grade points >= 4"
        if paper
        else "raw points on the own rubric's scale; no grade points or pass (the paper's 0-18 table is for raw "
        "0-100 points; the leaderboard has the rubric's own)"
    )
    return {
        "method": "per row the mean with a 95% percentile bootstrap CI (B = n_boot; each raw and metric cell's "
        "generator from the seed and the row and column names, a row's grade-point and pass cells resampled with "
        f"its raw cell's draws); {scale}; h_ columns: "
        "every human review (creator and blind) of the row's picked solutions",
        "inputs": {
            "generations": len(gens),
            "include_superseded": include_superseded,
            "n_boot": n_boot,
            "metrics": names,
        },
        "paper_tables": ["2", "5"],
        "table2": table2,
        "table5": table5,
    }
