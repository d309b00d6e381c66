"""Rough worth of single cards and sweeps in hand points, per rules.

Greedy and heuristic bots judge captures with these numbers: each score item says what a
card is worth towards it (``items.ScoreItem.worth``: a card is a share of the "cards"
point, a coin a share of the "coins" point, a seven or six a share of the primiera, the
settebello a whole point), summed once per rule set in ``Meaning.card_worth``; a sweep is
a whole point.
"""

from __future__ import annotations

from ..meaning import meaning_of
from ..rules import Rules

SWEEP = 1.0


def card_values(rules: Rules) -> tuple[float, ...]:
    """The worth of capturing each card under these rules."""
    return meaning_of(rules).card_worth


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
