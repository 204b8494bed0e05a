"""Creator-anchored calibration of each judge and the corrected alt-test (pooled LOO, GLOO, pure-creator),
with a vectorised stacked bootstrap of omega (resample anchors -> refit -> calibrate -> resample test picks)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from benger.analysis._data import POOLS, StudyData
from benger.stats import (
    TIERS,
    alt_test,
    apply_calibration,
    blind_pool_outcomes,
    fit_calibration_batch,
    omega_from_counts,
)

EPSILONS = (0.15, 0.2)


class _Cell:
    """The fixed parts of one judge: anchors (pooled over pools) and, per pool, the blind test reviews."""

    def __init__(self, data: StudyData, judge: str) -> None:
        scores = data.judge_scores[judge]
        creator = data.creator_scores()
        self.creator_of = {r.solution_id: r.grader for r in data.reviews if r.role == "creator"}
        self.anchor_ids = [s for s in scores if s in creator]
        self.y_judge = np.asarray([scores[s] for s in self.anchor_ids])
        self.y_creator = np.asarray([creator[s] for s in self.anchor_ids])
        self.scores = scores
        self.blind_graders = sorted({r.grader for r in data.blind_reviews()})

    def mask_without(self, graders: set[str]) -> np.ndarray:
        return np.asarray([self.creator_of.get(s) not in graders for s in self.anchor_ids], dtype=float)


def _fit(cell: _Cell, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return fit_calibration_batch(cell.y_judge, cell.y_creator, np.atleast_2d(weights))


def _loo_scores(cell: _Cell, ids: list[str], base: np.ndarray, tier: str) -> dict[str, float]:
    """Calibrated score per pick; an anchor pick is left out of its own fit."""
    weights = np.tile(base, (len(ids), 1))
    for row, sid in enumerate(ids):
        if sid in cell.anchor_ids:
            weights[row, cell.anchor_ids.index(sid)] = 0.0
    a, a2, b = _fit(cell, weights)
    vals = apply_calibration(tier, np.asarray([cell.scores[s] for s in ids]), a, a2, b)
    return {sid: float(v) for sid, v in zip(ids, vals, strict=True)}


def _result(outcomes: dict[str, list[int]], n_inst: int, n_anchors: int | None = None) -> dict[str, Any]:
    """Per epsilon: omega, rho, rejections, m, Clopper-Pearson CI, pass, and the counts (instances tested, reviews
    compared, anchors of the fit where one fit serves every pick)."""
    per_eps = {}
    for eps in EPSILONS:
        res = alt_test(outcomes, epsilon=eps, n_instances_total=n_inst)
        per_eps[str(eps)] = {
            "omega": res.omega,
            "rho": res.rho,
            "n_rejected": res.n_rejected,
            "m": res.m_annotators,
            "ci_clopper": list(res.omega_ci95) if res.omega_ci95 else None,
            "passes": res.passes,
            "n_instances": n_inst,
            "n_comparisons": sum(len(v) for v in outcomes.values()),
            "n_anchors": n_anchors,
        }
    return per_eps


class _TestSet:
    """Blind reviews of one pool as arrays: pick index, grader index, own score, the other reviewers' scores."""

    def __init__(self, data: StudyData, cell: _Cell, pool: str) -> None:
        by_pick: dict[str, list[tuple[str, float]]] = {}
        for r in data.blind_reviews(pool):
            if r.solution_id in cell.scores:
                by_pick.setdefault(r.solution_id, []).append((r.grader, r.raw))
        self.picks = [p for p, v in by_pick.items() if len(v) >= 3]
        width = max((len(by_pick[p]) for p in self.picks), default=1) - 1
        pick_idx, grader_idx, own, others = [], [], [], []
        for i, p in enumerate(self.picks):
            rows = by_pick[p]
            for j, (g, h) in enumerate(rows):
                rest = [s for k, (_, s) in enumerate(rows) if k != j]
                pick_idx.append(i)
                grader_idx.append(cell.blind_graders.index(g))
                own.append(h)
                others.append(rest + [np.nan] * (width - len(rest)))
        self.pick_idx, self.grader_idx = np.asarray(pick_idx, int), np.asarray(grader_idx, int)
        self.others = np.asarray(others, dtype=float).reshape(len(own), width)
        self.s_h = -np.sqrt(np.nanmean((np.asarray(own)[:, None] - self.others) ** 2, axis=1))
        self.y = np.asarray([cell.scores[p] for p in self.picks])

    def omegas(self, judge_vals: np.ndarray, mult: np.ndarray, n_graders: int) -> dict[str, np.ndarray]:
        """judge_vals (R, n_reviews) calibrated judge score per review; mult (R, n_picks) resample counts."""
        s_f = -np.sqrt(np.nanmean((judge_vals[:, :, None] - self.others[None]) ** 2, axis=2))
        d = (self.s_h[None] >= s_f).astype(int) - (s_f >= self.s_h[None]).astype(int)
        w = mult[:, self.pick_idx]
        # per grader: the weighted count of each outcome, as one product with the review -> grader indicator
        # (integer-valued floats, so the sums are exact whatever their order)
        onehot = (self.grader_idx[:, None] == np.arange(n_graders)[None, :]).astype(float)
        counts = [(w * (d == value)) @ onehot for value in (0, 1, -1)]
        return {str(eps): omega_from_counts(*counts, epsilon=eps) for eps in EPSILONS}


