"""Each level plays the same plays on the same deals: a level's strength is pinned, so a
change to the engine or the bots' code that should not change play (a split, a knob
removed) can show it does not.

The levels play on their simulation counts alone (no clock: a loaded machine would
otherwise cut a search short), each seat's bot seeded from the deal. The plays below were
recorded on main a3314e5 (before issue 41's bots clean-up); ``python
tests/bots/test_level_plays.py`` prints them afresh.
"""

from __future__ import annotations

import pytest

from scopa.bots.base import Limit
from scopa.bots.levels import LEVELS, LevelBot
from scopa.match import Match
from scopa.rules import Rules
from scopa.view import PlayerView

#: (variant, the level at each seat, match seed)
DEALS = [
    ("scopa", ("champion", "expert"), "pin-1"),
    ("scopa", ("expert", "champion"), "pin-2"),
    ("scopone-scientifico", ("champion", "expert", "champion", "expert"), "pin-3"),
    ("scopa", ("beginner", "intermediate"), "pin-4"),
]


def plays(variant: str, levels: tuple[str, ...], seed: str) -> list[int]:
    """The hand's plays (packed codes) with ``levels`` seated, on simulation counts only."""
    rules = Rules.preset(variant)
    bots = [LevelBot(level, f"{seed}-{s}") for s, level in enumerate(levels)]
    hand = Match(rules, seed=seed).hand
    out = []
    while not hand.hand_over:
        seat = hand.to_move
        count = LEVELS[levels[seat]].limit_for(rules.players).simulations
        limit = Limit(simulations=count) if count else None
        move = bots[seat].choose(PlayerView.of(hand, seat), limit)
        out.append(move.code)
        hand.play(move)
    return out


PINNED = {
    "pin-1": [
        4294967312, 545, 10, 134217739, 2, 1114386, 23, 12, 4, 262176, 15, 37, 538968103, 29, 1,
        25, 1188, 2147483683, 22, 24, 13, 268959750, 8, 30, 69793218565, 8796093022235, 7,
        16422, 8209, 34, 34359738377, 28, 19, 31, 20, 67108864,
    ],
    "pin-2": [
        8933531975689, 2199023255567, 26, 4294967302, 8, 7, 2, 30, 549755814160, 68719476736,
        22, 34, 1, 149, 8209, 268435488, 20, 67125287, 5, 10, 67620, 1099511627800, 18, 29, 11,
        23, 34359738387, 536870915, 4, 16777244, 12, 13, 655385, 263195, 38, 14,
    ],
    "pin-3": [
        21, 18, 33, 134217759, 1, 549755813901, 17, 139, 20, 67108894, 0, 74, 2, 268, 22,
        16777254, 23, 268435488, 35, 2199023255567, 4, 1058, 14, 1048600, 8388635, 28, 25,
        2684354579, 39, 5, 3, 35184372088861, 16, 17179869192, 7, 4194310, 26, 8229, 2569,
        4294967332,
    ],
    "pin-4": [
        269484039, 12, 262176, 2, 1, 159, 536871184, 17, 25, 39, 0, 2147483718, 17592186044434,
        11, 131093, 8388645, 15, 24, 2097187, 33, 549755813901, 1073741828, 35184372088861, 3,
        10, 65566, 9, 27, 5, 20, 67110948, 32787, 28, 34, 17179869192, 26,
    ],
}


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "levels", "seed"), DEALS, ids=[d[2] for d in DEALS])
def test_the_levels_play_the_pinned_plays(variant: str, levels: tuple[str, ...],
                                          seed: str) -> None:
    assert plays(variant, levels, seed) == PINNED[seed]


if __name__ == "__main__":
    import textwrap

    for variant, levels, seed in DEALS:
        print(f'    "{seed}": [')
        for line in textwrap.wrap(", ".join(map(str, plays(variant, levels, seed))) + ",", 88):
            print(f"        {line}")
        print("    ],")
