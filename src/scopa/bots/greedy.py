"""The greedy bot: the best immediate capture by a simple card value, nothing more."""

from __future__ import annotations

from ..meaning import meaning_of
from ..moves import DECLARE, Move
from ..rules import Rules
from ..view import PlayerView
from .base import ScoringBot
from .explain import is_last_play, sweep_counts_now
from .values import SWEEP, capture_value, card_values


def take_score(rules: Rules, card: int, capture: int, table: int, last_play: bool) -> float:
    """What playing ``card`` taking ``capture`` from ``table`` wins now: the worth of the
    cards taken and a sweep; a laid card costs a little of its own worth (it may be given
    away). ``last_play``: the play ends the hand."""
    if capture:
        score = capture_value(rules, card, capture)
        if capture == table and sweep_counts_now(rules, card, capture, last_play):
            score += SWEEP
        return score
    return -0.5 * card_values(rules)[card]


def greedy_score(view: PlayerView, move: Move) -> float:
    """``take_score`` of a move from a view (a declaration: the points it declares)."""
    if move.is_declaration:
        return float(meaning_of(view.rules).declaration(view.hand)) if move.card == DECLARE else 0
    return take_score(view.rules, move.card, move.capture, view.table, is_last_play(view))


class GreedyBot(ScoringBot):
    """Takes the most valuable capture; otherwise lays its least valuable card."""

    name = "greedy"

    def score(self, view: PlayerView, move: Move) -> float:
        return greedy_score(view, move)
