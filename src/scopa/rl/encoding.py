"""Observation tensors of one seat, built from its ``PlayerView`` only.

Every function here reads a ``PlayerView`` (and the public move in progress), never a
``Hand``: a hidden card cannot reach an encoding because it is not in the input. Seats are
relative to the observer (0 = the observer, 1 = the next to play, ...) and sides likewise
(0 = the observer's side), so one policy serves every seat. Layout (``Layout.sections``
names each slice; docs/rl.md has the table):

- 40-card planes (1.0 where the card is in the set): own hand, table, unseen cards (other
  hands and stock together), the card being played and the table cards taken so far in a
  move in progress (see ``actions``), then per relative seat its captured pile and the
  cards it played this hand;
- per relative seat: cards in hand / 10, sweeps / 40, last capturer, dealer, to move;
- per relative side: match score / target (capped at 1);
- stock size / 40, dealing round / number of rounds;
- how many cards of each rank (ace to king, / 4) are in the own hand, on the table and
  unseen: captures go by rank, so a learner need not find the four suits of a rank itself.

The information-state tensor (OpenSpiel) adds the whole sequence of this hand's plays:
per play slot, the relative seat, the card, the cards taken and whether it swept. An
opening sweep or a declaration (Cirulla) plays no card: its "taken" cards are the opening
table (swept) or the declared hand (none for a pass).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..cards import ALL_CARDS, NUM_CARDS, RANK_MASK
from ..meaning import meaning_of
from ..moves import is_card_play
from ..rules import Rules
from ..view import PlayerView
from .actions import NUM_ACTIONS, Turn

#: the eight bits of every byte value, lowest first: masks become planes by one lookup
_BYTE_BITS = np.unpackbits(
    np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
).astype(np.float32)
_BYTE_BITS_I8 = _BYTE_BITS.astype(np.int8)
_MASK_BYTES = NUM_CARDS // 8


def card_planes(masks: list[int]) -> np.ndarray:
    """The 40 zeros and ones of each card mask, one mask after another (float32)."""
    buf = b"".join([m.to_bytes(_MASK_BYTES, "little") for m in masks])
    return _BYTE_BITS[np.frombuffer(buf, np.uint8)].ravel()


def bits_int8(mask: int, width: int) -> np.ndarray:
    """The lowest ``width`` bits of a mask as int8 zeros and ones."""
    buf = mask.to_bytes((width + 7) // 8, "little")
    return _BYTE_BITS_I8[np.frombuffer(buf, np.uint8)].ravel()[:width]


def mask_array(bits: int) -> np.ndarray:
    """The ``NUM_ACTIONS`` int8 zeros and ones of an action mask (a new array). Masks
    repeat (a hand is the mask of every first step), so their arrays are kept."""
    array = _MASKS.get(bits)
    if array is None:
        if len(_MASKS) >= _MASKS_KEPT:
            _MASKS.clear()
        # a few legal actions (the usual case) are set one by one: cheaper than the lookup
        array = np.zeros(NUM_ACTIONS, dtype=np.int8)
        rest = bits
        while rest:
            low = rest & -rest
            array[low.bit_length() - 1] = 1
            rest ^= low
        _MASKS[bits] = array
    return array.copy()


_MASKS: dict[int, np.ndarray] = {}
_MASKS_KEPT = 1 << 14

def rank_counts(mask: int) -> list[float]:
    """How many cards of each rank (ace to king) a card set holds, / 4."""
    return [(mask & RANK_MASK[rank]).bit_count() / 4 for rank in range(1, 11)]


@dataclass(frozen=True)
class Layout:
    """Sizes and named slices of the observation (and information-state) vectors."""

    rules: Rules
    sections: dict[str, tuple[int, int]] = field(init=False)
    size: int = field(init=False)
    #: play slots in the information state: every card dealt to a hand, an opening sweep,
    #: and with declarations one per seat and round (a declaration or the seat's own pass)
    max_plays: int = field(init=False)
    info_size: int = field(init=False)

    def __post_init__(self) -> None:
        n, k = self.rules.players, self.rules.teams
        parts = [
            ("hand", NUM_CARDS), ("table", NUM_CARDS), ("unseen", NUM_CARDS),
            ("turn_card", NUM_CARDS), ("turn_taken", NUM_CARDS),
            ("captured", n * NUM_CARDS), ("played", n * NUM_CARDS),
            ("hand_sizes", n), ("sweeps", n), ("last_capturer", n), ("dealer", n),
            ("to_move", n), ("scores", k), ("stock", 1), ("round", 1),
            ("hand_ranks", 10), ("table_ranks", 10), ("unseen_ranks", 10),
        ]
        sections = {}
        at = 0
        for name, width in parts:
            sections[name] = (at, at + width)
            at += width
        object.__setattr__(self, "sections", sections)
        object.__setattr__(self, "size", at)
        rules = self.rules
        plays = NUM_CARDS - rules.table_cards + 1
        if meaning_of(rules).declares:
            plays += rules.players * len(rules.rounds)
        object.__setattr__(self, "max_plays", plays)
        object.__setattr__(self, "info_size", at + plays * self.play_width)

    @property
    def play_width(self) -> int:
        """One play slot of the information state: relative seat, card, taken, swept."""
        return self.rules.players + 2 * NUM_CARDS + 1

    def encode(self, view: PlayerView, turn: Turn | None) -> np.ndarray:
        """The observation vector of ``view.seat`` (float32, values in [0, 1])."""
        out = np.empty(self.size, dtype=np.float32)
        planes = self.sections["hand_sizes"][0]
        ranks = self.sections["hand_ranks"][0]
        masks = self.view_masks(view, turn)
        out[:planes] = card_planes(masks)
        out[planes:ranks] = self.view_numbers(view)
        # ranks of the hand, table and unseen planes
        out[ranks:] = rank_counts(masks[0]) + rank_counts(masks[1]) + rank_counts(masks[2])
        return out

    def encode_info(self, view: PlayerView, turn: Turn | None) -> np.ndarray:
        """The information-state vector: the observation, then every play of this hand."""
        out = np.zeros(self.info_size, dtype=np.float32)
        out[: self.size] = self.encode(view, turn)
        me = view.seat
        width = self.play_width
        slots = out[self.size :].reshape(self.max_plays, width)
        for i, (seat, code, swept) in enumerate(view.history):
            slots[i, self.play_ones(me, seat, code, swept)] = 1.0
        return out

    def play_ones(self, me: int, seat: int, code: int, swept: bool) -> list[int]:
        """Where the play slot of one history entry holds 1.0 (all else 0) for observer
        ``me``: the relative seat, the card (an opening sweep or a declaration plays
        none), the cards taken, and the last place if it swept."""
        n = self.rules.players
        ones = [(seat - me) % n]
        if is_card_play(code):
            ones.append(n + (code & 63))
        taken = code >> 6
        while taken:
            low = taken & -taken
            ones.append(n + NUM_CARDS + low.bit_length() - 1)
            taken ^= low
        if swept:
            ones.append(self.play_width - 1)
        return ones

    def view_masks(self, view: PlayerView, turn: Turn | None) -> list[int]:
        """The card sets of the observation, in layout order (a plane each)."""
        me = view.seat
        if me < 0:
            raise ValueError("an observation is always of a seat, not a spectator's view")
        return card_masks(
            self.orders[me], view.hand, view.table, view.unseen(), turn, view.captured,
            played_cards(self.rules.players, view.history),
        )

    def view_numbers(self, view: PlayerView) -> list[float]:
        """Counts, seats, scores, stock and round, in layout order (after the planes)."""
        return self.scalars(
            view.seat, view.hand_sizes, view.scope, view.last_capturer, view.dealer,
            -1 if view.hand_over else view.to_move, view.scores, view.stock_size, view.round,
        )

    def scalars(
        self, me: int, sizes: Sequence[int], scope: Sequence[int], last_capturer: int,
        dealer: int, to_move: int, scores: Sequence[int], stock_size: int, round_: int,
    ) -> list[float]:
        """The numbers of seat ``me``'s observation from the public fields of a view
        (``to_move`` -1 once the hand is over), in layout order."""
        rules = self.rules
        k = rules.teams
        out = self.size_numbers(me, sizes)
        out += self.sweep_numbers(me, scope)
        out += self.seat_numbers(me, last_capturer)
        out += self.seat_numbers(me, dealer)
        out += self.seat_numbers(me, to_move)
        side = me % k
        target = rules.target
        out += [min(scores[(side + j) % k] / target, 1.0) for j in range(k)]
        out += self.deal_numbers(stock_size, round_)
        return out

    def deal_numbers(self, stock_size: int, round_: int) -> list[float]:
        """The stock and round part of ``scalars`` (the part that moves only at a deal)."""
        return [stock_size / NUM_CARDS, max(round_, 0) / len(self.rules.rounds)]

    def size_numbers(self, me: int, sizes: Sequence[int]) -> list[float]:
        """The hand sizes part of ``scalars`` (the part that changes at every play)."""
        return [size_number(sizes[q]) for q in self.orders[me]]

    def sweep_numbers(self, me: int, scope: Sequence[int]) -> list[float]:
        """The sweeps part of ``scalars``."""
        return [min(scope[q], NUM_CARDS) / NUM_CARDS for q in self.orders[me]]

    def seat_numbers(self, me: int, seat: int) -> list[float]:
        """A seat (or -1: none) as a one-hot in ``me``'s relative order."""
        return _onehots(self.rules.players)[me][seat + 1]

    @property
    def orders(self) -> list[list[int]]:
        """Per observer, the absolute seats in relative order (the observer first)."""
        return _orders(self.rules.players)


