"""Normal and Student-t quantiles and the normal CDF from ``scipy.special``, not ``scipy.stats``.

``scipy.stats`` costs about 2 CPU-s to import on a laptop (issue 26); the leaderboard's t, normal, BCa and
Wilson intervals need only these three functions. ``scipy.stats.norm.ppf``, ``norm.cdf`` and ``t.ppf`` evaluate
the same special functions (``ndtri``, ``ndtr``, ``stdtrit``) for a standard distribution, so the values are
the same to the last bit (tests/stats/test_quantiles.py compares them).

The z of a two-sided 95 % interval, ``ndtri(0.975)``, is kept as scipy gives it (:data:`KNOWN_NORM_PPF`, compared
bit for bit with scipy by the tests): the normal and Wilson intervals at the default level then import no scipy
(``scipy.special`` costs ~0.12 CPU-s to import, a third of ``benger leaderboard --ci normal``; issue 26).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: p -> ``float(scipy.special.ndtri(p))``, to the last bit: the quantiles every default-level interval asks for.
KNOWN_NORM_PPF: dict[float, float] = {0.975: 1.959963984540054}


def norm_ppf(p: float) -> float:
    """The standard normal quantile Φ⁻¹(p)."""
    known = KNOWN_NORM_PPF.get(p)
    if known is not None:
        return known
    from scipy import special  # here: a percentile-bootstrap board needs no quantile (scipy.special ~0.25 CPU-s)

    return float(special.ndtri(p))


def norm_ppfs(ps: Sequence[float]) -> list[float]:
    """:func:`norm_ppf` of each of ``ps``."""
    from scipy import special

    return [float(v) for v in special.ndtri(np.asarray(ps, dtype=float))]


def norm_cdf(x: float) -> float:
    """The standard normal CDF Φ(x)."""
    from scipy import special

    return float(special.ndtr(x))


def t_ppf(p: float, df: float) -> float:
    """The quantile of Student's t with ``df`` degrees of freedom (df > 0)."""
    from scipy import special

    return float(special.stdtrit(df, p))
