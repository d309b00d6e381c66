"""Rollout policies: how a determinized world is played to the end of the hand.

``random`` is the engine's tight uniform loop. ``capture`` plays like a quick, careless
human (sweep when you can, usually capture when you can, otherwise lay any card), which
judges a position far better than uniform play for about twice the cost.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..game import Game
from ..playout import random_playout

#: chance that the capture policy takes something (when it can) instead of playing at random
CAPTURE_PROB = 0.85

Rollout = Callable[[Game, random.Random], None]


def capture_playout(g: Game, rng: random.Random) -> None:
    """Play to the end of the hand: a sweep if there is one, else mostly a capture (the
    one taking the most cards), else a uniformly random card."""
    rand = rng.random
    legal = g.legal_codes
    play = g.play_code
    while not g.hand_over:
        codes = legal()
        table = g.table
        best = -1
        best_n = 0
        for code in codes:
            cap = code >> 6
            if cap:
                if cap == table:
                    best = code
                    break
                k = cap.bit_count()
                if k > best_n:
                    best, best_n = code, k
        if best >= 0 and (best >> 6 == table or rand() < CAPTURE_PROB):
            play(best)
        else:
            play(codes[int(rand() * len(codes))])


ROLLOUTS: dict[str, Rollout] = {"random": random_playout, "capture": capture_playout}
