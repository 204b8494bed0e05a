"""The alternative-annotator test (Calderon et al. 2025, §3): can an LLM judge replace a human annotator?

For every annotator j and instance i, the judge f and the annotator h_j are each aligned with a reference
(the other annotators of i: S = -RMSE; or a single expert grade: S = -|x - expert|). W_f = [S_f >= S_h],
W_h = [S_h >= S_f] (a tie counts for both), d = W_h - W_f. H0 per annotator: mean(d) >= epsilon. The test is
a one-sided t-test when n_j >= 30, else the exact Wilcoxon signed-rank test on d - epsilon. Benjamini-Yekutieli
over the m annotators; omega = rejections / m, the judge passes if omega >= 0.5.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from typing import Any, NamedTuple

import numpy as np
from scipy import stats as sps

from benger.stats._clean import is_missing, require_finite
from benger.stats._multitest import by_reject

T_TEST_MIN_N = 30
MIN_INSTANCES = 5
JudgeScores = Mapping[str, float] | Callable[[str, str], float | None]
Review = tuple[str, str, float]  # (instance, annotator, score)


class AnnotatorTest(NamedTuple):
    grader: str
    n_j: int
    rho_f: float
    rho_h: float
    d_bar: float
    test: str
    statistic: float
    p_value: float
    rejected_BY: bool


class AltTestResult(NamedTuple):
    epsilon: float
    m_annotators: int
    n_instances_total: int
    n_rejected: int
    omega: float | None
    omega_ci95: tuple[float, float] | None
    rho: float | None
    passes: bool
    per_annotator: list[AnnotatorTest]

    def to_dict(self) -> dict[str, Any]:
        out = self._asdict()
        out["omega_ci95"] = list(self.omega_ci95) if self.omega_ci95 else None
        out["per_annotator"] = [a._asdict() for a in self.per_annotator]
        return out


def _score(value: object, what: str) -> float | None:
    """A finite float, or None for a missing value (None/NaN); ``ValueError`` for anything else."""
    if is_missing(value):
        return None
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"{what}: expected a number, got {value!r}") from None
    if math.isinf(number):
        raise ValueError(f"{what}: infinite value; use None or NaN to mark a missing score")
    return number


def _judge_value(judge: JudgeScores, annotator: str, instance: str) -> float | None:
    value = judge(annotator, instance) if callable(judge) else judge.get(instance)
    return _score(value, f"judge score of instance {instance!r}")


def _outcome(s_f: float, s_h: float) -> int:
    return int(s_h >= s_f) - int(s_f >= s_h)


def blind_pool_outcomes(
    judge: JudgeScores, reviews: Sequence[Review], *, min_reviews: int = 3
) -> tuple[dict[str, list[int]], int]:
    """d per annotator against the other annotators of each instance (S = -RMSE); also the instance count.

    Instances need ``min_reviews`` reviews and a judge score; ``judge`` may depend on the annotator (GLOO).
    A missing judge score or review score (None/NaN) is left out as if absent (never compared, so never a tie);
    the instance count reports the instances actually used. ``ValueError`` for an infinite score.
    """
    by_instance: dict[str, list[tuple[str, float]]] = {}
    for instance, annotator, score in reviews:
        value = _score(score, f"review of {annotator!r} on {instance!r}")
        if value is not None:
            by_instance.setdefault(instance, []).append((annotator, value))
    outcomes: dict[str, list[int]] = {}
    used: set[str] = set()
    for instance, rows in by_instance.items():
        if len(rows) < min_reviews:
            continue
        for j, (annotator, h) in enumerate(rows):
            f = _judge_value(judge, annotator, instance)
            if f is None:
                continue
            others = [s for i, (_, s) in enumerate(rows) if i != j]
            s_f = -math.sqrt(sum((f - o) ** 2 for o in others) / len(others))
            s_h = -math.sqrt(sum((h - o) ** 2 for o in others) / len(others))
            outcomes.setdefault(annotator, []).append(_outcome(s_f, s_h))
            used.add(instance)
    return outcomes, len(used)


def single_expert_outcomes(
    judge: JudgeScores, reviews: Sequence[Review], expert: Mapping[str, float]
) -> tuple[dict[str, list[int]], int]:
    """d per annotator against one expert grade per instance (S = -|x - expert|); a missing judge, review or
    expert score (None/NaN) leaves that review out."""
    outcomes: dict[str, list[int]] = {}
    used: set[str] = set()
    for instance, annotator, score in reviews:
        f = _judge_value(judge, annotator, instance)
        h = _score(score, f"review of {annotator!r} on {instance!r}")
        ref = _score(expert.get(instance), f"expert grade of {instance!r}")
        if f is None or h is None or ref is None:
            continue
        outcomes.setdefault(annotator, []).append(_outcome(-abs(f - ref), -abs(h - ref)))
        used.add(instance)
    return outcomes, len(used)


def _annotator_test(d: np.ndarray, epsilon: float) -> tuple[str, float, float]:
    if np.isin(d, (-1.0, 0.0, 1.0)).all():  # the result depends only on the outcome counts: memoise
        return _counted_test(int((d == 0).sum()), int((d == 1).sum()), int((d == -1).sum()), float(epsilon))
    return _direct_test(d, epsilon)


@lru_cache(maxsize=4096)
def _counted_test(ties: int, losses: int, wins: int, epsilon: float) -> tuple[str, float, float]:
    return _direct_test(np.asarray([0.0] * ties + [1.0] * losses + [-1.0] * wins), epsilon)


@lru_cache(maxsize=1024)
def _clopper_pearson(k: int, m: int) -> tuple[float, float]:
    ci = sps.binomtest(k, m).proportion_ci(confidence_level=0.95, method="exact")
    return float(ci.low), float(ci.high)


def _direct_test(d: np.ndarray, epsilon: float) -> tuple[str, float, float]:
    n = d.size
    if n >= T_TEST_MIN_N:
        mean, sd = float(d.mean()), float(d.std(ddof=1))
        if sd == 0:
            return "t", float("nan"), 0.0 if mean < epsilon else 1.0
        t = (mean - epsilon) / (sd / np.sqrt(n))
        return "t", float(t), float(sps.t.cdf(t, n - 1))
    res = sps.wilcoxon(d - epsilon, alternative="less", zero_method="wilcox", method="exact")
    return "wilcoxon", float(res.statistic), float(res.pvalue)


def alt_test(
    outcomes: Mapping[str, Sequence[int]],
    *,
    epsilon: float = 0.15,
    q: float = 0.05,
    n_instances_total: int | None = None,
    min_instances: int = MIN_INSTANCES,
) -> AltTestResult:
    """Run the per-annotator tests, Benjamini-Yekutieli over annotators, omega and its Clopper-Pearson CI.

    ``outcomes`` must be complete (a missing d is a ``ValueError``: drop missing scores before computing the
    outcomes, as :func:`blind_pool_outcomes` does). No annotator with ``min_instances``: omega None, no pass.
    """
    if not 0 <= epsilon < 1 or not 0 < q < 1:
        raise ValueError(f"alt_test needs 0 <= epsilon < 1 and 0 < q < 1, got epsilon={epsilon}, q={q}")
    rows: list[AnnotatorTest] = []
    for grader in sorted(outcomes):
        d = require_finite(outcomes[grader], f"alt-test outcomes of {grader!r}")
        if d.size < min_instances:
            continue
        rho_f, rho_h = float(np.mean(d <= 0)), float(np.mean(d >= 0))
        test, stat, p = _annotator_test(d, epsilon)
        rows.append(AnnotatorTest(grader, int(d.size), rho_f, rho_h, rho_h - rho_f, test, stat, p, False))
    m = len(rows)
    total = n_instances_total if n_instances_total is not None else 0
    if m == 0:
        return AltTestResult(epsilon, 0, total, 0, None, None, None, False, [])
    rejected = by_reject([r.p_value for r in rows], q)
    rows = [r._replace(rejected_BY=bool(flag)) for r, flag in zip(rows, rejected, strict=True)]
    k = int(sum(rejected))
    omega = k / m
    rho = float(np.mean([r.rho_f for r in rows]))
    return AltTestResult(epsilon, m, total, k, omega, _clopper_pearson(k, m), rho, omega >= 0.5, rows)


# ---------------------------------------------------------------- vectorised form for bootstraps
@cache
def _signed_rank_cdf(n: int) -> np.ndarray:
    """P(W+ <= w) for w = 0..n(n+1)/2 under the exact no-ties null of the signed-rank statistic."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for r in range(1, n + 1):
        counts[r:] = counts[r:] + counts[:-r].copy()
    return np.cumsum(counts) / 2.0**n


