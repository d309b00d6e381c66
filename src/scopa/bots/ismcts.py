"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

Each iteration samples one world consistent with the view, walks the shared tree using
only the moves legal in that world (UCB with availability counts), adds one node, finishes
the hand with a rollout and backs the point margins up, each node scored for the side that
made its move. The root move with the most visits is played.

Kept next to the determinized search (``search.py``) so the two can be measured against
each other: see bench/strength.py and docs/bots.md.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

from ..hand import Hand
from .base import Limit
from .movestat import DEFAULT_SIMULATIONS, MoveStat
from .points import side_values
from .rollout import ROLLOUTS

#: exploration constant, in hand points
EXPLORATION = 1.4


class Node:
    """Statistics of one move in the tree, for the side that made it."""

    __slots__ = ("children", "visits", "avail", "total")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def _select(node: Node, codes: list[int], rng: random.Random) -> tuple[int, Node, bool]:
    """Pick a child: an untried move first (at random), else the best UCB score."""
    children = node.children
    untried = [c for c in codes if c not in children]
    for c in codes:
        child = children.get(c)
        if child is not None:
            child.avail += 1
    if untried:
        code = untried[int(rng.random() * len(untried))]
        child = children[code] = Node()
        return code, child, True
    best_code = codes[0]
    best_score = -math.inf
    for c in codes:
        ch = children[c]
        score = ch.total / ch.visits + EXPLORATION * math.sqrt(math.log(ch.avail) / ch.visits)
        if score > best_score:
            best_code, best_score = c, score
    return best_code, children[best_code], False


def ismcts(
    draw: Callable[[], Hand],
    codes: list[int],
    limit: Limit,
    rng: random.Random,
    *,
    rollout: str = "random",
    match_aware: bool = False,
) -> list[MoveStat]:
    """Search from the root's worlds; per root move: mean value for the mover and visits.

    One iteration counts as one simulation."""
    play_out = ROLLOUTS[rollout]
    root = Node()
    sims = limit.simulations
    if sims is None and limit.seconds is None:
        sims = DEFAULT_SIMULATIONS
    deadline = None if limit.seconds is None else time.perf_counter() + limit.seconds
    teams = None
    done = 0
    while True:
        g = draw()
        if teams is None:
            teams = g.rules.teams
        path: list[tuple[Node, int]] = []
        node = root
        first = True
        while not g.hand_over:
            legal = codes if first else g.legal_codes()
            first = False
            side = g.to_move % teams
            code, child, new = _select(node, legal, rng)
            g.play_code(code)
            path.append((child, side))
            node = child
            if new:
                break
        play_out(g, rng)
        values = side_values(g, match_aware)
        for n, side in path:
            n.visits += 1
            n.total += values[side]
        done += 1
        if sims is not None and done >= sims:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
    out = []
    for c in codes:
        ch = root.children.get(c)
        out.append(MoveStat(c, ch.total, ch.visits) if ch else MoveStat(c))
    return out


def most_visited(stats: list[MoveStat]) -> MoveStat:
    """The robust choice: the root move searched most (ties: the higher mean)."""
    return max(stats, key=lambda s: (s.count, s.mean))
