"""Hidden states for the search to play out: full states consistent with a view, weighted
by what the other seats' plays reveal.

Clue kinds:

- ``plays``: every play this round, judged by a model of a good player
  (``play_model.play_clues``); a card whose best play looked clearly better than the play
  made is unlikely to have been held. Heads-up this lifted the champion against
  ``heuristic`` (docs/bots.md).
- ``sweeps``: only missed sweeps (``inference.missed_sweeps``): a seat that could have swept
  with a rank and did not probably lacks it. Cheaper, and what four-player tables use.
- ``none``: uniform worlds (the ``alphabeta`` sparring bot's).

A learned card-location model and a softer play model were measured and removed (issue 41;
docs/bots.md).

Worlds are drawn uniformly and kept with probability equal to their likelihood
(rejection sampling); when none is accepted in ``MAX_TRIES`` draws, the likeliest drawn is
used, so one clue that the true history contradicts cannot stall the search.

The draws come from the playout generator (``scopa.playout.pick``), seeded by one 64-bit
draw from the sampler's ``random.Random`` per world, so that the compiled kernel
(``scopa.kernel``) and ``python_layout`` draw exactly the same worlds; the kernel is used
where it is built.
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable, Sequence

from .. import kernel
from ..cards import NUM_CARDS, RANK_MASK, cards_of
from ..hand import Hand
from ..playout import LCG_A, LCG_C, MASK64, pick
from ..view import PlayerView
from .base import imagined
from .inference import MISS_LIKELIHOOD, missed_sweeps
from .play_model import Clue, clue_weight, play_clues

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


def _filled(base: list[int], fill: list[int], cards: list[int]) -> list[int]:
    hands = []
    pos = 0
    for b, k in zip(base, fill, strict=True):
        for c in cards[pos : pos + k]:
            b |= 1 << c
        pos += k
        hands.append(b)
    return hands


def python_layout(
    hidden: list[int], base: list[int], fill: list[int], clues: Sequence[Clue], tries: int,
    x: int,
) -> tuple[list[int], list[int], int]:
    """A world's hidden layout from generator state ``x``: ``hidden`` (ascending cards)
    shuffled (Fisher-Yates from the top with ``pick``), dealt into each seat's ``fill``
    count on top of its ``base`` cards, the rest the stock (next dealt last). With clues,
    up to ``tries`` layouts, each kept if the next generator step (its top 53 bits as a
    fraction) falls below its weight, else the likeliest. Returns (hands, stock, next
    state): the reference the kernel's ``layout`` is checked against."""
    best = hidden
    best_w = -1.0
    for _ in range(tries):
        perm = hidden.copy()
        for i in range(len(perm) - 1, 0, -1):
            j, x = pick(x, i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        if not clues:
            best = perm
            break
        w = clue_weight(_filled(base, fill, perm), clues)
        x = (x * LCG_A + LCG_C) & MASK64
        if (x >> 11) * (1.0 / (1 << 53)) < w:
            best = perm
            break
        if w > best_w:
            best, best_w = perm, w
    return _filled(base, fill, best), best[sum(fill) :], x


class WorldSampler:
    """Full states consistent with a view, weighted by the clues of one kind."""

    def __init__(self, view: PlayerView, rng: random.Random, clues: bool | str = True) -> None:
        self.view = view
        self.rng = rng
        kind = clue_kind(clues, view.rules.players)
        self.clues = CLUE_KINDS[kind](view)
        #: the layout to draw: the unseen cards (ascending), each seat's cards known to
        #: this view (its own hand, a hand shown) and how many hidden cards it also holds
        self.hidden = cards_of(view.unseen())
        self.base: list[int] = []
        self.fill: list[int] = []
        for s, size in enumerate(view.hand_sizes):
            if s == view.seat:
                self.base.append(view.hand)
                self.fill.append(0)
                continue
            shown = view.shown[s] if view.shown else 0
            self.base.append(shown)
            self.fill.append(size - shown.bit_count())
        if sum(self.fill) + view.stock_size != len(self.hidden) or min(self.fill) < 0:
            raise ValueError("view is inconsistent: hidden cards do not match the counts")
        #: the clues packed once for the kernel
        self.clue_seats = [c.seat for c in self.clues]
        self.clue_floors = [c.floor for c in self.clues]
        self.clue_weights = array("d", [w for c in self.clues for w in c.weights]).tobytes()

    def weight(self, world: Hand) -> float:
        """The likelihood of the clues if ``world`` is the true state."""
        return clue_weight(world.hands, self.clues)

    def draw(self) -> Hand:
        """One world; with clues, accepted with probability equal to its weight."""
        x = self.rng.getrandbits(64)
        tries = MAX_TRIES if self.clues else 1
        drawn = kernel.layout(self.hidden, self.base, self.fill, self.clue_seats,
                              self.clue_floors, self.clue_weights, tries, x)
        if drawn is None:
            drawn = python_layout(self.hidden, self.base, self.fill, self.clues, tries, x)
        hands, stock, _ = drawn
        return imagined(self.view.determinize(hands, stock))
