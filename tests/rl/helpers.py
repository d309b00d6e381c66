"""Positions for the rl tests: every preset at random points of a hand."""

from __future__ import annotations

import random

from scopa import VARIANTS, Rules
from scopa.hand import Hand
from scopa.match import Match

#: every preset at its own player count, plus teams at six and three alone
TABLES = [Rules.preset(v) for v in VARIANTS] + [
    Rules.preset("scopa", players=6, teams=3),
    Rules.preset("scopa", players=3),
]


def random_position(rules: Rules, seed: int) -> Hand:
    """A game of ``rules`` after a random number of random plays (hand not over)."""
    rng = random.Random(seed)
    game = Match(rules, hand_seed=f"pos-{seed}").hand
    for _ in range(rng.randrange(0, 30)):
        game.play_code(rng.choice(game.legal_codes()))
        if game.hand_over:
            return random_position(rules, seed + 1000)
    return game
