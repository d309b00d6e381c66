"""Exact search of a determinized hand's last few plays.

Once the stock is empty and few cards are left, the whole remaining tree is small: solve it
(alpha-beta for two sides, max-n for more) instead of guessing with rollouts.
"""

from __future__ import annotations

from ..game import Game
from .points import side_values


def ordered_codes(g: Game) -> list[int]:
    """Sweeps, then bigger captures, then lays: good moves first prune more."""
    table = g.table
    return sorted(g.legal_codes(), key=lambda c: (c >> 6 != table, -(c >> 6).bit_count()))


def _alphabeta(g: Game, side: int, alpha: float, beta: float, ma: bool) -> float:
    if g.hand_over:
        return side_values(g, ma)[side]
    maxing = g.to_move % g.rules.teams == side
    for code in ordered_codes(g):
        h = g.copy()
        h.play_code(code)
        v = _alphabeta(h, side, alpha, beta, ma)
        if maxing:
            if v > alpha:
                alpha = v
        elif v < beta:
            beta = v
        if alpha >= beta:
            break
    return alpha if maxing else beta


def _maxn(g: Game, ma: bool) -> list[float]:
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


def solve(g: Game, side: int, match_aware: bool = False) -> float:
    """The exact value of a (determinized) state to ``side`` with best play by all."""
    if g.rules.teams == 2:
        return _alphabeta(g, side, float("-inf"), float("inf"), match_aware)
    return _maxn(g, match_aware)[side]
