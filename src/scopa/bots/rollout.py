"""Rollout policies: how a determinized world is played to the end of the hand.

``random`` is the engine's tight uniform loop. ``capture`` plays like a quick, careless
human (sweep when you can, usually capture when you can, otherwise lay any card), which
judges a position far better than uniform play for about twice the cost.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import RANK, SETTEBELLO
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


#: rough worth of capturing each card for the rollout policy: settebello, sevens, coins
_WORTH = tuple(
    1.0 + (c == SETTEBELLO) * 6 + (RANK[c] == 7) * 2 + (RANK[c] == 6) + (c < 10) * 1.0
    for c in range(40)
)


def _table_sum(table: int) -> int:
    total = 0
    while table:
        low = table & -table
        total += RANK[low.bit_length() - 1]
        table ^= low
    return total


def smart_playout(g: Game, rng: random.Random) -> None:
    """Play to the end of the hand like a sound quick player: sweep when you can, else
    take the capture worth most (settebello, sevens, coins, many cards), else lay a card
    that does not leave a table summing to a capturing rank of 10 or less (equal-rank
    rules) -- chosen at random among such cards -- else any card."""
    rand = rng.random
    legal = g.legal_codes
    play = g.play_code
    worth = _WORTH
    equal = g.rules.capture == "equal"
    while not g.hand_over:
        codes = legal()
        table = g.table
        best = -1
        best_w = 0.0
        lays = []
        for code in codes:
            cap = code >> 6
            if not cap:
                lays.append(code)
                continue
            if cap == table:
                best = code
                break
            w = worth[code & 63]
            m = cap
            while m:
                low = m & -m
                w += worth[low.bit_length() - 1]
                m ^= low
            if w > best_w:
                best, best_w = code, w
        if best >= 0 and (best >> 6 == table or rand() < CAPTURE_PROB):
            play(best)
            continue
        if lays and equal:
            base = _table_sum(table)
            safe = [c for c in lays if base + RANK[c & 63] > 10]
            if safe:
                play(safe[int(rand() * len(safe))])
                continue
        play(codes[int(rand() * len(codes))])


ROLLOUTS: dict[str, Rollout] = {
    "random": random_playout,
    "capture": capture_playout,
    "smart": smart_playout,
}
