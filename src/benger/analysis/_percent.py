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
from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

from benger.judge import grade_points, passed

if TYPE_CHECKING:  # the leaderboard's scales use scale_text only: no StudyContents dataclasses loaded
    from benger.analysis._records import StudyContents

#: The unit of raw scores on the paper's rubrics.
RAW = "raw score 0-100"
#: The unit of statistics computed on :func:`as_percent` data.
PERCENT_SCALE = "percent of each solution's rubric total (0-100); grade points and pass on the paper's 0-18 table of it"

D = TypeVar("D", bound="StudyContents")


def on_own_rubric(data: StudyContents) -> bool:
    """Whether ``data`` is judged (its primary judge) or reviewed under a user's own rubric, not the paper's: its
    raw points are then on that rubric's scale, and the paper's 0-18 table of raw 0-100 points does not apply."""
    from benger.judge._rubric import BUILTIN_RUBRICS

    if data.rubric_totals:
        return True
    config = (getattr(data, "inputs", None) or {}).get("primary_judge_config") or {}
    rubric = str(config.get("rubric") or "")
    return bool(rubric) and rubric.split("@")[0] not in BUILTIN_RUBRICS


def own_scale(data: StudyContents, rubric_ids: set[str]) -> str:
    """The unit of raw scores judged under ``rubric_ids`` (own rubrics) of ``data``: :func:`scale_text` of its
    ``rubric_scales``."""
    return scale_text(getattr(data, "rubric_scales", {}) or {}, rubric_ids)


def scale_text(known: Mapping[str, float], rubric_ids: set[str]) -> str:
    """The unit of raw scores judged under ``rubric_ids`` (``known``: rubric id -> total): ``raw score 0-30`` for
    one known total, each rubric's total where they differ, and where a rubric's total is unknown (a rubric file
    not given) its id, never the paper's 0-100."""
    parts = []
    for rid in sorted(rubric_ids):
        total = known.get(rid)
        parts.append(f"0-{total:g} ({rid})" if total is not None else f"the scale of {rid} (total not given)")
    totals = {known.get(rid) for rid in rubric_ids}
    if len(totals) == 1 and None not in totals:
        return f"raw score 0-{next(iter(totals)):g} (rubric {', '.join(sorted(rubric_ids))})"
    return "raw score " + "; ".join(parts) if parts else "raw score on the own rubric's scale"


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


__all__ = ["PERCENT_SCALE", "RAW", "as_percent", "on_own_rubric", "own_scale", "percent", "scale_text"]