def size_number(size: int) -> float:
    """A hand size as the observation gives it."""
    return size / 10


def _orders(n: int) -> list[list[int]]:
    orders = _ORDERS.get(n)
    if orders is None:
        orders = _ORDERS[n] = [[(me + j) % n for j in range(n)] for me in range(n)]
    return orders


def _onehots(n: int) -> list[list[list[float]]]:
    """Per observer, per absolute seat + 1, the one-hot of that seat in relative order
    (index 0, no seat: all zeros)."""
    hots = _ONEHOTS.get(n)
    if hots is None:
        hots = _ONEHOTS[n] = [
            [[0.0] * n] + [[1.0 if (seat - me) % n == j else 0.0 for j in range(n)]
                           for seat in range(n)]
            for me in range(n)
        ]
    return hots


_ORDERS: dict[int, list[list[int]]] = {}
_ONEHOTS: dict[int, list[list[list[float]]]] = {}


def played_cards(n: int, history: Iterable[tuple[int, int, bool]]) -> list[int]:
    """Per seat, the cards it played in these history entries (an opening sweep or a
    declaration plays none)."""
    played = [0] * n
    for seat, code, _ in history:
        played[seat] |= 1 << (code & 63)  # a mark (>= 40) is masked off below
    return [m & ALL_CARDS for m in played]


def card_masks(
    order: Sequence[int], hand: int, table: int, unseen: int, turn: Turn | None,
    captured: Sequence[int], played: Sequence[int],
) -> list[int]:
    """The card sets of an observation in layout order; ``order`` lists the absolute
    seats from the observer on, ``captured`` and ``played`` are per absolute seat."""
    return [
        hand, table, unseen,
        0 if turn is None else 1 << turn.card, 0 if turn is None else turn.taken,
        *[captured[s] for s in order], *[played[s] for s in order],
    ]
