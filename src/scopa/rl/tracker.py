"""Each seat's observation kept up to date play by play instead of rebuilt at every step.

``Layout.encode`` builds a vector from a ``PlayerView``. That is safe by construction (a
view holds nothing hidden) but a view plus a full encoding cost more than an engine move,
and an environment hands out an observation at every step. A ``Tracker`` keeps each
seat's last vector and, at the seat's next observation, applies the plays made since, one
history entry at a time (a play is public: the card leaves the player's hand, and goes to
the table or with the cards it took to the player's pile), then the round dealt since (the
seat's own new cards), the end of the hand (the table to the last capturer) and the move
in progress. A seat's first observation of a deal, another game, and any entry that is
not a card played (an opening sweep, a declaration or a pass in Cirulla) are built in full
by ``Layout.encode`` from the view, so a tracked vector never starts from anything but the
view. ``tests/rl/test_tracker.py`` checks, over random play of every preset, that the
tracked vector always equals ``Layout.encode`` of the view (so the secrecy test of the
view encodings holds for it too).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

import numpy as np

from ..cards import NUM_CARDS, cards_of
from ..game import Game
from .actions import Turn
from .encoding import Layout


@dataclass
class _Seat:
    """A seat's last vector and what it was written from. The vector is a Python
    ``array`` of float32: writing a few of its entries costs far less than a numpy call;
    a numpy array over the same memory (``numpy``) hands out a copy."""

    vector: array[float]
    #: history entries applied
    seen: int
    round: int
    over: bool
    hand: int
    table: int
    unseen: int
    #: the move in progress last written (its card, and the cards taken)
    turn_card: int
    turn_taken: int
    #: the round, last capturer and sweeps the numbers were written at
    numbers_round: int
    capturer: int
    scope: list[int]
    numpy: np.ndarray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.numpy = np.frombuffer(self.vector, dtype=np.float32)


class Tracker:
    """The observations of every seat of one game, kept up to date between steps."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        n = layout.rules.players
        self._n = n
        sec = layout.sections
        self._hand = sec["hand"][0]
        self._table = sec["table"][0]
        self._unseen = sec["unseen"][0]
        self._turn_card = sec["turn_card"][0]
        self._turn_taken = sec["turn_taken"][0]
        self._captured = sec["captured"][0]
        self._played = sec["played"][0]
        self._hand_ranks = sec["hand_ranks"][0]
        self._table_ranks = sec["table_ranks"][0]
        self._unseen_ranks = sec["unseen_ranks"][0]
        self._numbers = sec["hand_sizes"][0]
        self._to_move = sec["to_move"][0]
        self._last_capturer = sec["last_capturer"][0]
        self._sweeps = sec["sweeps"][0]
        self._stock = sec["stock"][0]
        #: per seat, each seat (or none) as a one-hot, and the hand sizes seen so far
        self._seat_arrays = [
            [array("f", layout.seat_numbers(me, seat)) for seat in range(-1, n)]
            for me in range(n)
        ]
        self._size_arrays: list[dict[tuple[int, ...], array[float]]] = [{} for _ in range(n)]
        self._history: list[tuple[int, int, bool]] | None = None
        self._seats: list[_Seat | None] = [None] * n

    def reset(self) -> None:
        """Forget every vector: the next observations are built in full."""
        self._history = None

    def observe(self, game: Game, turn: Turn | None, seat: int) -> np.ndarray:
        """Seat ``seat``'s observation (a new array: the caller may keep it)."""
        history = game.history
        if history is not self._history:  # another deal or another game
            self._history = history
            self._seats = [None] * self._n
        state = self._seats[seat]
        seen = len(history)
        if state is None or seen < state.seen or not self._apply(game, seat, state):
            return self._build(game, turn, seat)
        vector = state.vector
        if state.round != game.round:
            self._dealt(game, seat, state)
        if game.hand_over and not state.over:
            self._ended(game, seat, state)
        card = -1 if turn is None else turn.card
        taken = 0 if turn is None else turn.taken
        if card != state.turn_card or taken != state.turn_taken:
            if state.turn_card >= 0:
                vector[self._turn_card + state.turn_card] = 0.0
            if card >= 0:
                vector[self._turn_card + card] = 1.0
            for c in cards_of(state.turn_taken ^ taken):
                vector[self._turn_taken + c] = 1.0 if taken >> c & 1 else 0.0
            state.turn_card, state.turn_taken = card, taken
        if state.seen != seen:  # within a deal every change of a number adds an entry
            self._write_numbers(game, seat, state)
            state.seen = seen
        return state.numpy.copy()

    def _build(self, game: Game, turn: Turn | None, seat: int) -> np.ndarray:
        """The full encoding of the seat's view, kept as the seat's vector."""
        view = game.view(seat)
        full = self.layout.encode(view, turn)
        self._seats[seat] = _Seat(
            array("f", full.tobytes()), len(game.history), game.round, game.hand_over,
            view.hand, view.table, view.unseen(), -1 if turn is None else turn.card,
            0 if turn is None else turn.taken, game.round, game.last_capturer,
            list(game.scope),
        )
        return full

    def _apply(self, game: Game, seat: int, state: _Seat) -> bool:
        """Apply the history entries since the seat's last observation; False when one is
        not a card played (the caller builds the vector in full)."""
        history = game.history
        if len(history) == state.seen:
            return True
        vector = state.vector
        n = self._n
        for p, code, _ in history[state.seen :]:
            c = code & 63
            if c >= NUM_CARDS:
                return False
            rel = (p - seat) % n
            bit = 1 << c
            rank = c % 10
            if p == seat:
                state.hand ^= bit
                vector[self._hand + c] = 0.0
                vector[self._hand_ranks + rank] -= 0.25
            elif state.unseen & bit:
                state.unseen ^= bit
                vector[self._unseen + c] = 0.0
                vector[self._unseen_ranks + rank] -= 0.25
            vector[self._played + NUM_CARDS * rel + c] = 1.0
            taken = code >> 6
            if taken:
                pile = self._captured + NUM_CARDS * rel
                vector[pile + c] = 1.0
                state.table ^= taken
                for t in cards_of(taken):
                    vector[self._table + t] = 0.0
                    vector[self._table_ranks + t % 10] -= 0.25
                    vector[pile + t] = 1.0
            else:
                state.table |= bit
                vector[self._table + c] = 1.0
                vector[self._table_ranks + rank] += 0.25
        return True

    def _dealt(self, game: Game, seat: int, state: _Seat) -> None:
        """A round was dealt since: the seat's new cards leave the unseen ones."""
        vector = state.vector
        new = game.hands[seat] & ~state.hand
        for c in cards_of(new):
            vector[self._hand + c] = 1.0
            vector[self._hand_ranks + c % 10] += 0.25
            vector[self._unseen + c] = 0.0
            vector[self._unseen_ranks + c % 10] -= 0.25
        state.hand |= new
        state.unseen &= ~new
        state.round = game.round

    def _ended(self, game: Game, seat: int, state: _Seat) -> None:
        """The hand ended: the cards left on the table went to the last capturer."""
        vector = state.vector
        if game.last_capturer >= 0 and state.table:
            pile = self._captured + NUM_CARDS * ((game.last_capturer - seat) % self._n)
            for t in cards_of(state.table):
                vector[self._table + t] = 0.0
                vector[self._table_ranks + t % 10] -= 0.25
                vector[pile + t] = 1.0
            state.table = 0
        state.over = True

    def _write_numbers(self, game: Game, seat: int, state: _Seat) -> None:
        """Write the numbers that changed: after plays, the hand sizes, the seat to move,
        and the last capturer and sweeps if they moved; the stock and round after a deal
        (the dealer and the match scores move only from one deal to the next, which the
        vector is built in full for)."""
        layout = self.layout
        vector = state.vector
        to_move = -1 if game.hand_over else game.to_move
        if game.round != state.numbers_round:  # the dealer and scores stay all the deal
            at = self._stock
            vector[at : at + 2] = array("f", layout.deal_numbers(len(game.stock), game.round))
            state.numbers_round = game.round
        n = self._n
        sizes = tuple([h.bit_count() for h in game.hands])
        kept = self._size_arrays[seat]
        values = kept.get(sizes)
        if values is None:
            values = kept[sizes] = array("f", layout.size_numbers(seat, sizes))
        vector[self._numbers : self._numbers + n] = values
        hots = self._seat_arrays[seat]
        vector[self._to_move : self._to_move + n] = hots[to_move + 1]
        if game.last_capturer != state.capturer:
            at = self._last_capturer
            vector[at : at + n] = hots[game.last_capturer + 1]
            state.capturer = game.last_capturer
        if game.scope != state.scope:
            at = self._sweeps
            vector[at : at + n] = array("f", layout.sweep_numbers(seat, game.scope))
            state.scope = list(game.scope)
