"""Every seat's observation kept up to date play by play instead of rebuilt at every step.

``Layout.encode`` builds a vector from a ``PlayerView``. That is safe by construction (a
view holds nothing hidden) but a view plus a full encoding cost more than an engine move,
and an environment hands out an observation at every step. A ``Tracker`` keeps one buffer
for all the seats of a game: the public part of the observation once, in absolute seat
order (the table, the piles and cards played of each seat, the numbers, the move in
progress), and per seat its private part (its hand, the cards it cannot see, their rank
counts). At an observation it applies the plays made since to the public part once, one
history entry at a time (a play is public: the card goes to the table or with the cards it
took to the player's pile), then the end of the hand (the table to the last capturer) and
the move in progress; the seat's private part gets the same plays (its own card leaves its
hand, another's leaves its unseen cards) and the round dealt since (its own new cards).
The seat's vector is then gathered from the buffer in its relative order (a new array).

The first observation of a deal, of another game, or after any entry that is not a card
played (an opening sweep, a declaration or a pass in Cirulla) is built in full from the
observing seat's view, with what ``Layout.encode`` is made of (``Layout.view_masks`` and
``Layout.view_numbers``) written straight into the buffer; a seat whose private part is
not kept yet gets it from its own view. So every part starts from a
view and only public plays (and the seat's own new cards) are applied to it.
``tests/rl/test_tracker.py`` checks, over random play of every preset, that the tracked
vector always equals ``Layout.encode`` of the view (so the secrecy test of the view
encodings holds for it too).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np

from ..cards import NUM_CARDS, cards_of
from ..hand import Hand
from ..view import PlayerView
from .actions import Turn
from .encoding import Layout, rank_counts, size_number

#: the private sections of an observation, in the order of a seat's private block
PRIVATE = ("hand", "unseen", "hand_ranks", "unseen_ranks")
#: the sections of one value per seat, in the observer's relative order
PER_SEAT = ("hand_sizes", "sweeps", "last_capturer", "dealer", "to_move")
#: the sections of one card plane per seat (relative order)
PER_SEAT_PLANES = ("captured", "played")


@dataclass
class _Public:
    """What the public part of the buffer was last written from."""

    #: history entries applied
    seen: int
    over: bool
    table: int
    #: the move in progress last written (its card, -1: none, and the cards taken)
    turn_card: int
    turn_taken: int
    #: the round, last capturer and sweeps the numbers were written at
    round: int
    capturer: int
    scope: list[int]


@dataclass
class _Private:
    """What a seat's private block holds (kept up to date with the public part)."""

    hand: int
    unseen: int


#: each byte of a card mask as the floats of its eight cards (lowest first)
_BYTE_FLOATS = [array("f", [float(b >> i & 1) for i in range(8)]) for b in range(256)]
def write_plane(buffer: array[float], at: int, mask: int) -> None:
    """Write a card mask's plane (1.0 where the card is in it) at ``at``, over zeros."""
    while mask:
        byte = mask & 255
        if byte:
            buffer[at : at + 8] = _BYTE_FLOATS[byte]
        mask >>= 8
        at += 8


def gather_order(layout: Layout, me: int) -> list[int]:
    """Per position of seat ``me``'s observation, its place in a tracker's buffer: the
    public part is laid out as seat 0's observation (absolute seat order), the private
    blocks of the seats follow it, one after another."""
    rules = layout.rules
    n, k = rules.players, rules.teams
    sec = layout.sections
    private_at = layout.size + me * private_size(layout)
    order = list(range(layout.size))
    block = 0
    for name in PRIVATE:
        a, b = sec[name]
        order[a:b] = range(private_at + block, private_at + block + b - a)
        block += b - a
    for name in PER_SEAT_PLANES:
        a = sec[name][0]
        for rel in range(n):
            q = (me + rel) % n
            order[a + NUM_CARDS * rel : a + NUM_CARDS * (rel + 1)] = range(
                a + NUM_CARDS * q, a + NUM_CARDS * (q + 1)
            )
    for name in PER_SEAT:
        a = sec[name][0]
        order[a : a + n] = [a + (me + rel) % n for rel in range(n)]
    a = sec["scores"][0]
    order[a : a + k] = [a + (me % k + j) % k for j in range(k)]
    return order


def private_size(layout: Layout) -> int:
    """The floats of one seat's private block."""
    return sum(b - a for a, b in (layout.sections[name] for name in PRIVATE))


