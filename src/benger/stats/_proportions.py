"""Confidence intervals for a proportion (pass rate, Ja/Nein accuracy): Wilson score and Clopper–Pearson.

``successes`` may be fractional (a pass rate averaged over a generation's judge repeats, or over a task's
repetitions, times the number of units); fewer than ``MIN_INTERVAL_N`` units give no interval (ends ``None``).
Wilson (1927) is the default: its coverage is close to nominal at small n where the Wald interval is not
(Brown, Cai & DasGupta 2001); Clopper–Pearson (1934, the "exact" interval from the beta quantiles) never
undercovers and is wider.
"""

from __future__ import annotations

import math
from typing import Literal

from benger.stats._clean import check_confidence
from benger.stats._intervals import Interval
from benger.stats._mean_ci import MIN_INTERVAL_N
from benger.stats._quantiles import norm_ppf

ProportionMethod = Literal["wilson", "clopper-pearson"]


def proportion_ci(
    successes: float, n: int, *, confidence: float = 0.95, method: ProportionMethod = "wilson"
) -> Interval:
    """The ``method`` interval of ``successes / n`` (both ends in [0, 1]); ends None for n < 3.

    ``ValueError`` for n < 0, successes outside [0, n] or an unknown method. Examples: 7 of 10 correct gives the
    Wilson interval [0.397, 0.892] and the Clopper–Pearson interval [0.348, 0.933]."""
    check_confidence(confidence)
    if n < 0 or not 0.0 <= successes <= n or not math.isfinite(successes):
        raise ValueError(f"proportion_ci: need 0 <= successes <= n, got {successes!r} of {n!r}")
    if n == 0:
        raise ValueError("proportion_ci: no units (n = 0)")
    share = successes / n
    if n < MIN_INTERVAL_N:
        return Interval(share, None, None, n, 0)
    if method == "wilson":
        z = norm_ppf(0.5 + confidence / 2.0)
        centre = (share + z * z / (2 * n)) / (1 + z * z / n)
        half = z / (1 + z * z / n) * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n))
        return Interval(share, max(0.0, centre - half), min(1.0, centre + half), n, 0)
    if method == "clopper-pearson":
        from scipy import stats as sps  # here: the beta quantiles are needed by this interval only

        alpha = 1.0 - confidence
        low = 0.0 if successes == 0 else float(sps.beta.ppf(alpha / 2, successes, n - successes + 1))
        high = 1.0 if successes == n else float(sps.beta.ppf(1 - alpha / 2, successes + 1, n - successes))
        return Interval(share, low, high, n, 0)
    raise ValueError(f"unknown proportion interval {method!r} (wilson, clopper-pearson)")
