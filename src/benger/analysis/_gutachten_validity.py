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
from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel
from scipy.stats import rankdata

from benger.stats import spearman

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
#: a bootstrap CI is reported only when at most this share of resamples is undefined (a constant side)
MAX_DEGENERATE = 0.05


class Correlation(BaseModel):
    """Spearman rho of one feature with one target; ``low``/``high`` the bootstrap CI (None if undefined)."""

    feature: str
    target: str
    n: int
    rho: float | None
    low: float | None
    high: float | None
    dropped: int = 0
    control: str | None = None


class ValidityTable(BaseModel):
    """All feature x target correlations with their provenance."""

    provenance: dict[str, Any]
    rows: list[Correlation]
    partial_on_words: list[Correlation]


def _centred_ranks(values: np.ndarray) -> np.ndarray:
    ranks = np.asarray(rankdata(values, axis=1), dtype=float)
    centred: np.ndarray = ranks - ranks.mean(axis=1, keepdims=True)
    return centred


#: Resample indices and centred resampled ranks already computed, keyed by what determines them (n, resamples and
#: seed; the column's values): every feature meets every target with the same resamples, so each column is
#: ranked once per table instead of once per pair.
RankMemo = dict[tuple[Any, ...], np.ndarray]


def _resampled_ranks(values: np.ndarray, idx: np.ndarray, key: tuple[Any, ...], memo: RankMemo) -> np.ndarray:
    full = ("ranks", tuple(values.tolist()), *key)
    if full not in memo:
        memo[full] = _centred_ranks(values[idx])
    return memo[full]


def _rank_correlations(
    rx: np.ndarray, ry: np.ndarray, rz: np.ndarray | None, n_rows: int
) -> tuple[np.ndarray, np.ndarray]:
    """Spearman rho (or, given ``rz``, the partial rank correlation controlling for z) of each row of the centred
    ranks ``rx``/``ry`` (one row per resample of pair indices); returns (values, mask of defined rows)."""
    ok = np.ones(n_rows, dtype=bool)
    if rz is not None:
        zz = (rz * rz).sum(axis=1, keepdims=True)
        ok &= zz[:, 0] > 0
        zz[zz == 0] = 1.0
        rx = rx - (rx * rz).sum(axis=1, keepdims=True) / zz * rz
        ry = ry - (ry * rz).sum(axis=1, keepdims=True) / zz * rz
    den = np.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))
    ok &= den > 1e-12
    den[~ok] = 1.0
    return (rx * ry).sum(axis=1) / den, ok


