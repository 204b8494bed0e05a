"""The departures block of results.json: where benger's numbers differ from the printed paper, and which blocks
are unavailable from the inputs, each with its cause (issue 14, "The paper as printed")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

MONTE_CARLO = (
    "bootstrap intervals use benger's own seeded generators; the paper's random streams are not replayed, so "
    "half-widths and interval ends differ within Monte-Carlo noise while every point estimate is exact"
)


def _unavailable(node: Any, path: str, out: list[dict[str, Any]]) -> None:
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


def departures(results: Mapping[str, Any], zjs_superseded_dropped: Mapping[str, int]) -> dict[str, Any]:
    """Every known departure: ZJS rows whose printed n includes superseded generations the release does not hold
    (printed n = released n + dropped), every ``unavailable`` block with its reason, and the Monte-Carlo note."""
    items: list[dict[str, Any]] = []
    zjs = {r["system"]: r.get("zjs") for r in results.get("rq1", {}).get("leaderboard", {}).get("rows", [])}
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
    return {
        "method": "data-derived list: ZJS rows with superseded generations dropped from the release (printed n = "
        "released n + n_superseded_dropped), every block marked unavailable with its reason, and the bootstrap note",
        "inputs": {"zjs_systems_with_dropped": sum(1 for v in zjs_superseded_dropped.values() if v)},
        "items": items,
    }
