"""Student's t distribution, as much of it as the rating intervals need: the two-sided quantile.

A bootstrap over *G* clusters estimates a spread from *G* independent samples; an interval
built on that estimate holds its level when its reach is the t distribution's quantile with
*G* − 1 degrees of freedom rather than the normal one (the rule of cluster-robust inference,
e.g. Cameron & Miller 2015, *A Practitioner's Guide to Cluster-Robust Inference*). The
standard library has the normal distribution only, hence this module.

>>> round(two_sided_quantile(0.95, 9), 3)
2.262
"""

from __future__ import annotations

import functools
import math
import statistics
from typing import Final

__all__ = ["two_sided_quantile"]

#: Above this many degrees of freedom the quantile comes from its expansion in 1/df (Cornish–
#: Fisher, four terms), which is then exact to far below a rating's last shown digit.
_EXPANSION_DF: Final = 100


def _central(t: float, df: int) -> float:
    """P(|T| ≤ t) for T with ``df`` degrees of freedom (Abramowitz & Stegun 26.7.3–4: a finite
    sum for whole degrees of freedom)."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    if df % 2:  # odd
        total, term = 0.0, 1.0
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= cos2 * (2 * k) / (2 * k + 1)
        total = total * math.sin(theta) * math.cos(theta) if df > 1 else 0.0
        return 2.0 / math.pi * (theta + total)
    total, term = 0.0, 1.0
    for k in range(1, df // 2 + 1):
        total += term
        term *= cos2 * (2 * k - 1) / (2 * k)
    return math.sin(theta) * total


@functools.cache
def two_sided_quantile(level: float, df: int) -> float:
    """The t such that P(|T| ≤ t) = ``level`` for T with ``df`` degrees of freedom (≥ 1).

    :raises ValueError: a level outside (0, 1), or fewer than one degree of freedom.
    """
    if not 0.0 < level < 1.0:
        raise ValueError(f"a level must be between 0 and 1, not {level}")
    if df < 1:
        raise ValueError(f"the t distribution needs a degree of freedom, not {df}")
    z = statistics.NormalDist().inv_cdf(0.5 + level / 2)
    if df > _EXPANSION_DF:
        g1 = (z**3 + z) / 4
        g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
        g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
        g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
        return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4
    low, high = z, 2.0 * z
    while _central(high, df) < level:
        low, high = high, 2.0 * high
    for _ in range(100):
        middle = (low + high) / 2
        if _central(middle, df) < level:
            low = middle
        else:
            high = middle
        if high - low < 1e-12 * high:
            break
    return (low + high) / 2