def _ci(omegas: np.ndarray) -> dict[str, Any]:
    ok = omegas[np.isfinite(omegas)]
    if ok.size == 0:
        return {"low": None, "high": None, "n_rep": 0}
    low, high = np.percentile(ok, [2.5, 97.5])
    return {"low": float(low), "high": float(high), "n_rep": int(ok.size), "passes_boot_lo": bool(low >= 0.5)}


def _draw_counts(rng: np.random.Generator, reps: int, n: int) -> np.ndarray:
    """(reps, n): how often each of n items is drawn in each of reps resamples of n draws with replacement."""
    rows = np.repeat(np.arange(reps), n)
    return np.bincount(rows * n + rng.integers(0, n, reps * n), minlength=reps * n).reshape(reps, n).astype(float)


def _stacked_omegas(
    cell: _Cell, test: _TestSet, tier: str, variant: str, rng: np.random.Generator, reps: int
) -> dict[str, np.ndarray]:
    """Omega of every resample, per epsilon: resample the anchors (n_anchor draws) -> refit (pooled: one fit;
    GLOO: one fit per blind grader without that grader's creator picks, no LOO) -> calibrate and clip -> resample
    the test picks (n_test draws; a pick drawn k times contributes its reviews' outcomes k times) -> alt-test."""
    n_a, n_t, n_g = len(cell.anchor_ids), len(test.picks), len(cell.blind_graders)
    anchor_w = _draw_counts(rng, reps, n_a)
    mult = _draw_counts(rng, reps, n_t)
    y_rev = test.y[test.pick_idx]
    if tier == "raw":
        vals = np.broadcast_to(y_rev, (reps, y_rev.size))
    elif variant == "pooled":
        a, a2, b = _fit(cell, anchor_w)
        vals = apply_calibration(tier, y_rev[None, :], a[:, None], a2[:, None], b[:, None])
    else:
        vals = np.empty((reps, y_rev.size))
        for g_idx, g in enumerate(cell.blind_graders):
            cols = test.grader_idx == g_idx
            w = anchor_w * cell.mask_without({g})[None, :]
            w[w.sum(axis=1) == 0] = cell.mask_without({g})  # degenerate resample: fall back to all kept anchors
            a, a2, b = _fit(cell, w)
            vals[:, cols] = apply_calibration(tier, y_rev[cols][None, :], a[:, None], a2[:, None], b[:, None])
    return test.omegas(np.asarray(vals), mult, n_g)


def _stacked(cell: _Cell, test: _TestSet, tier: str, variant: str, rng: np.random.Generator, reps: int) -> dict:
    return {eps: _ci(om) for eps, om in _stacked_omegas(cell, test, tier, variant, rng, reps).items()}


def stacked_bootstrap_omegas(
    data: StudyData,
    judge: str,
    pool: str,
    *,
    tier: str = "raw",
    variant: str = "gloo",
    n_reps: int = 500,
    seed: int = 0,
) -> dict[str, np.ndarray]:
    """The stacked-bootstrap distribution of omega for one cell (``variant`` "gloo" or "pooled"), per epsilon:
    an array of ``n_reps`` omegas (NaN where no annotator kept 5 instances). For diagnostics and tests."""
    if variant not in ("gloo", "pooled") or tier not in TIERS:
        raise ValueError(f"unknown cell: variant {variant!r} (gloo | pooled), tier {tier!r} {TIERS}")
    if judge not in data.judge_scores:
        raise ValueError(f"unknown judge {judge!r}; the data has {sorted(data.judge_scores)}")
    cell = _Cell(data, judge)
    test = _TestSet(data, cell, pool)
    if not test.picks:
        raise ValueError(f"judge {judge!r} has no eligible {pool!r} picks")
    return _stacked_omegas(cell, test, tier, variant, np.random.default_rng(seed), n_reps)


