"""The review's second opinion: the best play once the cards are all known (hindsight).

A play is judged again on the true position before it, every hand and the stock's order
seen, by the oracle (``search.oracle_values``): solved exactly once the stock is empty and
few cards are left, else valued by rollouts in that one world within the budget. This is
not what the mover could know, so it never sets the mark (the fair view does:
``review.review_play``); it says what the play would have been worth with every card seen.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..hand import Hand
from ..moves import Move
from .base import Limit
from .search import oracle_exact, oracle_values

#: two values closer than this are a tie: the play made was as good as the best
TIE = 1e-9


@dataclass(frozen=True)
class Hindsight:
    """The best play with every card seen, the points the play made lost against it (0 when
    it was as good) and whether the values are exact (solved) or rollouts' estimates."""

    best: str
    loss: float
    exact: bool


def hindsight(state: Hand, move: Move, simulations: int, seed: str) -> Hindsight:
    """Judge ``move`` on the true position ``state`` (before it) with every card seen, in
    expected hand points for the mover's side, within ``simulations``."""
    codes = state.legal_codes()
    if move.code not in codes:
        raise ValueError(f"{move} is not a legal play of this position")
    if len(codes) == 1:
        return Hindsight(str(move), 0.0, oracle_exact(state))
    stats = oracle_values(
        state, Limit(simulations=simulations), random.Random(seed), match_aware=False
    )
    top = max(stats, key=lambda st: st.mean)
    made = next(st for st in stats if st.code == move.code)
    if made.mean >= top.mean - TIE:
        return Hindsight(str(move), 0.0, oracle_exact(state))
    return Hindsight(
        str(Move.from_code(top.code)), round(top.mean - made.mean, 3), oracle_exact(state)
    )
