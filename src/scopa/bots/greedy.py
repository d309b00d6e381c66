"""The greedy bot: the best immediate capture by a simple card value, nothing more."""

from __future__ import annotations

from ..game import Move
from ..view import PlayerView
from .base import Bot, Limit
from .explain import sweep_scores
from .values import SWEEP, capture_value, card_values


def greedy_score(view: PlayerView, move: Move) -> float:
    """What the move wins now: the worth of the cards taken and a sweep; a laid card
    costs a little of its own worth (it may be given away)."""
    if move.capture:
        score = capture_value(view.rules, move.card, move.capture)
        if sweep_scores(view, move):
            score += SWEEP
        return score
    return -0.5 * card_values(view.rules)[move.card]


class GreedyBot(Bot):
    """Takes the most valuable capture; otherwise lays its least valuable card."""

    name = "greedy"

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        moves = view.legal_moves()
        if not moves:
            raise ValueError("it is not this seat's turn")
        scored = [(greedy_score(view, m), self.rng.random(), m) for m in moves]
        return max(scored, key=lambda t: (t[0], t[1]))[2]
