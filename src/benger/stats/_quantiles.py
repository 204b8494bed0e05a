"""Normal quantiles and the normal CDF without scipy; Student-t quantiles at 95 % kept, others from ``scipy.special``.

``scipy.stats`` costs about 2 CPU-s to import on a laptop (issue 26), ``scipy.special`` still ~0.12-0.27 CPU-s
(a third of ``benger leaderboard``): the leaderboard's normal, BCa and Wilson intervals need only Φ and Φ⁻¹, so
these come from the standard library: Φ⁻¹ from ``statistics.NormalDist().inv_cdf`` (Wichura's AS241, PPND16,
about 16 significant digits), Φ from ``math.erf`` / ``math.erfc`` in cephes' own arrangement (the one
``scipy.special.ndtr`` uses: erf near 0, erfc in the tails). tests/stats/test_quantiles.py checks both against
scipy to 1e-12 (relative, and absolute near 0) over a table of values and random ones. The Student-t quantile of
a two-sided 95 % interval at df 1-250 (every t interval of ``--ci auto``, which picks t for 3-244 units) is scipy's
own ``stdtrit`` value kept in :mod:`benger.stats._t_table`; any other level or df still asks ``scipy.special``.

The z of a two-sided 95 % interval, ``ndtri(0.975)``, is kept as scipy gives it (:data:`KNOWN_NORM_PPF`, compared
bit for bit with scipy by the tests), so the default-level normal and Wilson intervals are unchanged to the bit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from benger.stats._t_table import T975, T975_P

#: p -> ``float(scipy.special.ndtri(p))``, to the last bit: the quantiles every default-level interval asks for.
KNOWN_NORM_PPF: dict[float, float] = {0.975: 1.959963984540054}
_STANDARD = NormalDist()
_SQRT_HALF = math.sqrt(0.5)


def norm_ppf(p: float) -> float:
    """The standard normal quantile Φ⁻¹(p), 0 < p < 1."""
    known = KNOWN_NORM_PPF.get(p)
    if known is not None:
        return known
    return _STANDARD.inv_cdf(p)


def norm_ppfs(ps: Sequence[float]) -> list[float]:
    """:func:`norm_ppf` of each of ``ps``."""
    return [norm_ppf(float(p)) for p in ps]


def norm_cdf(x: float) -> float:
    """The standard normal CDF Φ(x), arranged as cephes' ``ndtr`` (scipy's): 0.5 + 0.5·erf(x/√2) near 0,
    0.5·erfc(|x|/√2) (or 1 minus it) in the tails, where erf would lose the small tail probability."""
    z = x * _SQRT_HALF
    if abs(z) < _SQRT_HALF:
        return 0.5 + 0.5 * math.erf(z)
    tail = 0.5 * math.erfc(abs(z))
    return 1.0 - tail if z > 0 else tail


def t_ppf(p: float, df: float) -> float:
    """The quantile of Student's t with ``df`` degrees of freedom (df > 0): scipy's ``stdtrit``, to the bit."""
    if p == T975_P and 1 <= df <= len(T975) and df == int(df):
        return T975[int(df) - 1]
    from scipy import special

    return float(special.stdtrit(df, p))
