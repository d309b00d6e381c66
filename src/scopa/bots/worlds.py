"""Hidden states for the search to play out: full states consistent with a view, weighted
by what the other seats' plays reveal.

Clue kinds:

- ``plays``: every play this round, judged by a model of a good player
  (``play_model.play_clues``); a card whose best play looked clearly better than the play
  made is unlikely to have been held. Heads-up this lifted the champion against
  ``heuristic`` (docs/bots.md).
- ``sweeps``: only missed sweeps (``inference.missed_sweeps``): a seat that could have swept
  with a rank and did not probably lacks it. Cheaper, and what four-player tables use.
- ``none``: uniform worlds.

Worlds are drawn uniformly and kept with probability equal to their likelihood
(rejection sampling); when none is accepted in ``MAX_TRIES`` draws, the likeliest drawn is
used, so one clue that the true history contradicts cannot stall the search.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import NUM_CARDS, RANK_MASK
from ..game import Game
from ..view import PlayerView
from .base import imagined
from .inference import MISS_LIKELIHOOD, missed_sweeps
from .play_model import Clue, play_clues

#: rejection-sampling attempts per world before settling for the likeliest one drawn
MAX_TRIES = 24


def sweep_clues(view: PlayerView) -> list[Clue]:
    """Missed sweeps as clues: a world where the seat holds a card of the rank it could
    have swept with weighs ``MISS_LIKELIHOOD``."""
    unseen = view.unseen()
    out = []
    for seat, rank in missed_sweeps(view):
        mask = unseen & RANK_MASK[rank]
        if mask:
            weights = tuple(MISS_LIKELIHOOD if mask >> c & 1 else 1.0 for c in range(NUM_CARDS))
            out.append(Clue(seat, 1.0, weights))
    return out


CLUE_KINDS: dict[str, Callable[[PlayerView], list[Clue]]] = {
    "plays": play_clues,
    "sweeps": sweep_clues,
    "none": lambda view: [],
}


def default_clues(players: int) -> str:
    """The clue kind for a table of ``players``: ``plays`` heads-up and at three (measured
    heads-up), ``sweeps`` at four or more, where a round's many plays make the play model
    slow and its gain is unmeasured."""
    return "plays" if players <= 3 else "sweeps"


def check_clues(clues: bool | str) -> None:
    """Refuse a ``clues`` setting that is neither a bool nor a known kind."""
    if not isinstance(clues, bool) and clues not in CLUE_KINDS:
        raise ValueError(f"unknown clues {clues!r}; choose one of {', '.join(CLUE_KINDS)}")


def clue_kind(clues: bool | str, players: int) -> str:
    """Resolve a bot's ``clues`` setting: True is the table's default, False is none."""
    check_clues(clues)
    if clues is True:
        return default_clues(players)
    if clues is False:
        return "none"
    return clues


class WorldSampler:
    """Full states consistent with a view, weighted by the clues of one kind."""

    def __init__(self, view: PlayerView, rng: random.Random, clues: bool | str = True) -> None:
        self.view = view
        self.rng = rng
        self.clues = CLUE_KINDS[clue_kind(clues, view.rules.players)](view)

    def weight(self, world: Game) -> float:
        """The likelihood of the clues if ``world`` is the true state."""
        w = 1.0
        hands = world.hands
        for seat, floor, weights in self.clues:
            m = floor
            h = hands[seat]
            while h:
                low = h & -h
                x = weights[low.bit_length() - 1]
                if x < m:
                    m = x
                h ^= low
            w *= m
        return w

    def draw(self) -> Game:
        """One world; with clues, accepted with probability equal to its weight."""
        world = imagined(self.view.sample(self.rng))
        if not self.clues:
            return world
        best, best_w = world, -1.0
        for _ in range(MAX_TRIES):
            w = self.weight(world)
            if self.rng.random() < w:
                return world
            if w > best_w:
                best, best_w = world, w
            world = imagined(self.view.sample(self.rng))
        return best
