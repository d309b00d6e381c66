"""Small statistics for arena reports: means with standard errors, percentiles, deal
records and ratings.

Ratings are fitted to all the deals at once (``fit_ratings``), so they depend on what
happened, never on the order the deals were played or finished in. (``choix`` fits the same
model, but needs numpy and scipy and gives neither ties nor a sigma; an arena has a handful
of bots, so a plain Newton's method does.)"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

#: two margins closer than this are a tie (margins are means of whole points)
TIE = 1e-9


@dataclass
class RunningMean:
    """A mean and its standard error kept up to date one value at a time (Welford), so a
    long run can report its margin so far without going over every deal again."""

    n: int = 0
    mean: float = 0.0
    #: sum of squared deviations from the mean
    m2: float = 0.0

    def add(self, value: float) -> None:
        self.n += 1
        delta = value - self.mean
        self.mean += delta / self.n
        self.m2 += delta * (value - self.mean)

    def mean_se(self) -> tuple[float, float]:
        """Mean and standard error of the mean (0 for fewer than two values)."""
        if self.n < 2:
            return self.mean, 0.0
        return self.mean, math.sqrt(self.m2 / (self.n - 1) / self.n)


def mean_se(values: Iterable[float]) -> tuple[float, float]:
    """Mean and standard error of the mean (0 for fewer than two values)."""
    running = RunningMean()
    for v in values:
        running.add(v)
    return running.mean_se()


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    data = sorted(values)
    pos = (len(data) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


def won_drawn_lost(margins: Sequence[float]) -> tuple[int, int, int]:
    """How many margins are above, at and below zero (a deal won, drawn, lost)."""
    won = sum(1 for m in margins if m > TIE)
    lost = sum(1 for m in margins if m < -TIE)
    return won, len(margins) - won - lost, lost


def _orders(scores: Sequence[float]) -> tuple[tuple[int, ...], ...]:
    """Every finishing order of the players (best first) that the scores allow: tied
    players may finish in any order among themselves."""
    players = sorted(range(len(scores)), key=lambda i: -scores[i])
    groups: list[list[int]] = []
    for i in players:
        if groups and abs(scores[groups[-1][0]] - scores[i]) <= TIE:
            groups[-1].append(i)
        else:
            groups.append([i])
    return tuple(
        tuple(i for part in parts for i in part)
        for parts in itertools.product(*(itertools.permutations(g) for g in groups))
    )


def _order_terms(
    order: Sequence[int], theta: Sequence[float], grad: list[float], hess: list[list[float]],
    weight: float,
) -> float:
    """Add one finishing order's Plackett-Luce log-likelihood gradient and Hessian (in
    theta, times ``weight``) to ``grad`` and ``hess``; return the log-likelihood."""
    loglik = 0.0
    for t in range(len(order) - 1):
        rest = order[t:]
        top = max(theta[j] for j in rest)
        exps = [math.exp(theta[j] - top) for j in rest]
        total = sum(exps)
        loglik += theta[order[t]] - top - math.log(total)
        probs = [e / total for e in exps]
        grad[order[t]] += weight
        for a, p in zip(rest, probs, strict=True):
            grad[a] -= weight * p
            hess[a][a] -= weight * p
            for b, q in zip(rest, probs, strict=True):
                hess[a][b] += weight * p * q
    return weight * loglik


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """x with matrix @ x = vector (Gauss-Jordan with partial pivoting; small systems)."""
    n = len(vector)
    rows = [[*row, v] for row, v in zip(matrix, vector, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                f = rows[r][col] / rows[col][col]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def fit_ratings(games: Sequence[Sequence[float]], players: int) -> list[tuple[float, float]]:
    """(mu, sigma) per player on openskill's scale, fitted to all games at once.

    A game is a score per player (higher is better: here each bot's margin on one
    duplicate deal), read as a finishing order. The model is openskill's Plackett-Luce:
    a player finishes ahead of the others left with probability ``exp(mu / c)`` over
    their sum, ``c = beta * sqrt(players)``; tied players count as every order among
    themselves, each equally (two bots drawing is half a win each). With openskill's prior
    (mu 25, sigma 25/3 per player) mu is the most probable rating given all the games
    (Newton's method on the log posterior, which is concave) and sigma the spread of the
    posterior around it (the inverse Hessian, a Laplace approximation) relative to the
    mean rating, which the games cannot move. The games enter only as counts of each
    outcome, so their order cannot matter."""
    for scores in games:
        if len(scores) != players:
            raise ValueError(f"a game has {len(scores)} scores for {players} players")
    return fit_subset_ratings([dict(enumerate(scores)) for scores in games], players, players)


def fit_subset_ratings(
    games: Sequence[Mapping[int, float]], players: int, seats: int = 2
) -> list[tuple[float, float]]:
    """``fit_ratings`` for games between some of the players (a score per player taking
    part, by player index): a pool of bots met in pairs, every pairing on the same deals.
    ``seats``: the players at a table, which sets the model's scale ``c``."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    mu0, sigma0, c = model.mu, model.sigma, model.beta * math.sqrt(seats)
    outcomes: Counter[tuple[tuple[int, ...], ...]] = Counter()
    for game in games:
        if not game or min(game) < 0 or max(game) >= players:
            raise ValueError(f"a game names players outside 0..{players - 1}: {sorted(game)}")
        ids = sorted(game)
        local = _orders([game[i] for i in ids])
        outcomes[tuple(tuple(ids[j] for j in order) for order in local)] += 1

    def terms(mu: list[float]) -> tuple[float, list[float], list[list[float]]]:
        """Log posterior (up to a constant), its gradient and Hessian in mu."""
        theta = [m / c for m in mu]
        grad = [0.0] * players
        hess = [[0.0] * players for _ in range(players)]
        value = 0.0
        for orders, count in sorted(outcomes.items()):  # sorted: the same sums
            for order in orders:
                value += _order_terms(order, theta, grad, hess, count / len(orders))
        value -= sum((m - mu0) ** 2 for m in mu) / (2 * sigma0**2)
        grad = [g / c - (m - mu0) / sigma0**2 for g, m in zip(grad, mu, strict=True)]
        hess = [[h / c**2 for h in row] for row in hess]
        for i in range(players):
            hess[i][i] -= 1 / sigma0**2
        return value, grad, hess

    mu = [mu0] * players
    value, grad, hess = terms(mu)
    for _ in range(100):
        step = _solve([[-h for h in row] for row in hess], grad)
        scale = 1.0
        while True:  # Newton with step halving: the posterior never goes down
            trial = [m + scale * s for m, s in zip(mu, step, strict=True)]
            new = terms(trial)
            if new[0] >= value - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        mu, (value, grad, hess) = trial, new
        if max(abs(scale * s) for s in step) < 1e-10:
            break
    negative = [[-h for h in row] for row in hess]
    cov = [_solve(negative, [1.0 if j == i else 0.0 for j in range(players)])
           for i in range(players)]
    # the games only tell ratings apart; their common level is the prior's alone, so
    # sigma is the spread of each rating relative to the mean rating (which stays mu0)
    row_mean = [sum(row) / players for row in cov]
    all_mean = sum(row_mean) / players
    return [
        (m, math.sqrt(max(cov[i][i] - 2 * row_mean[i] + all_mean, 0.0)))
        for i, m in enumerate(mu)
    ]