def spearman_ci(
    a: Sequence[float | None],
    b: Sequence[float | None],
    *,
    control: Sequence[float | None] | None = None,
    n_resamples: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
    memo: RankMemo | None = None,
) -> tuple[int, float | None, float | None, float | None, int]:
    """(n, rho, low, high, dropped): Spearman rho over complete pairs (given ``control``: the partial rank
    correlation controlling for it) with a paired percentile bootstrap interval.

    Each resample draws pairs with replacement and ranks them anew (average ranks for ties). A resample
    with a constant side is undefined and dropped; when more than MAX_DEGENERATE of them are, the CI
    is None (undefined) rather than an interval of the lucky resamples. rho is None with < 3 pairs.
    ``memo`` (shared between calls) reuses resamples and ranks of equal inputs; the numbers are the same.
    """
    memo = {} if memo is None else memo
    columns = [a, b] if control is None else [a, b, control]
    keep = [i for i in range(len(a)) if all(c[i] is not None and not np.isnan(float(c[i])) for c in columns)]  # type: ignore[arg-type]
    x = np.asarray([a[i] for i in keep], dtype=float)
    y = np.asarray([b[i] for i in keep], dtype=float)
    z = None if control is None else np.asarray([control[i] for i in keep], dtype=float)
    n = int(x.size)
    if n < 3:
        return n, None, None, None, 0
    if z is None:
        rho = spearman(x, y)
    else:
        one = np.arange(n)[None, :]
        values, ok = _rank_correlations(_centred_ranks(x[one]), _centred_ranks(y[one]), _centred_ranks(z[one]), 1)
        rho = float(values[0]) if ok[0] else None
    if rho is None:
        return n, None, None, None, 0
    key = (n, n_resamples, seed)
    if ("idx", *key) not in memo:
        memo[("idx", *key)] = np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))
    idx = memo[("idx", *key)]
    rz = None if z is None else _resampled_ranks(z, idx, key, memo)
    values, ok = _rank_correlations(
        _resampled_ranks(x, idx, key, memo), _resampled_ranks(y, idx, key, memo), rz, n_resamples
    )
    dropped = int((~ok).sum())
    if dropped > MAX_DEGENERATE * n_resamples:
        return n, rho, None, None, dropped
    alpha = (1 - confidence) / 2
    low, high = np.percentile(values[ok], [100 * alpha, 100 * (1 - alpha)])
    return n, rho, float(low), float(high), dropped


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
    rows, partial = [], []
    memo: RankMemo = {}
    words = [features[i]["words"] for i in ids]
    for feature in FEATURES:
        xs = [features[i][feature] for i in ids]
        for target in target_names:
            ys = [targets[i][target] for i in ids]
            n, rho, low, high, dropped = spearman_ci(xs, ys, n_resamples=n_resamples, seed=seed, memo=memo)
            rows.append(Correlation(feature=feature, target=target, n=n, rho=rho, low=low, high=high, dropped=dropped))
            if feature != "words" and target in ("human_raw", "judge_raw"):
                n, rho, low, high, dropped = spearman_ci(
                    xs, ys, control=words, n_resamples=n_resamples, seed=seed, memo=memo
                )
                partial.append(
                    Correlation(
                        feature=feature,
                        target=target,
                        n=n,
                        rho=rho,
                        low=low,
                        high=high,
                        dropped=dropped,
                        control="words",
                    )
                )
    return ValidityTable(
        provenance={
            "analyser": ANALYSER_VERSION,
            "release": str(release.path),
            "judge": "gpt-5.4-mini (primary; anchors key gpt54mini for human picks)",
            "human": "mean of the blind reviews per pick",
            "ci": f"paired percentile bootstrap of Spearman rho, {n_resamples} resamples, seed {seed}, 95%",
        },
        rows=rows,
        partial_on_words=partial,
    )


def markdown_table(table: ValidityTable) -> str:
    """Two markdown matrices (blind human pool, judge): one row per feature, one column per target; each
    cell is rho [low, high]; the header gives n (complete pairs) per column."""

    def fmt(v: float | None) -> str:
        return "–" if v is None else f"{v:+.2f}"

    cells = {(r.feature, r.target): r for r in table.rows}
    features = list(dict.fromkeys(r.feature for r in table.rows))
    blocks = []
    for who, title in (("human", "blind human pool (mean of 3 blind reviews)"), ("judge", "primary judge")):
        targets = [f"{who}_raw"] + [f"{who}_{d}" for d in DIMENSIONS]
        head = [f"{t.removeprefix(who + '_')} (n={cells[(features[0], t)].n})" for t in targets]
        lines = [f"**vs {title}**", "", "| feature | " + " | ".join(head) + " |", "|---" * (len(head) + 1) + "|"]
        for f in features:
            row = []
            for t in targets:
                c = cells[(f, t)]
                ci = f" [{fmt(c.low)}, {fmt(c.high)}]" if c.low is not None and c.high is not None else ""
                ci = ci or (" [CI undefined]" if c.rho is not None else "")
                row.append(f"{fmt(c.rho)}{ci}" + ("" if c.n == cells[(features[0], t)].n else f" (n={c.n})"))
            lines.append(f"| {f} | " + " | ".join(row) + " |")
        blocks.append("\n".join(lines))
    lines = [
        "**partial rank correlation controlling for length (words)**",
        "",
        "| feature | human raw | judge raw |",
        "|---|---|---|",
    ]
    by = {(c.feature, c.target): c for c in table.partial_on_words}
    for f in features:
        if (f, "human_raw") in by:
            pair = [by[(f, t)] for t in ("human_raw", "judge_raw")]
            text = [
                f"{fmt(c.rho)}"
                + ("" if c.low is None or c.high is None else f" [{fmt(c.low)}, {fmt(c.high)}]")
                + f" (n={c.n})"
                for c in pair
            ]
            lines.append(f"| {f} | " + " | ".join(text) + " |")
    blocks.append("\n".join(lines))
    return "\n\n".join(blocks)
