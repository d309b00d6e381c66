"""Observation tensors of one seat, built from its ``PlayerView`` only.

Every function here reads a ``PlayerView`` (and the public move in progress), never a
``Game``: a hidden card cannot reach an encoding because it is not in the input. Seats are
relative to the observer (0 = the observer, 1 = the next to play, ...) and sides likewise
(0 = the observer's side), so one policy serves every seat. Layout (``Layout.sections``
names each slice; docs/rl.md has the table):

- 40-card planes (1.0 where the card is in the set): own hand, table, unseen cards (other
  hands and stock together), the card being played and the table cards taken so far in a
  move in progress (see ``actions``), then per relative seat its captured pile and the
  cards it played this hand;
- per relative seat: cards in hand / 10, sweeps / 40, last capturer, dealer, to move;
- per relative side: match score / target (capped at 1);
- stock size / 40, dealing round / number of rounds.

The information-state tensor (OpenSpiel) adds the whole sequence of this hand's plays:
per play slot, the relative seat, the card, the cards taken and whether it swept.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..cards import NUM_CARDS
from ..game import OPENING
from ..rules import Rules
from ..view import PlayerView
from .actions import Turn

_SHIFTS = np.arange(NUM_CARDS, dtype=np.uint64)


def card_planes(masks: list[int]) -> np.ndarray:
    """One row of 40 zeros and ones per card mask (card ``c`` in column ``c``)."""
    arr = np.array(masks, dtype=np.uint64)
    return ((arr[:, None] >> _SHIFTS) & np.uint64(1)).astype(np.float32)


@dataclass(frozen=True)
class Layout:
    """Sizes and named slices of the observation (and information-state) vectors."""

    rules: Rules
    sections: dict[str, tuple[int, int]] = field(init=False)
    size: int = field(init=False)
    #: play slots in the information state: every card dealt to a hand, plus an opening sweep
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
        ]
        sections = {}
        at = 0
        for name, width in parts:
            sections[name] = (at, at + width)
            at += width
        object.__setattr__(self, "sections", sections)
        object.__setattr__(self, "size", at)
        plays = NUM_CARDS - self.rules.table_cards + 1
        object.__setattr__(self, "max_plays", plays)
        object.__setattr__(self, "info_size", at + plays * self.play_width)

    @property
    def play_width(self) -> int:
        """One play slot of the information state: relative seat, card, taken, swept."""
        return self.rules.players + 2 * NUM_CARDS + 1

    def encode(self, view: PlayerView, turn: Turn | None) -> np.ndarray:
        """The observation vector of ``view.seat`` (float32, values in [0, 1])."""
        out = np.zeros(self.size, dtype=np.float32)
        self._fill(out, view, turn)
        return out

    def encode_info(self, view: PlayerView, turn: Turn | None) -> np.ndarray:
        """The information-state vector: the observation, then every play of this hand."""
        out = np.zeros(self.info_size, dtype=np.float32)
        self._fill(out, view, turn)
        n = self.rules.players
        me = view.seat
        width = self.play_width
        slots = out[self.size :].reshape(self.max_plays, width)
        for i, (seat, code, swept) in enumerate(view.history):
            row = slots[i]
            row[(seat - me) % n] = 1.0
            c = code & 63
            if c != OPENING:
                row[n + c] = 1.0
            taken = code >> 6
            while taken:
                low = taken & -taken
                row[n + NUM_CARDS + low.bit_length() - 1] = 1.0
                taken ^= low
            row[width - 1] = 1.0 if swept else 0.0
        return out

    def _fill(self, out: np.ndarray, view: PlayerView, turn: Turn | None) -> None:
        rules = self.rules
        n, k = rules.players, rules.teams
        me = view.seat
        if me < 0:
            raise ValueError("an observation is always of a seat, not a spectator's view")
        order = [(me + j) % n for j in range(n)]
        played = [0] * n
        for seat, code, _ in view.history:
            c = code & 63
            if c != OPENING:
                played[seat] |= 1 << c
        masks = [
            view.hand, view.table, view.unseen(),
            0 if turn is None else 1 << turn.card, 0 if turn is None else turn.taken,
        ]
        masks += [view.captured[s] for s in order]
        masks += [played[s] for s in order]
        planes = len(masks) * NUM_CARDS
        out[:planes] = card_planes(masks).ravel()
        s = self.sections
        a = s["hand_sizes"][0]
        out[a : a + n] = [view.hand_sizes[q] / 10 for q in order]
        a = s["sweeps"][0]
        out[a : a + n] = [min(view.scope[q], NUM_CARDS) / NUM_CARDS for q in order]
        if view.last_capturer >= 0:
            out[s["last_capturer"][0] + (view.last_capturer - me) % n] = 1.0
        out[s["dealer"][0] + (view.dealer - me) % n] = 1.0
        if not view.hand_over:
            out[s["to_move"][0] + (view.to_move - me) % n] = 1.0
        side = me % k
        a = s["scores"][0]
        out[a : a + k] = [min(view.scores[(side + j) % k] / rules.target, 1.0) for j in range(k)]
        out[s["stock"][0]] = view.stock_size / NUM_CARDS
        out[s["round"][0]] = max(view.round, 0) / len(rules.rounds)
