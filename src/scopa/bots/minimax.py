"""A determinized world valued by alpha-beta to the end of the current round.

The search's default heads-up world value is one rollout to the end of the round (a
``sound`` policy with random plays) and the learned value there (``round_value``). Here
the rollout is replaced by a full alpha-beta search of the rest of the round in the world,
both players playing their best, and the round's end is valued by the same network: a
heads-up round is at most six plies, so the search is cheap, its value carries no rollout
noise, and its leaves are judged by the network rather than by a static count of captured
cards (what the ``alphabeta`` sparring bot uses).

Where the round ends in the last round's deal, the leaf is valued by the network too (a
good player's likely replies there, or a solve to the hand's end, measured no better:
docs/notes/2026-12-06-core-house.md).
"""

from __future__ import annotations

from ..hand import Hand
from .exact import Leaf, alphabeta
from .points import utility
from .round_value import RoundValue


def round_leaf(side: int, net: RoundValue, match_aware: bool) -> Leaf:
    """The value to ``side`` of a state where the round search stops (the network's
    values cached for the leaf's lifetime, one move's search)."""
    cache: dict[tuple[int, ...], float] = {}

    def leaf(g: Hand) -> float:
        if g.hand_over:
            return utility(g, side, match_aware)
        return net.of(g, side, cache)

    return leaf


def round_minimax(g: Hand, side: int, round_: int, leaf: Leaf) -> float:
    """The value to ``side`` of ``g`` (a world in round ``round_``, or just past it)
    searched by alpha-beta to the end of that round."""
    return alphabeta(g, side, float("-inf"), float("inf"), leaf, until_round=round_ + 1)
