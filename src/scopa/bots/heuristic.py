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

from ..cards import ALL_CARDS, RANK, RANK_MASK, iter_cards, rank_key
from ..hand import Hand
from ..meaning import meaning_of
from ..moves import DECLARE, MARKS, Move
from ..rules import Rules
from ..view import PlayerView
from .base import ScoringBot
from .greedy import take_score
from .values import SWEEP

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


def play_score(
    rules: Rules,
    card: int,
    capture: int,
    *,
    hand: int,
    table: int,
    unseen_mask: int,
    next_hand: int,
    stock_size: int,
    in_hands: int,
) -> float:
    """The heuristic's score of playing ``card`` taking ``capture``, from the facts the
    mover knows: its hand, the table, the cards it has not seen, how many cards the next
    player will hold, the stock's size and how many cards are in all hands."""
    meaning = meaning_of(rules)
    if card >= MARKS:  # a declaration: declaring wins its points, passing nothing
        return float(meaning.declaration(hand)) if card == DECLARE else 0.0
    values = meaning.card_worth
    last_play = stock_size == 0 and in_hands == 1
    score = take_score(rules, card, capture, table, last_play)
    after = table & ~capture if capture else table | 1 << card
    if not after or last_play:
        return score
    unseen = unseen_mask.bit_count()
    # last play of the hand for the next player: a sweep then scores only if the rules say
    next_is_last = stock_size == 0 and in_hands == 2
    table_worth = sum(values[c] for c in iter_cards(after))
    if not next_is_last or meaning.last_play_sweeps:
        for r in meaning.sweeping_ranks(rank_key(after)):
            p = p_holds(unseen, (unseen_mask & RANK_MASK[r]).bit_count(), next_hand)
            score -= p * (SWEEP + table_worth)
    if meaning.equal_pairs:
        for c in iter_cards(after):
            k = (unseen_mask & RANK_MASK[RANK[c]]).bit_count()
            score -= 0.5 * p_holds(unseen, k, next_hand) * values[c]
    if not capture:
        rank_cards = RANK_MASK[RANK[card]]
        if hand & rank_cards & ~(1 << card) or not unseen_mask & rank_cards:
            score += PAIR_BONUS
    return score


def heuristic_score(view: PlayerView, move: Move) -> float:
    """Greedy worth minus the sweep and exposure risks of the table the move leaves."""
    return play_score(
        view.rules,
        move.card,
        move.capture,
        hand=view.hand,
        table=view.table,
        unseen_mask=view.unseen(),
        next_hand=next_hand_size(view),
        stock_size=view.stock_size,
        in_hands=sum(view.hand_sizes),
    )


def game_score(g: Hand, code: int) -> float:
    """``heuristic_score`` of a packed move by the seat to move in a full state, from what
    that seat may see there (its own hand and the public cards): how a search models a
    good player's reply without building a view."""
    seen = g.hands[g.to_move] | g.table
    for pile in g.captured:
        seen |= pile
    for shown, held in zip(g.shown, g.hands, strict=True):
        seen |= shown & held  # declared hands are public
    nxt = g.hands[(g.to_move + 1) % g.n].bit_count()
    if nxt == 0 and g.stock and g.in_hands == 1:
        nxt = g.rules.rounds[g.round + 1]
    return play_score(
        g.rules,
        code & 63,
        code >> 6,
        hand=g.hands[g.to_move],
        table=g.table,
        unseen_mask=ALL_CARDS & ~seen,
        next_hand=nxt,
        stock_size=len(g.stock),
        in_hands=g.in_hands,
    )


class HeuristicBot(ScoringBot):
    """Plays the move with the best heuristic score (random tie-break)."""

    name = "heuristic"

    def score(self, view: PlayerView, move: Move) -> float:
        return heuristic_score(view, move)
