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

from ..cards import ALL_CARDS, NUM_CARDS
from ..game import Game
from ..view import unseen_cards
from .actions import Turn
from .encoding import Layout, card_masks

#: the entries of the first three card sets (hand, table, unseen), counted by rank too
_RANKED_CARDS = 3 * NUM_CARDS


@dataclass
class _Seat:
    """A seat's last vector, the card sets it was written from (one integer, 40 bits a
    set in layout order) and the number of history entries its numbers are of. The
    vector is a Python ``array`` of float32: writing a few of its entries costs far less
    than a numpy call, and one ``np.frombuffer`` hands out a copy."""

    vector: array[float]
    cards: int
    seen: int
    #: the inputs of the numbers that change seldom, as last written
    rare: tuple[int, tuple[int, ...], int, int] | None = None


class Tracker:
    """The observations of every seat of one game, kept up to date between steps."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        n = layout.rules.players
        self._n = n
        self._orders = layout.orders
        sec = layout.sections
        # the card sets are the first entries of the vector, 40 each, in ``card_masks``
        # order; the first three (hand, table, unseen) are also counted by rank
        assert sec["hand"][0] == 0 and sec["played"][1] == sec["hand_sizes"][0]
        ranks = sec["hand_ranks"][0]
        self._rank_slot = [ranks + i // NUM_CARDS * 10 + i % 10 for i in range(_RANKED_CARDS)]
        self._numbers = sec["hand_sizes"][0]
        self._to_move = sec["to_move"][0]
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
        seen = len(history)
        if history is not self._history or seen < self._seen:
            # another deal or another game: start again from the views
            self._history = history
            self._seen = 0
            self._played = [0] * self._n
            self._seats = [None] * self._n
        if seen > self._seen:
            played = self._played
            for p, code, _ in history[self._seen :]:
                played[p] |= 1 << (code & 63)  # a mark (>= 40) is masked off in _cards
            self._seen = seen
        cards = self._cards(game, turn, seat)
        state = self._seats[seat]
        if state is None:
            full = self.layout.encode(game.view(seat), turn)
            self._seats[seat] = _Seat(array("f", full.tobytes()), cards, seen)
            return full
        vector = state.vector
        changed = cards ^ state.cards
        if changed:
            added = changed & cards
            rank_slot = self._rank_slot
            while changed:
                low = changed & -changed
                changed ^= low
                i = low.bit_length() - 1
                if i < _RANKED_CARDS:
                    if added & low:
                        vector[i] = 1.0
                        vector[rank_slot[i]] += 0.25
                    else:
                        vector[i] = 0.0
                        vector[rank_slot[i]] -= 0.25
                else:
                    vector[i] = 1.0 if added & low else 0.0
            state.cards = cards
        if state.seen != seen:  # within a deal every change of a number adds an entry
            self._write_numbers(game, seat, state)
            state.seen = seen
        return np.frombuffer(vector[:], dtype=np.float32)

    def _write_numbers(self, game: Game, seat: int, state: _Seat) -> None:
        """Write the numbers that changed: at most plays, only the hand sizes and the
        seat to move; all of them when a capture, a sweep, a deal or the end came."""
        layout = self.layout
        vector = state.vector
        sizes = [h.bit_count() for h in game.hands]
        to_move = -1 if game.hand_over else game.to_move
        rare = (game.last_capturer, tuple(game.scope), len(game.stock), game.round)
        if rare != state.rare:
            numbers = layout.scalars(
                seat, sizes, game.scope, game.last_capturer, game.dealer, to_move,
                game.scores, len(game.stock), game.round,
            )
            at = self._numbers
            vector[at : at + len(numbers)] = array("f", numbers)
            state.rare = rare
            return
        at = self._numbers
        vector[at : at + self._n] = array("f", layout.size_numbers(seat, sizes))
        at = self._to_move
        vector[at : at + self._n] = array("f", layout.seat_numbers(seat, to_move))

    def _cards(self, game: Game, turn: Turn | None, seat: int) -> int:
        """The card sets seat ``seat`` sees, as ``PlayerView`` would give them, packed
        40 bits a set in layout order."""
        hand = game.hands[seat]
        shown: list[int] = []
        if self._declarations:
            shown = [s & h for s, h in zip(game.shown, game.hands, strict=True)]
        unseen = unseen_cards(hand, game.table, game.captured, shown)
        masks = card_masks(
            self._orders[seat], hand, game.table, unseen, turn, game.captured, self._played
        )
        packed = 0
        for m in reversed(masks):
            packed = packed << NUM_CARDS | m & ALL_CARDS
        return packed
