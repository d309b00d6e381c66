"""The heuristic bot: what good human players do, in one pass over the legal moves.

- hunt the settebello, sevens and coins (the greedy worth of a capture);
- deny sweeps: look at what the table sums to after the play, and charge the chance that
  the next player (always on another side) holds an unseen card that sweeps it;
- do not expose valuable cards to an unseen card of the same rank;
- keep pairs: lay a card whose twin you hold (you can take it back), or a rank whose
  other cards are all gone (nobody can match it);
- count cards: every probability is over the cards this seat has not seen.
"""

from __future__ import annotations

from math import comb

from ..cards import RANK, RANK_MASK, iter_cards
from ..game import Move
from ..view import PlayerView
from .base import ScoringBot
from .explain import is_last_play
from .greedy import greedy_score
from .inference import sweeping_ranks
from .values import SWEEP, card_values

#: bonus for laying a card whose twin is in hand, or whose rank nobody else can hold
PAIR_BONUS = 0.06


def p_holds(unseen: int, of_rank: int, hand_size: int) -> float:
    """Chance that a hand of ``hand_size`` cards drawn from ``unseen`` cards holds at least
    one of ``of_rank`` of them."""
    if of_rank <= 0 or hand_size <= 0:
        return 0.0
    if hand_size > unseen:
        return 1.0
    return 1.0 - comb(unseen - of_rank, hand_size) / comb(unseen, hand_size)


def next_hand_size(view: PlayerView) -> int:
    """How many cards the next player will hold when it plays."""
    nxt = (view.seat + 1) % view.rules.players
    size = view.hand_sizes[nxt]
    if size == 0 and view.stock_size and sum(view.hand_sizes) == 1:
        return view.rules.rounds[view.round + 1]
    return size


def heuristic_score(view: PlayerView, move: Move) -> float:
    """Greedy worth minus the sweep and exposure risks of the table the move leaves."""
    rules = view.rules
    values = card_values(rules)
    score = greedy_score(view, move)
    after = view.table & ~move.capture if move.capture else view.table | 1 << move.card
    if not after or is_last_play(view):
        return score
    unseen_mask = view.unseen()
    unseen = unseen_mask.bit_count()
    h = next_hand_size(view)
    # last play of the hand for the next player: a sweep then does not score
    sweep_counts = not (view.stock_size == 0 and sum(view.hand_sizes) == 2)
    table_worth = sum(values[c] for c in iter_cards(after))
    if sweep_counts or rules.last_sweep_counts:
        for r in sweeping_ranks(rules, after):
            p = p_holds(unseen, (unseen_mask & RANK_MASK[r]).bit_count(), h)
            score -= p * (SWEEP + table_worth)
    if rules.capture == "equal" and not rules.ace_takes_all:
        for c in iter_cards(after):
            k = (unseen_mask & RANK_MASK[RANK[c]]).bit_count()
            score -= 0.5 * p_holds(unseen, k, h) * values[c]
    if not move.capture:
        rank_cards = RANK_MASK[RANK[move.card]]
        if view.hand & rank_cards & ~(1 << move.card) or not unseen_mask & rank_cards:
            score += PAIR_BONUS
    return score


class HeuristicBot(ScoringBot):
    """Plays the move with the best heuristic score (random tie-break)."""

    name = "heuristic"

    def score(self, view: PlayerView, move: Move) -> float:
        return heuristic_score(view, move)
