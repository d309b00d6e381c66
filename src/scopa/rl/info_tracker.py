"""Each seat's information-state vector kept up to date instead of rebuilt at every call.

The information state (``Layout.encode_info``) is the observation followed by one slot
per play of the hand. The observation part comes from a ``Tracker``; the play slots only
ever grow within a deal (one per history entry the seat sees, never rewritten), so each
seat keeps its slots and writes those of the entries since its last call (``Layout.play_ones``, the
same function the full encoding uses). Another deal or another game starts from zeros.
``tests/rl/test_info_tracker.py`` checks it equals ``Layout.encode_info`` of the view
over random play of every preset.
"""

from __future__ import annotations

from array import array

import numpy as np

from ..hand import Hand
from ..view import seen_by
from .actions import Turn
from .encoding import Layout
from .tracker import Tracker

#: a seat's play slots: float32 values, a numpy array over them, entries read, slots written
_Slots = tuple["array[float]", np.ndarray, int, int]


class InfoTracker:
    """The information-state vectors of every seat of one game, kept between calls."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        #: the observation part (also what an observation-only caller reads)
        self.tracker = Tracker(layout)
        self._history: list[tuple[int, int, bool]] | None = None
        #: per seat, its play slots as float32 (and a numpy array over them), the history
        #: entries read and the slots written (another seat's pass takes none: ``seen_by``)
        self._slots: list[_Slots | None] = [None] * layout.rules.players

    def reset(self) -> None:
        """Forget every vector: the next ones are built from the start."""
        self.tracker.reset()
        self._history = None

    def observe(self, game: Hand, turn: Turn | None, seat: int) -> np.ndarray:
        """Seat ``seat``'s information-state vector (a new array)."""
        out = np.empty(self.layout.info_size, dtype=np.float32)
        self.write(out, game, turn, seat)
        return out

    def write(self, out: np.ndarray, game: Hand, turn: Turn | None, seat: int) -> None:
        """Write seat ``seat``'s information-state vector into ``out``."""
        layout = self.layout
        self.tracker.write(out[: layout.size], game, turn, seat)
        history = game.history
        if history is not self._history:  # another deal or another game
            self._history = history
            self._slots = [None] * layout.rules.players
        kept = self._slots[seat]
        width = layout.play_width
        if kept is None or kept[2] > len(history):
            zeros = array("f", bytes(4 * width * layout.max_plays))
            kept = (zeros, np.frombuffer(zeros, dtype=np.float32), 0, 0)
        slots, numpy, read, written = kept
        for entry in history[read:]:
            if not seen_by(seat, entry):  # the seat's view has no slot for it
                continue
            base = written * width
            for j in layout.play_ones(seat, *entry):
                slots[base + j] = 1.0
            written += 1
        self._slots[seat] = (slots, numpy, len(history), written)
        out[layout.size :] = numpy
