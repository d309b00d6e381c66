"""Puzzle ratings: openskill's Plackett-Luce, the game ratings' model and scale
(``players.ratings``), with the puzzle as the other side of a one-against-one game: a right
first answer is a win against the puzzle, a wrong one a loss; both ratings move."""

from __future__ import annotations

from ..players.ratings import MODEL, SCALE_START, SCALE_STEP, START, settled, shown

#: a new puzzle's uncertainty: its starting rating comes from how hard it looked, which is
#: worth more than nothing (a newcomer's sigma is openskill's 8.33)
PUZZLE_SIGMA = 5.0

__all__ = ["SCALE_START", "START", "PUZZLE_SIGMA", "mu_of", "move", "settled", "shown"]


def mu_of(rating: int) -> float:
    """The openskill mean of a rating on the shown scale (``shown``'s inverse)."""
    return MODEL.mu + (rating - SCALE_START) / SCALE_STEP


def move(player: tuple[float, float], puzzle: tuple[float, float], solved: bool
         ) -> tuple[tuple[float, float], tuple[float, float]]:
    """The player's and the puzzle's (mu, sigma) after one first answer."""
    p = MODEL.rating(mu=player[0], sigma=player[1])
    q = MODEL.rating(mu=puzzle[0], sigma=puzzle[1])
    (p2,), (q2,) = MODEL.rate([[p], [q]], ranks=[0.0, 1.0] if solved else [1.0, 0.0])
    return (p2.mu, p2.sigma), (q2.mu, q2.sigma)
