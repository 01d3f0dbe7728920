"""Figures with honest uncertainty: 95 % intervals for win rates and mean scores, and a ranking
that says whether it is significant.

* A win rate is a proportion of seats won: its interval is Wilson's score interval,
  which stays inside [0, 1] and behaves at 0 % and 100 % and on few games.
* A mean score gets Student's t interval (the normal one past 30 seats): scores are
  bounded and the counts large, so the central limit theorem holds well.
* The ranking orders the bots by win rate.  Two neighbours in it are *separated* when
  their 95 % intervals do not overlap; the ranking is called significant when every
  pair of neighbours is separated.  Non-overlapping 95 % intervals is a stricter test
  than a 5 % two-sample test, which makes up for testing several pairs at once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054

_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
"""Student's t quantile 0.975 for 1 … 30 degrees of freedom."""


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a proportion (``(0, 1)`` with no trials)."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def t_quantile(df: int) -> float:
    """The 97.5 % quantile of Student's t (the normal one past 30 degrees of freedom)."""
    if df < 1:
        return math.inf
    return _T975[df - 1] if df <= len(_T975) else Z95


def mean_interval(total: float, squares: float, count: int) -> tuple[float, float, float]:
    """Mean and 95 % interval from a sum, a sum of squares and a count."""
    if count <= 0:
        return 0.0, 0.0, 0.0
    mean = total / count
    if count == 1:
        return mean, -math.inf, math.inf
    variance = max(0.0, (squares - total * total / count) / (count - 1))
    half = t_quantile(count - 1) * math.sqrt(variance / count)
    return mean, mean - half, mean + half


@dataclass(frozen=True)
class Ranked:
    """One bot's place in the ranking."""

    name: str
    rate: float
    low: float
    high: float
    separated_from_next: bool | None
    """Whether its interval lies wholly above the next bot's (None for the last)."""


def ranking(rows: Sequence[tuple[str, float, int]]) -> list[Ranked]:
    """Bots ``(name, wins, seats)`` ordered by win rate, each with its interval and separation."""
    figures = []
    for name, wins, seats in rows:
        low, high = wilson(wins, seats)
        figures.append((name, wins / seats if seats else 0.0, low, high))
    figures.sort(key=lambda f: (-f[1], f[0]))
    ranked = []
    for i, (name, rate, low, high) in enumerate(figures):
        separated = None if i + 1 == len(figures) else low > figures[i + 1][3]
        ranked.append(Ranked(name, rate, low, high, separated))
    return ranked


def significant(ranked: Sequence[Ranked]) -> bool:
    """Every pair of neighbours in the ranking is separated."""
    return all(r.separated_from_next is not False for r in ranked)
