"""The greedy bot: the best immediate capture by a simple card value, nothing more."""

from __future__ import annotations

from ..game import Move
from ..view import PlayerView
from .base import ScoringBot
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


class GreedyBot(ScoringBot):
    """Takes the most valuable capture; otherwise lays its least valuable card."""

    name = "greedy"

    def score(self, view: PlayerView, move: Move) -> float:
        return greedy_score(view, move)