class Tracker:
    """The observations of every seat of one game, kept up to date between steps."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        n = layout.rules.players
        self._n = n
        sec = layout.sections
        self._table = sec["table"][0]
        self._turn_card = sec["turn_card"][0]
        self._turn_taken = sec["turn_taken"][0]
        self._captured = sec["captured"][0]
        self._played = sec["played"][0]
        self._table_ranks = sec["table_ranks"][0]
        self._numbers = sec["hand_sizes"][0]
        self._to_move = sec["to_move"][0]
        self._last_capturer = sec["last_capturer"][0]
        self._sweeps = sec["sweeps"][0]
        self._stock = sec["stock"][0]
        #: a seat's private block: hand, unseen (40 each), then their rank counts
        self._private_size = private_size(layout)
        self._private_at = [layout.size + s * self._private_size for s in range(n)]
        self._private_zeros = array("f", bytes(4 * self._private_size))
        #: the public part (seat 0's layout, private sections unused), private blocks
        self._buffer = array("f", bytes(4 * (layout.size + n * self._private_size)))
        self._numpy = np.frombuffer(self._buffer, dtype=np.float32)
        self._orders = [gather_order(layout, me) for me in range(n)]
        self._gather = [np.array(order, dtype=np.intp) for order in self._orders]
        self._zeros = array("f", bytes(4 * len(self._buffer)))
        #: per seat, where each card set of its observation (``Layout.view_masks``) has
        #: its plane in the buffer (a plane moves whole: only seats are reordered)
        self._planes = [order[: self._numbers : NUM_CARDS] for order in self._orders]
        self._ranks = sec["hand_ranks"][0]
        #: each seat (or none) as a one-hot in absolute order, the hand sizes seen so far
        self._seat_arrays = [array("f", layout.seat_numbers(0, seat)) for seat in range(-1, n)]
        #: a hand size as its number (float32, as the encoding writes it)
        self._tenths = array("f", [size_number(q) for q in range(NUM_CARDS + 1)])
        #: the stock and round numbers of each (stock size, round)
        self._deal_arrays: dict[tuple[int, int], array[float]] = {}
        #: per seat, the other seats
        self._others = [[q for q in range(n) if q != p] for p in range(n)]
        self._history: list[tuple[int, int, bool]] | None = None
        self._public: _Public | None = None
        self._private: list[_Private | None] = [None] * n

    def reset(self) -> None:
        """Forget every vector: the next observations are built in full."""
        self._history = None

    def observe(self, game: Hand, turn: Turn | None, seat: int) -> np.ndarray:
        """Seat ``seat``'s observation (a new array: the caller may keep it)."""
        self._update(game, turn, seat)
        return self._numpy.take(self._gather[seat])

    def write(self, out: np.ndarray, game: Hand, turn: Turn | None, seat: int) -> None:
        """Write seat ``seat``'s observation into ``out`` (float32, ``layout.size``)."""
        self._update(game, turn, seat)
        self._numpy.take(self._gather[seat], out=out)

    def _update(self, game: Hand, turn: Turn | None, seat: int) -> None:
        """Bring the public part and the seat's private block up to ``game`` and ``turn``."""
        history = game.history
        if history is not self._history:  # another deal or another game
            self._history = history
            self._public = None
        public = self._public
        seen = len(history)
        if public is None or seen < public.seen:
            self._build(game, turn, seat)
            return
        # within a deal every other change adds an entry too
        if seen != public.seen and not self._advance(game, history, public):
            self._build(game, turn, seat)
            return
        if self._private[seat] is None:
            self._build_private(game, seat)
        if turn is None:
            if public.turn_card >= 0:
                self._write_turn(public, -1, 0)
        elif turn.card != public.turn_card or turn.taken != public.turn_taken:
            self._write_turn(public, turn.card, turn.taken)

    def _build(self, game: Hand, turn: Turn | None, seat: int) -> None:
        """The full encoding of the seat's view written into the buffer (the public part
        and the seat's private block; the other seats' blocks are built at their next
        observation). The values are ``Layout.encode``'s (its card sets and numbers)
        written straight into place: each card set fills one plane of the buffer, eight
        cards at a time, which costs less than the dense encoding and its scatter."""
        layout = self.layout
        view = PlayerView.of(game, seat)
        masks = layout.view_masks(view, turn)
        buffer = self._buffer
        buffer[:] = self._zeros
        for at, mask in zip(self._planes[seat], masks, strict=True):
            write_plane(buffer, at, mask)
        order = self._orders[seat]
        at = self._numbers
        for j, value in enumerate(layout.view_numbers(view)):
            buffer[order[at + j]] = value
        for i in range(3):  # hand, table, unseen: the first three sets
            at = order[self._ranks + 10 * i]
            buffer[at : at + 10] = array("f", rank_counts(masks[i]))
        self._public = _Public(
            len(game.history), game.hand_over, view.table, -1 if turn is None else turn.card,
            0 if turn is None else turn.taken, game.round, game.last_capturer, list(game.scope),
        )
        self._private = [None] * self._n
        self._private[seat] = _Private(view.hand, view.unseen())

    def _build_private(self, game: Hand, seat: int) -> None:
        """The seat's private block from its view (the public part is up to date)."""
        view = PlayerView.of(game, seat)
        hand, unseen = view.hand, view.unseen()
        buffer = self._buffer
        at = self._private_at[seat]
        buffer[at : at + self._private_size] = self._private_zeros
        write_plane(buffer, at, hand)
        write_plane(buffer, at + NUM_CARDS, unseen)
        at += 2 * NUM_CARDS
        buffer[at : at + 10] = array("f", rank_counts(hand))
        buffer[at + 10 : at + 20] = array("f", rank_counts(unseen))
        self._private[seat] = _Private(hand, unseen)

    def _write_turn(self, public: _Public, card: int, taken: int) -> None:
        """Write the move in progress (card -1: none) over the one last written."""
        buffer = self._buffer
        if public.turn_card >= 0:
            buffer[self._turn_card + public.turn_card] = 0.0
        if card >= 0:
            buffer[self._turn_card + card] = 1.0
        for c in cards_of(public.turn_taken ^ taken):
            buffer[self._turn_taken + c] = 1.0 if taken >> c & 1 else 0.0
        public.turn_card, public.turn_taken = card, taken

    def _advance(
        self, game: Hand, history: list[tuple[int, int, bool]], public: _Public
    ) -> bool:
        """Apply the history entries since the last observation: to the public part, and
        to each kept private block (the player's card leaves its hand, another's card
        leaves its unseen cards); then the round dealt since, the end of the hand, the
        numbers. False when an entry is not a card played (the caller builds in full)."""
        buffer = self._buffer
        table = public.table
        table_at, table_ranks = self._table, self._table_ranks
        captured, played = self._captured, self._played
        private, private_at, others = self._private, self._private_at, self._others
        sizes, hands, tenths = self._numbers, game.hands, self._tenths
        for p, code, _ in history[public.seen :]:
            c = code & 63
            if c >= NUM_CARDS:
                return False
            bit = 1 << c
            rank = c % 10
            own = private[p]
            if own is not None:
                own.hand ^= bit
                at = private_at[p]
                buffer[at + c] = 0.0
                buffer[at + 2 * NUM_CARDS + rank] -= 0.25
            for q in others[p]:
                other = private[q]
                if other is not None and other.unseen & bit:
                    other.unseen ^= bit
                    at = private_at[q]
                    buffer[at + NUM_CARDS + c] = 0.0
                    buffer[at + 2 * NUM_CARDS + 10 + rank] -= 0.25
            buffer[sizes + p] = tenths[hands[p].bit_count()]
            buffer[played + NUM_CARDS * p + c] = 1.0
            taken = code >> 6
            if taken:
                pile = captured + NUM_CARDS * p
                buffer[pile + c] = 1.0
                table ^= taken
                while taken:
                    low = taken & -taken
                    t = low.bit_length() - 1
                    taken ^= low
                    buffer[table_at + t] = 0.0
                    buffer[table_ranks + t % 10] -= 0.25
                    buffer[pile + t] = 1.0
            else:
                table |= bit
                buffer[table_at + c] = 1.0
                buffer[table_ranks + rank] += 0.25
        public.table = table
        public.seen = len(history)
        if game.round != public.round:
            self._dealt(game, public)
        if game.hand_over and not public.over:
            self._ended(game, public)
        to_move = -1 if game.hand_over else game.to_move
        hots = self._seat_arrays
        buffer[self._to_move : self._to_move + self._n] = hots[to_move + 1]
        if game.last_capturer != public.capturer:
            at = self._last_capturer
            buffer[at : at + self._n] = hots[game.last_capturer + 1]
            public.capturer = game.last_capturer
        if game.scope != public.scope:
            at = self._sweeps
            buffer[at : at + self._n] = array("f", self.layout.sweep_numbers(0, game.scope))
            public.scope = list(game.scope)
        return True

    def _dealt(self, game: Hand, public: _Public) -> None:
        """A round was dealt since: every hand size, the stock and round, and each kept
        private block's new cards (they leave its unseen ones)."""
        buffer = self._buffer
        at = self._stock
        key = (len(game.stock), game.round)
        numbers = self._deal_arrays.get(key)
        if numbers is None:
            numbers = self._deal_arrays[key] = array("f", self.layout.deal_numbers(*key))
        buffer[at : at + 2] = numbers
        tenths = self._tenths
        at = self._numbers
        for seat, hand in enumerate(game.hands):
            buffer[at + seat] = tenths[hand.bit_count()]
        public.round = game.round
        for seat, private in enumerate(self._private):
            if private is None:
                continue
            at = self._private_at[seat]
            ranks = at + 2 * NUM_CARDS
            new = game.hands[seat] & ~private.hand
            private.hand |= new
            private.unseen &= ~new
            while new:
                low = new & -new
                c = low.bit_length() - 1
                new ^= low
                buffer[at + c] = 1.0
                buffer[ranks + c % 10] += 0.25
                buffer[at + NUM_CARDS + c] = 0.0
                buffer[ranks + 10 + c % 10] -= 0.25

    def _ended(self, game: Hand, public: _Public) -> None:
        """The hand ended: the cards left on the table went to the last capturer."""
        buffer = self._buffer
        if game.last_capturer >= 0 and public.table:
            pile = self._captured + NUM_CARDS * game.last_capturer
            for t in cards_of(public.table):
                buffer[self._table + t] = 0.0
                buffer[self._table_ranks + t % 10] -= 0.25
                buffer[pile + t] = 1.0
            public.table = 0
        public.over = True