def omega_from_counts(
    ties: np.ndarray, judge_loses: np.ndarray, judge_wins: np.ndarray, *, epsilon: float = 0.15, q: float = 0.05
) -> np.ndarray:
    """Omega for many alt-tests at once from per-annotator outcome counts of shape (R, m).

    ``ties`` = #(d = 0), ``judge_loses`` = #(d = +1), ``judge_wins`` = #(d = -1). Annotators with fewer than 5
    instances are dropped (omega is NaN when none is left). Equal to :func:`alt_test` for 0 < epsilon < 0.5,
    where d - epsilon ranks as: ties (|.| = eps) < judge losses (1 - eps) < judge wins (1 + eps), so
    W+ = losses · ties + losses · (losses + 1) / 2 under average ranks.
    """
    if not 0 < epsilon < 0.5:
        raise ValueError("the counting form needs 0 < epsilon < 0.5")
    raw = [np.asarray(x, dtype=float) for x in (ties, judge_loses, judge_wins)]
    if any(not np.isfinite(x).all() or (x < 0).any() or (x != np.round(x)).any() for x in raw):
        raise ValueError("omega_from_counts: counts must be finite non-negative integers")
    a, b, c = (x.astype(np.int64) for x in raw)
    n = a + b + c
    p = np.full(n.shape, np.inf)
    w_plus = b * a + b * (b + 1) // 2
    for size in np.unique(n[(n >= MIN_INSTANCES) & (n < T_TEST_MIN_N)]):
        mask = n == size
        p[mask] = _signed_rank_cdf(int(size))[w_plus[mask]]
    big = n >= T_TEST_MIN_N
    if big.any():
        nb = n[big].astype(float)
        mean = (b[big] - c[big]) / nb
        var = ((b[big] + c[big]) / nb - mean**2) * nb / (nb - 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (mean - epsilon) / np.sqrt(var / nb)
            p_t = sps.t.cdf(t, nb - 1)
        p[big] = np.where(var > 0, p_t, np.where(mean < epsilon, 0.0, 1.0))
    width = int(np.shape(p)[-1])
    m = (n >= MIN_INSTANCES).sum(axis=1)
    order = np.sort(p, axis=1)
    ranks = np.arange(1, width + 1)
    harmonic = np.cumsum(1.0 / ranks)
    h_m = np.where(m > 0, harmonic[np.maximum(m, 1) - 1], 1.0)
    ok = order <= ranks[None, :] / np.maximum(m, 1)[:, None] * q / h_m[:, None]
    rejections = np.where(ok.any(axis=1), width - np.argmax(ok[:, ::-1], axis=1), 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(m > 0, rejections / m, np.nan)
