"""The departures block of results.json: where benger's numbers differ from the printed paper, and which blocks
are unavailable from the inputs, each with its cause (issue 14, "The paper as printed")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MONTE_CARLO = (
    "bootstrap intervals use benger's own seeded generators; the paper's random streams are not replayed, so "
    "half-widths and interval ends differ within Monte-Carlo noise (the other differences are listed item by item)"
)
ANALYTIC_INTERVAL = (
    "the paper's Tables 3 and 4 give bootstrap intervals over per-item judge scores, which the release does not "
    "hold for ZJS and Grundprinzipien; benger's intervals there are the analytic normal interval "
    "mean ± 1.96·sd/√n from the released per-system summaries (mean, sd, n)"
)

FIRST_EVALUATION = (
    "the paper's Table 3 takes the first judge evaluation of each ZJS generation (the rule of the paper's own "
    "leaderboard_zjs.csv, whose means differ slightly from zjs_model_summary.json, e.g. Gemini-3.1-Pro 61.7 vs "
    "61.8); benger's Table 3 is the released per-system summary (Table 1's rule), because the release holds no "
    "per-generation ZJS evaluations from which the first-evaluation means could be recomputed"
)
#: The kinds of departure, in the order :func:`departures` lists them.
KINDS = (
    "superseded_not_released",
    "superseded_excluded",
    "interval_method",
    "evaluation_rule",
    "partial_release",
    "unavailable",
    "monte_carlo",
)


_LEAVES = (str, int, float, bool, type(None))


def _unavailable(node: Any, path: str, out: list[dict[str, Any]]) -> None:
    if type(node) in _LEAVES:  # most of a large study's nodes
        return
    if isinstance(node, Mapping):
        if node.get("source") == "unavailable" or node.get("judge_source") == "unavailable":
            reason = node.get("reason") or node.get("judge_reason") or "input not in the data"
            out.append({"kind": "unavailable", "item": path, "printed": None, "benger": None, "cause": str(reason)})
        for key, value in node.items():
            _unavailable(value, f"{path}.{key}" if path else str(key), out)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            label = value.get("row") or value.get("system") if isinstance(value, Mapping) else None
            _unavailable(value, f"{path}[{label or i}]", out)


def departures(
    results: Mapping[str, Any],
    zjs_superseded_dropped: Mapping[str, int],
    *,
    bench_superseded: Mapping[str, int] | None = None,
    human_metric_coverage: Mapping[str, tuple[int, int]] | None = None,
) -> dict[str, Any]:
    """Every known departure, each with its cause: ZJS rows whose printed n includes superseded generations the
    release does not hold (printed n = released n + dropped); Benchathon rows computed without the superseded
    generations the paper's Table 1 counts (``bench_superseded``: system -> superseded generations left out;
    ``--include-superseded`` gives the printed numbers); the Tables 3/4 interval method; Table 3's
    first-evaluation rule (when the block holds Table 3 rows); human metric means
    computed from the released subset (``human_metric_coverage``: "metric (condition)" -> (released values,
    human solutions));
    every ``unavailable`` block with its reason; the Monte-Carlo note. ``counts``: items per kind."""
    items: list[dict[str, Any]] = []
    rows = results.get("rq1", {}).get("leaderboard", {}).get("rows", [])
    zjs = {r["system"]: r.get("zjs") for r in rows}
    bench = {r["system"]: r.get("bench") for r in rows}
    for system, dropped in sorted(zjs_superseded_dropped.items()):
        row = zjs.get(system)
        if dropped and isinstance(row, Mapping):
            items.append(
                {
                    "kind": "superseded_not_released",
                    "item": f"rq1.leaderboard[{system}].zjs.n",
                    "printed": row["n"] + dropped,
                    "benger": row["n"],
                    "cause": f"the paper's ZJS row counts {dropped} superseded generations whose scores the release "
                    "does not contain; the mean and interval are the released summary's",
                }
            )
    for system, left_out in sorted((bench_superseded or {}).items()):
        row = bench.get(system)
        if left_out and isinstance(row, Mapping):
            items.append(
                {
                    "kind": "superseded_excluded",
                    "item": f"rq1.leaderboard[{system}].bench",
                    "printed": row["n"] + left_out,
                    "benger": row["n"],
                    "cause": f"the paper's Table 1 also counts this system's {left_out} superseded Benchathon "
                    "generations (April 2026 runs); this run left them out: `benger reproduce --include-superseded` "
                    "gives the printed n, mean, pass rate and interval",
                }
            )
    if any(isinstance(r.get(col), Mapping) for r in rows for col in ("zjs", "gp")):
        items.append(
            {"kind": "interval_method", "item": "rq1.leaderboard[*].zjs, .gp (paper Tables 1, 3, 4)",
             "printed": None, "benger": None, "cause": ANALYTIC_INTERVAL}
        )  # fmt: skip
    summaries = results.get("rq1", {}).get("appendix_a_summaries") or {}
    if summaries.get("table3"):
        items.append(
            {"kind": "evaluation_rule", "item": "rq1.appendix_a_summaries.table3 (paper Table 3)",
             "printed": None, "benger": None, "cause": FIRST_EVALUATION}
        )  # fmt: skip
    for metric, (released, n_annotations) in sorted((human_metric_coverage or {}).items()):
        if n_annotations and released < n_annotations:
            items.append(
                {
                    "kind": "partial_release",
                    "item": f"rq1.appendix_a.*.table5[human_*].metrics: {metric}",
                    "printed": n_annotations,
                    "benger": released,
                    "cause": f"the human rows' {metric} mean is computed from the {released} of {n_annotations} "
                    "human solutions whose value the release contains; the paper's mean used all of them",
                }
            )
    for key in ("rq1", "rq2", "rq3", "rq4", "rq5", "extras"):
        _unavailable(results.get(key), key, items)
    items.append(
        {
            "kind": "monte_carlo",
            "item": "every bootstrap interval",
            "printed": None,
            "benger": None,
            "cause": MONTE_CARLO,
        }
    )
    counts: dict[str, int] = {}
    for item in items:
        counts[item["kind"]] = counts.get(item["kind"], 0) + 1
    return {
        "method": "data-derived list: ZJS rows with superseded generations dropped from the release (printed n = "
        "released n + n_superseded_dropped), Benchathon rows without the superseded generations the paper counts, "
        "the Tables 3/4 interval method, Table 3's first-evaluation rule, human metric means from a released subset, "
        "every block marked "
        "unavailable with its reason, and the bootstrap note",
        "inputs": {
            "zjs_systems_with_dropped": sum(1 for v in zjs_superseded_dropped.values() if v),
            "bench_systems_with_superseded_excluded": sum(1 for v in (bench_superseded or {}).values() if v),
        },
        "counts": dict(sorted(counts.items())),
        "items": items,
    }
