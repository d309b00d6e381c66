"""Alpha-beta over determinized states, and the exact search of a hand's last few plays.

``alphabeta`` is the one two-sided search loop, parametrised by where it stops and what a
leaf is worth: to the end of the hand with the exact margin (``solve``), to a fixed depth
with a static count (the ``alphabeta`` sparring bot, ``abpimc``), or to the end of the
current round with the learned value between rounds (the search's ``minimax`` worlds).

Once the stock is empty and few cards are left, the whole remaining tree is small: solve it
(alpha-beta for two sides, max-n for more) instead of guessing with rollouts.
"""

from __future__ import annotations

from collections.abc import Callable

from ..hand import Hand
from .points import side_values, utility

#: a leaf's value to the searching side
Leaf = Callable[[Hand], float]
#: a round number no hand reaches: search to the end of the hand
NO_ROUND = 1 << 30


def ordered_codes(g: Hand) -> list[int]:
    """Sweeps, then bigger captures, then lays: good moves first prune more."""
    table = g.table
    return sorted(g.legal_codes(), key=lambda c: (c >> 6 != table, -(c >> 6).bit_count()))


def alphabeta(
    g: Hand,
    side: int,
    alpha: float,
    beta: float,
    leaf: Leaf,
    depth: int = -1,
    until_round: int = NO_ROUND,
) -> float:
    """The value to ``side`` (of two sides) of ``g``, every side playing its best
    (fail-hard). A node is a leaf, valued by ``leaf``, when the hand is over, ``depth``
    more plies have been searched (a negative depth never runs out) or round
    ``until_round`` has been dealt."""
    if g.hand_over or depth == 0 or g.round >= until_round:
        return leaf(g)
    maxing = g.to_move % g.rules.teams == side
    for code in ordered_codes(g):
        h = g.copy()
        h.play_code(code)
        v = alphabeta(h, side, alpha, beta, leaf, depth - 1, until_round)
        if maxing:
            if v > alpha:
                alpha = v
        elif v < beta:
            beta = v
        if alpha >= beta:
            break
    return alpha if maxing else beta


def _maxn(g: Hand, ma: bool) -> list[float]:
    if g.hand_over:
        return side_values(g, ma)
    me = g.to_move % g.rules.teams
    best: list[float] | None = None
    for code in ordered_codes(g):
        h = g.copy()
        h.play_code(code)
        v = _maxn(h, ma)
        if best is None or v[me] > best[me]:
            best = v
    assert best is not None
    return best


def solve(g: Hand, side: int, match_aware: bool = False) -> float:
    """The exact value of a (determinized) state to ``side`` with best play by all."""
    if g.rules.teams == 2:
        return alphabeta(
            g, side, float("-inf"), float("inf"), lambda h: utility(h, side, match_aware)
        )
    return _maxn(g, match_aware)[side]
