"""Validity of the Gutachten analyser (RQ3 style): Spearman correlations of its features with the judge's
and the blind human graders' scores on the 45 released validation picks, each with n and a paired
percentile bootstrap CI.

Features (per pick, from :func:`benger.gutachten.analyse`): norm recall against the task's reference
(paragraph level), share of sections with all four Gutachtenstil steps, share of examined claims whose
examination has all four steps, Gliederung depth, Subsumtion
sentences per 1,000 words, citation problems per 1,000 words, words.
Targets: mean blind human raw score and dimensions (3 blind reviews per pick, n = 45); the primary judge's
raw score (GPT-5.4-mini: generation judgements for LLM picks, ``creator_calibration_anchors.csv`` for
human picks, n = 45) and its dimensions (LLM picks only, n = 15).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import numpy as np
from pydantic import BaseModel
from scipy.stats import rankdata

from benger.stats import complete_pairs, spearman

FEATURES = (
    "norm_recall",
    "share_complete",
    "share_claims_complete",
    "structure_depth",
    "subsumtion_per_1000_words",
    "citation_problems_per_1000_words",
    "words",
)
DIMENSIONS = ("rechtsgrundlagen", "rechtskenntnis", "subsumtion", "methodischer_stil", "gliederung")
PRIMARY_ANCHOR_JUDGE = "gpt54mini"


class Correlation(BaseModel):
    """Spearman rho of one feature with one target; ``low``/``high`` the bootstrap CI (None if undefined)."""

    feature: str
    target: str
    n: int
    rho: float | None
    low: float | None
    high: float | None


class ValidityTable(BaseModel):
    """All feature x target correlations with their provenance."""

    provenance: dict[str, Any]
    rows: list[Correlation]


def spearman_ci(
    a: list[float | None], b: list[float | None], *, n_resamples: int = 2000, seed: int = 0, confidence: float = 0.95
) -> tuple[int, float | None, float | None, float | None]:
    """(n, rho, low, high): Spearman rho over complete pairs with a paired percentile bootstrap interval.

    Each resample draws pairs with replacement and ranks them anew (average ranks for ties); resamples
    with a constant side are dropped. The CI is None with fewer than 3 pairs.
    """
    x, y = complete_pairs(a, b)
    rho = spearman(x, y)
    if rho is None:
        return int(x.size), None, None, None
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, x.size, size=(n_resamples, x.size))
    rx = rankdata(x[idx], axis=1)
    ry = rankdata(y[idx], axis=1)
    rx -= rx.mean(axis=1, keepdims=True)
    ry -= ry.mean(axis=1, keepdims=True)
    den = np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))
    ok = den > 0
    rhos = (rx * ry).sum(axis=1)[ok] / den[ok]
    if rhos.size == 0:
        return int(x.size), rho, None, None
    alpha = (1 - confidence) / 2
    low, high = np.percentile(rhos, [100 * alpha, 100 * (1 - alpha)])
    return int(x.size), rho, float(low), float(high)


def pick_features(release: Any) -> dict[str, dict[str, float | None]]:
    """Analyser features per pick id (``P01`` ...), computed on the released pick texts."""
    from benger.gutachten import analyse, compare

    refs = {t.task_id: analyse(t.reference) for t in release.benchathon.tasks}
    out: dict[str, dict[str, float | None]] = {}
    for pick in release.picks:
        a = analyse(pick.text)
        ref = refs.get(pick.task_id)
        per_k = 1000 / a.words if a.words else None
        out[pick.pick_id] = {
            "norm_recall": compare(a, ref).norms_paragraph.recall if ref is not None else None,
            "share_complete": a.share_complete,
            "share_claims_complete": a.share_claims_complete,
            "structure_depth": float(a.structure.depth),
            "subsumtion_per_1000_words": a.subsumtion_per_1000_words,
            "citation_problems_per_1000_words": len(a.citation_problems) * per_k if per_k else None,
            "words": float(a.words),
        }
    return out


def pick_targets(release: Any) -> dict[str, dict[str, float | None]]:
    """Human and judge scores per pick id: ``human_raw``, ``human_<dim>``, ``judge_raw``, ``judge_<dim>``."""
    blind: dict[str, list[Any]] = defaultdict(list)
    for r in release.reviews:
        if r.role == "blind":
            blind[r.target_id].append(r)
    judged = {j.target_id: j for j in release.judgements if j.status == "scored"}
    anchors = {a.solution_id: a.y_judge for a in release.anchors if a.judge == PRIMARY_ANCHOR_JUDGE}
    out: dict[str, dict[str, float | None]] = {}
    for pick in release.picks:
        reviews = blind.get(pick.subject_id, [])
        row: dict[str, float | None] = {
            "human_raw": float(np.mean([r.raw_score for r in reviews])) if reviews else None,
        }
        for dim in DIMENSIONS:
            row[f"human_{dim}"] = float(np.mean([r.dimensions[dim] for r in reviews])) if reviews else None
        j = judged.get(pick.subject_id)
        row["judge_raw"] = j.total if j is not None else anchors.get(pick.subject_id)
        for dim in DIMENSIONS:
            row[f"judge_{dim}"] = (j.dimensions or {}).get(dim) if j is not None else None
        out[pick.pick_id] = row
    return out


def validity_table(release: Any, *, n_resamples: int = 2000, seed: int = 0) -> ValidityTable:
    """Every feature against every target over the released picks (see the module docstring)."""
    from benger.gutachten import ANALYSER_VERSION

    features = pick_features(release)
    targets = pick_targets(release)
    ids = sorted(features)
    target_names = ["human_raw", "judge_raw"] + [f"{w}_{d}" for d in DIMENSIONS for w in ("human", "judge")]
    rows = []
    for feature in FEATURES:
        xs = [features[i][feature] for i in ids]
        for target in target_names:
            n, rho, low, high = spearman_ci(xs, [targets[i][target] for i in ids], n_resamples=n_resamples, seed=seed)
            rows.append(Correlation(feature=feature, target=target, n=n, rho=rho, low=low, high=high))
    return ValidityTable(
        provenance={
            "analyser": ANALYSER_VERSION,
            "release": str(release.path),
            "judge": "gpt-5.4-mini (primary; anchors key gpt54mini for human picks)",
            "human": "mean of the blind reviews per pick",
            "ci": f"paired percentile bootstrap of Spearman rho, {n_resamples} resamples, seed {seed}, 95%",
        },
        rows=rows,
    )


def markdown_table(table: ValidityTable, features: tuple[str, ...] = FEATURES) -> str:
    """The table as markdown: one row per feature x target, rho [low, high] and n."""

    def fmt(v: float | None) -> str:
        return "–" if v is None else f"{v:+.2f}"

    lines = ["| feature | target | n | Spearman rho | 95% CI |", "|---|---|---|---|---|"]
    for r in table.rows:
        if r.feature in features:
            ci = "undefined" if r.low is None or r.high is None else f"[{fmt(r.low)}, {fmt(r.high)}]"
            lines.append(f"| {r.feature} | {r.target} | {r.n} | {fmt(r.rho)} | {ci} |")
    return "\n".join(lines)
