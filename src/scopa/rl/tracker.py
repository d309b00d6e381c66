"""Each seat's observation kept from one step to the next: only what changed is written.

``Layout.encode`` builds a vector from a ``PlayerView``. That is safe by construction (a
view holds nothing hidden) but a view plus a full encoding cost more than an engine move,
and an environment hands out an observation at every step. A ``Tracker`` keeps each
seat's last vector with the card sets and numbers it was written from. At the seat's next
observation it reads the same card sets from the public state and the seat's own hand
(the fields a ``PlayerView`` copies, no other) and writes only the cards that changed: a
play changes a handful. The cards each seat played are followed play by play through the
new history entries. A new deal, another game, or a seat's first observation of a deal is
built in full by ``Layout.encode`` from the view, so a tracked vector never starts from
anything but the view. ``tests/rl/test_tracker.py`` checks that the tracked vectors equal
``Layout.encode`` of the view after every action of random play of every preset, and the
secrecy test runs through the tracker too.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np

from ..cards import NUM_CARDS
from ..game import Game
from ..view import unseen_cards
from .actions import Turn
from .encoding import Layout, card_masks, played_cards

#: the masks (in ``card_masks`` order) whose cards are also counted by rank
_RANKED = 3


@dataclass
class _Seat:
    """A seat's last vector and the card sets it was written from. The vector is a
    Python ``array`` of float32: writing a few of its entries costs far less than numpy's
    per-call overhead, and one ``np.array`` call hands out a copy."""

    vector: array
    masks: list[int]


class Tracker:
    """The observations of every seat of one game, kept up to date between steps."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        n = layout.rules.players
        self._n = n
        self._orders = layout.orders
        sec = layout.sections
        bases = [sec[name][0] for name in ("hand", "table", "unseen", "turn_card", "turn_taken")]
        bases += [sec["captured"][0] + j * NUM_CARDS for j in range(n)]
        bases += [sec["played"][0] + j * NUM_CARDS for j in range(n)]
        self._bases = bases
        #: per ranked set, where its rank counts start (a card's rank is ``card % 10``)
        self._rank_bases = [sec[name][0] for name in ("hand_ranks", "table_ranks", "unseen_ranks")]
        self._numbers = sec["hand_sizes"][0]
        self._declarations = layout.rules.declarations != "off"
        self._history: list[tuple[int, int, bool]] | None = None
        self._seen = 0
        self._played = [0] * n
        self._seats: list[_Seat | None] = [None] * n

    def reset(self) -> None:
        """Forget every vector: the next observations are built in full."""
        self._history = None

    def observe(self, game: Game, turn: Turn | None, seat: int) -> np.ndarray:
        """Seat ``seat``'s observation (a new array: the caller may keep it)."""
        history = game.history
        if history is not self._history or len(history) < self._seen:
            # another deal or another game: start again from the views
            self._history = history
            self._seen = 0
            self._played = [0] * self._n
            self._seats = [None] * self._n
        if len(history) > self._seen:
            new = played_cards(self._n, history[self._seen :])
            self._played = [a | b for a, b in zip(self._played, new, strict=True)]
            self._seen = len(history)
        masks = self._masks(game, turn, seat)
        state = self._seats[seat]
        if state is None:
            full = self.layout.encode(game.view(seat), turn)
            self._seats[seat] = _Seat(array("f", full.tobytes()), masks)
            return full
        vector = state.vector
        bases = self._bases
        for i, (old, now) in enumerate(zip(state.masks, masks, strict=True)):
            changed = old ^ now
            if not changed:
                continue
            base = bases[i]
            ranks = self._rank_bases[i] if i < _RANKED else -1
            while changed:
                low = changed & -changed
                changed ^= low
                c = low.bit_length() - 1
                if now & low:
                    vector[base + c] = 1.0
                    if ranks >= 0:
                        vector[ranks + c % 10] += 0.25
                else:
                    vector[base + c] = 0.0
                    if ranks >= 0:
                        vector[ranks + c % 10] -= 0.25
        state.masks = masks
        numbers = self.layout.scalars(
            seat, [h.bit_count() for h in game.hands], game.scope, game.last_capturer,
            game.dealer, -1 if game.hand_over else game.to_move, game.scores,
            len(game.stock), game.round,
        )
        at = self._numbers
        vector[at : at + len(numbers)] = array("f", numbers)
        return np.array(vector, dtype=np.float32)

    def _masks(self, game: Game, turn: Turn | None, seat: int) -> list[int]:
        """The card sets seat ``seat`` sees, as ``PlayerView`` would give them."""
        hand = game.hands[seat]
        shown: list[int] = []
        if self._declarations:
            shown = [s & h for s, h in zip(game.shown, game.hands, strict=True)]
        unseen = unseen_cards(hand, game.table, game.captured, shown)
        return card_masks(
            self._orders[seat], hand, game.table, unseen, turn, game.captured, self._played
        )
