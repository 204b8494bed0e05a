"""One scale for judge and reviewers under a user's own rubrics: percent of each solution's rubric total.

A corpus judged and reviewed under its own rubric (a 30-point Kurzbewertung, a task's 20-point Bewertungsbogen)
has raw totals on that rubric's scale, and its reviews' grade points come from that rubric's own table (or none).
``benger validate-judge --corpus`` and ``benger analyze``'s RQ5 both compare on this rule: every raw score as
percent of its solution's rubric total, and grade points and pass recomputed from that percent by the paper's
0-18 table, for the judge and the reviewers alike (never one table for the judge and another for the reviewers).
A review that has no grade points (its rubric has no grade table) gets none here either, and one without a pass
(no pass rule) no pass: the statistics on them are left out, never computed on invented grades.
"""

from __future__ import annotations

import dataclasses
from typing import TypeVar

from benger.analysis._records import StudyContents
from benger.judge import grade_points, passed

#: The unit of statistics computed on :func:`as_percent` data.
PERCENT_SCALE = "percent of each solution's rubric total (0-100); grade points and pass on the paper's 0-18 table of it"

D = TypeVar("D", bound=StudyContents)


def percent(raw: float, total: float) -> float:
    """``raw`` points as percent of a rubric ``total``."""
    return 100.0 * raw / total


def as_percent(data: D, totals: dict[str, float]) -> D:
    """``data`` with every review's raw score and every judge's per-solution score as percent of the solution's
    rubric total (``totals``: solution id -> total), the reviews' grade points and pass recomputed from that
    percent by the paper's 0-18 table, except that a review without grade points (a rubric without a grade table)
    keeps none and one without a pass (no pass rule) keeps none. Judge scores of solutions without a total are
    dropped; ``repeats`` (the primary judge's per-generation repeats, not per reviewed solution) are cleared."""
    rows = []
    for r in data.reviews:
        pct = percent(r.raw, totals[r.solution_id])
        gp = None if r.grade_points is None else grade_points(pct)
        ok = None if r.passed is None else passed(pct)
        rows.append(dataclasses.replace(r, raw=pct, grade_points=gp, passed=ok))
    judges = {
        judge: {sid: percent(v, totals[sid]) for sid, v in scores.items() if sid in totals}
        for judge, scores in data.judge_scores.items()
    }
    return dataclasses.replace(data, reviews=rows, judge_scores=judges, repeats={})


__all__ = ["PERCENT_SCALE", "as_percent", "percent"]