def creator_calibration(data: StudyData, *, seed: int = 0, n_reps: int = 500) -> dict[str, Any]:
    """Point omega for raw / scalar / affine under pooled LOO, GLOO and pure-creator anchors, plus stacked-bootstrap
    95% CIs of omega (``n_reps`` resamples) for pooled LOO and GLOO, for every judge and pool."""
    rng = np.random.default_rng(seed + 8)
    blind_set = {r.grader for r in data.blind_reviews()}
    pure_creators = sorted({r.grader for r in data.reviews if r.role == "creator"} - blind_set)
    out: dict[str, Any] = {
        "method": "anchors = picks with a judge score and a creator grade (pooled over pools); scalar y+a with "
        "a = mean(creator - judge), affine OLS of creator on judge, clipped to [0, 100]; pooled LOO: fit without the "
        "pick; GLOO: also without the tested annotator's creator picks; pure-creator: anchors by creators who never "
        "review blind; stacked bootstrap: resample anchors, refit, resample test picks, alt-test, 2.5/97.5 pct",
        "inputs": {"n_reps": n_reps, "pure_creators": pure_creators},
        "params_method": "gloo.<judge>.params.<pool>: per blind grader, the mean over the picks it reviewed in the "
        "pool of the fit without that pick and without the grader's creator picks (paper App. M); "
        "mean_over_graders / spread_over_graders summarise the graders",
        "pooled_loo": {},
        "gloo": {},
        "pure_creator": {},
    }
    for judge in data.judges():
        cell = _Cell(data, judge)
        if len(cell.anchor_ids) < 3:
            continue
        ones = np.ones(len(cell.anchor_ids))
        pure = cell.mask_without(blind_set)
        for pool in POOLS:
            test = _TestSet(data, cell, pool)
            if not test.picks:
                continue
            reviews = [(r.solution_id, r.grader, r.raw) for r in data.blind_reviews(pool)]
            for tier in TIERS:
                pooled = _loo_scores(cell, test.picks, ones, tier)
                res = _result(*blind_pool_outcomes(pooled, reviews), len(cell.anchor_ids))
                boot = _stacked(cell, test, tier, "pooled", rng, n_reps)
                for eps in res:
                    res[eps]["boot"] = boot[eps]
                out["pooled_loo"].setdefault(judge, {}).setdefault(pool, {})[tier] = res

                per_grader = {
                    g: _loo_scores(cell, test.picks, cell.mask_without({g}), tier) for g in cell.blind_graders
                }
                res = _result(*blind_pool_outcomes(_per_grader_lookup(per_grader), reviews))
                boot = _stacked(cell, test, tier, "gloo", rng, n_reps)
                for eps in res:
                    res[eps]["boot"] = boot[eps]
                out["gloo"].setdefault(judge, {}).setdefault(pool, {})[tier] = res

                if pure.sum() >= 3:
                    res = _result(
                        *blind_pool_outcomes(_loo_scores(cell, test.picks, pure, tier), reviews), int(pure.sum())
                    )
                    out["pure_creator"].setdefault(judge, {}).setdefault(pool, {})[tier] = res
        params = _gloo_params(data, cell)
        out["gloo"].setdefault(judge, {})["params"] = params
    return out


def _per_grader_lookup(table: dict[str, dict[str, float]]) -> Callable[[str, str], float | None]:
    def lookup(grader: str, solution: str) -> float | None:
        return table.get(grader, {}).get(solution)

    return lookup


def _gloo_params(data: StudyData, cell: _Cell) -> dict[str, Any]:
    """The per-grader mean GLOO parameters as paper App. M defines them: for blind grader g in a pool, the mean
    over the picks g reviewed there (eligible test picks) of the fit without that pick and without g's creator
    picks; per pool also the mean over graders (paper: Opus-4.7 a_scalar ≈ +0.5, Sonnet-4.6 ≈ −3.5, human picks)."""
    names = ("a_scalar", "a_affine", "b_affine")
    out: dict[str, Any] = {}
    for pool in POOLS:
        test = _TestSet(data, cell, pool)
        if not test.picks:
            continue
        weights = []
        for pick, grader in zip(test.pick_idx, test.grader_idx, strict=True):
            w = cell.mask_without({cell.blind_graders[grader]})
            sid = test.picks[pick]
            if sid in cell.anchor_ids:
                w[cell.anchor_ids.index(sid)] = 0.0
            weights.append(w)
        fits = _fit(cell, np.asarray(weights))
        per_grader = {}
        for g_idx, g in enumerate(cell.blind_graders):
            rows = test.grader_idx == g_idx
            if rows.any():
                per_grader[g] = {
                    **{k: float(np.mean(v[rows])) for k, v in zip(names, fits, strict=True)},
                    "n_picks": int(rows.sum()),
                }
        mean = {k: float(np.mean([p[k] for p in per_grader.values()])) for k in names}
        spread = {k: float(np.ptp([p[k] for p in per_grader.values()])) for k in names}
        out[pool] = {"per_grader": per_grader, "mean_over_graders": mean, "spread_over_graders": spread}
    return out
