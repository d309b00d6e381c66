"""Rough worth of single cards and sweeps in hand points, per rules.

Greedy and heuristic bots judge captures with these numbers: a card is a share of the
"cards" point, a coin a share of the "coins" point, a seven or six a share of the primiera
(or of "most sevens" in Escoba), the settebello a whole point, a sweep a whole point.
"""

from __future__ import annotations

from functools import cache

from ..cards import COINS, NUM_CARDS, RANK, RE_BELLO, SETTEBELLO
from ..rules import Rules

SWEEP = 1.0


@cache
def card_values(rules: Rules) -> tuple[float, ...]:
    """The worth of capturing each card under these rules."""
    out = []
    for c in range(NUM_CARDS):
        v = 0.1
        if COINS >> c & 1:
            v += 0.12
        rank = RANK[c]
        if rules.primiera:
            v += {7: 0.35, 6: 0.15, 1: 0.08}.get(rank, 0.0)
        if rules.sevens and rank == 7:
            v += 0.3
        if c == SETTEBELLO:
            v += 1.0
        if rules.re_bello and c == RE_BELLO:
            v += 1.0
        if rules.napola and COINS >> c & 1 and rank <= 3:
            v += 0.3
        out.append(v)
    return tuple(out)


def capture_value(rules: Rules, card: int, capture: int) -> float:
    """Worth of the cards a capture wins (the played card joins the pile too)."""
    return take_worth(card_values(rules), card, capture)


def take_worth(values: tuple[float, ...], card: int, capture: int) -> float:
    """``capture_value`` by a given per-card worth table (rollouts keep theirs at hand)."""
    total = values[card]
    m = capture
    while m:
        low = m & -m
        total += values[low.bit_length() - 1]
        m ^= low
    return total
