"""Small statistics for arena reports: means with standard errors, percentiles, ratings."""

from __future__ import annotations

import math
from collections.abc import Sequence


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the mean (0 for fewer than two values)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    data = sorted(values)
    pos = (len(data) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def openskill_ratings(games: Sequence[Sequence[float]], players: int) -> list[tuple[float, float]]:
    """(mu, sigma) per player after rating each game in order; a game is a score per player
    (higher is better: here the bot's point margin on one duplicate deal)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=str(i)) for i in range(players)]
    for scores in games:
        teams = model.rate([[r] for r in ratings], scores=list(scores))
        ratings = [team[0] for team in teams]
    return [(r.mu, r.sigma) for r in ratings]
