"""Ranking the leaderboard's rows: comparability with the paper's rows, ranks within a judge group."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from benger.analysis.leaderboard.model import MIN_RANKED_N, NOT_RANKED, SystemRank


def few_items(n: int) -> str | None:
    """The note of a scored row of ``n`` generations below ``MIN_RANKED_N`` (None for n = 0 or enough)."""
    if 0 < n < MIN_RANKED_N:
        return f"n = {n}: too few for a ranking (fewer than {MIN_RANKED_N} scored generations)"
    return None


def _mean(values: Sequence[float]) -> float | None:
    return math.fsum(values) / len(values) if values else None


def mark_comparable(raw: list[dict[str, Any]], pooled: bool) -> None:
    """Issue 13: rows from the release are the paper's reference rows; every other row says whether it was
    judged by the same judge configuration and rubric as they were (only then is it ranked among them)."""
    ref_groups = {r["group"] for r in raw if r["reference"] and r["group"] != NOT_RANKED}
    if not ref_groups:
        return
    ref_judges = sorted(
        {f"{r['judge']} [{r['judge_config_id']}, {r['rubric']}]" for r in raw if r["reference"] and r["judge"]}
    )
    for r in raw:
        if r["reference"]:
            r["comparable"] = "paper reference"
        elif r["group"] == NOT_RANKED:
            r["comparable"] = "not judged"
        elif pooled:
            r["comparable"] = "not comparable: judges pooled"
        elif r["group"] in ref_groups:
            prompts = f"benger prompt set {r['prompt_hash'][:8]}" if r["prompt_hash"] else "prompt set unknown"
            r["comparable"] = f"comparable: the paper's judge configuration and rubric; {prompts}"
        else:
            judge = f"{r['judge']} [{r['judge_config_id']}, {r['rubric']}]"
            r["comparable"] = f"not comparable: judged by {judge}; the paper's rows by {', '.join(ref_judges)}"


def rank(rows: Sequence[dict[str, Any]]) -> list[SystemRank]:
    """Ranks within each judge group by the mean of a configuration's per-corpus means; a configuration with no
    scored row (every mean undefined) is not ranked (issue 24: an n = 0 row was ranked 1)."""
    per: dict[tuple[str, str, str], dict[str, float | None]] = defaultdict(dict)
    tiers: dict[tuple[str, str, str], str | None] = {}
    few: set[tuple[str, str, str]] = set()
    for row in rows:
        if row["group"] == NOT_RANKED:
            continue
        key = (row["group"], row["system"], row["config_hash"])
        per[key][row["corpus"]] = row["mean"]
        tiers[key] = row["tier"]
        if row.get("few_items"):
            few.add(key)
    overall = {k: _mean([m for m in c.values() if m is not None]) for k, c in per.items()}
    per = {k: c for k, c in per.items() if overall[k] is not None}
    out: list[SystemRank] = []
    for group in sorted({k[0] for k in per}):
        keys = sorted((k for k in per if k[0] == group), key=lambda k: (overall[k] is None, -(overall[k] or 0.0), k))
        ranks = _competition_ranks([overall[k] for k in keys])
        out += [
            SystemRank(
                rank=ranks[i],
                group=group,
                system=k[1],
                config_id=k[2][:8],
                config_hash=k[2],
                tier=tiers[k],
                overall=overall[k],
                corpora=dict(sorted(per[k].items())),
                few_items=k in few,
            )
            for i, k in enumerate(keys)
        ]
    return out


def _competition_ranks(ordered: Sequence[float | None]) -> list[int]:
    """Standard competition ranks ("1, 1, 3") of values already sorted best first: equal values (to 1e-9, so
    that two means of the same numbers summed in another order tie) and the undefined ones share a rank."""
    ranks: list[int] = []
    for i, value in enumerate(ordered):
        prev = ordered[i - 1] if i else None
        same = i > 0 and (
            (value is None and prev is None)
            or (value is not None and prev is not None and math.isclose(value, prev, rel_tol=0.0, abs_tol=1e-9))
        )
        ranks.append(ranks[-1] if same else i + 1)
    return ranks
