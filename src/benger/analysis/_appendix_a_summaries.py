"""Appendix A Tables 3, 4, 6 and 7 (ZJS and Grundprinzipien per system) from the released per-system summaries.

The release holds no per-item judge scores for ZJS and Grundprinzipien, only each system's summary (judged n,
mean and sd of the raw score, pass rate, Ja/Nein accuracy, metric means). The paper's bootstrap intervals
cannot be recomputed from those; benger gives the analytic ones instead and says so in the block's ``method``:
the normal interval mean ± 1.96·sd/√n for the raw score (clipped to 0-100) and the Wilson interval for the pass
rate and the accuracy. Grade points and metric intervals need per-item values: they are ``null`` with a reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from benger.analysis._records import CorpusSummary
from benger.stats import normal_ci_from_summary, proportion_ci

RAW_SCALE = (0.0, 100.0)


def _share(value: float | None, n: int) -> dict[str, Any] | None:
    if value is None or n <= 0:
        return None
    ci = proportion_ci(value * n, n)
    return {"mean": value, "low": ci.low, "high": ci.high, "halfwidth": ci.half_width, "n": n}


def _rubric_row(system: str, s: CorpusSummary, *, accuracy: bool) -> dict[str, Any]:
    ci = normal_ci_from_summary(s.mean, s.sd, s.n, bounds=RAW_SCALE)
    row: dict[str, Any] = {
        "row": system,
        "n": s.n_generations,
        "n_judged": s.n,
        "raw": {"mean": s.mean, "low": ci.low, "high": ci.high, "halfwidth": ci.half_width, "n": s.n},
        "grade_points": None,
        "grade_points_reason": "the release's summaries hold no per-item grade points",
        "pass_rate": _share(s.pass_rate, s.n),
    }
    if accuracy:
        row["accuracy"] = _share(s.accuracy, s.n_generations)
    return row


def _metric_row(system: str, s: CorpusSummary) -> dict[str, Any]:
    return {
        "row": system,
        "n": s.n_generations,
        "metrics": {
            m: {"mean": v, "low": None, "high": None, "halfwidth": None, "n": s.n_generations}
            for m, v in sorted(s.metrics.items())
        },
        "metrics_reason": "the release's summaries hold metric means only: no interval",
    }


def summary_tables(zjs: Mapping[str, CorpusSummary], gp: Mapping[str, CorpusSummary]) -> dict[str, Any]:
    """Tables 3 (ZJS rubric), 4 (Grundprinzipien rubric), 6 (ZJS metrics), 7 (Grundprinzipien metrics and
    accuracy), rows ordered by mean raw score (best first). ``source`` is ``unavailable`` without summaries."""

    def order(table: Mapping[str, CorpusSummary]) -> list[str]:
        return sorted(table, key=lambda s: (-table[s].mean, s))

    block: dict[str, Any] = {
        "method": "released per-system summaries (the paper's bootstrap over per-item scores cannot be redone: the "
        "release holds no per-item ZJS / Grundprinzipien scores); analytic intervals: raw mean ± 1.96·sd/√n "
        "clipped to 0-100, Wilson 95% intervals for pass rate and Ja/Nein accuracy; metric columns: means only",
        "inputs": {"zjs_systems": len(zjs), "grundprinzipien_systems": len(gp)},
        "paper_tables": ["3", "4", "6", "7"],
        "source": "released_aggregates",
        "table3": [_rubric_row(s, zjs[s], accuracy=False) for s in order(zjs)],
        "table4": [_rubric_row(s, gp[s], accuracy=True) for s in order(gp)],
        "table6": [_metric_row(s, zjs[s]) for s in order(zjs)],
        "table7": [
            _metric_row(s, gp[s]) | {"accuracy": _share(gp[s].accuracy, gp[s].n_generations)} for s in order(gp)
        ],
    }
    if not zjs and not gp:
        block |= {"source": "unavailable", "reason": "no released ZJS / Grundprinzipien summaries in the data"}
    return block
