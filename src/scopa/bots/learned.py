"""The ``learned`` bot: a move scorer fitted to the expert's own choices in self-play.

Groundwork for issue 17 item 4 (a policy learned from strong bots). For each legal move
the network scores what the move leads to, from the mover's side, with public facts and its
own hand only: the card played, the cards it takes, the table it leaves, its hand after,
its pile after, the other piles together, whether it sweeps, and the stock left. The scores
of the legal moves are a policy (softmax); the bot plays the best one. The network has one
hidden layer; ``scripts/train_policy.py`` fits it with PyTorch on the decisions of the
``expert`` level playing both seats, and writes it as JSON in ``nets/learned/`` (plain numbers:
the bot runs in plain Python, so the game needs neither PyTorch nor NumPy). Only the
input bits that are set enter the first layer, so a move costs tens of microseconds.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from ..cards import NUM_CARDS
from ..moves import Move
from ..rules import Rules
from ..view import PlayerView
from .base import ScoringBot

FORMAT = 1
#: six card sets of 40 bits, then swept and the stock left
INPUTS = 6 * NUM_CARDS + 2
NETS_DIR = Path(__file__).parent / "nets" / "learned"


def move_inputs(view: PlayerView, move: Move) -> tuple[list[int], list[tuple[int, float]]]:
    """The network's inputs for ``move`` by ``view.seat``: the indices of the set card
    bits, and the other inputs as (index, value)."""
    c, taken = move
    me = view.seat
    table = view.table
    if taken:
        table_after = table & ~taken
        pile = view.captured[me] | taken | 1 << c
    else:
        table_after = table | 1 << c
        pile = view.captured[me]
    others = 0
    for seat, p in enumerate(view.captured):
        if seat != me:
            others |= p
    hand_after = view.hand & ~(1 << c)
    bits: list[int] = []
    for block, mask in enumerate((1 << c, taken, table_after, hand_after, pile, others)):
        base = NUM_CARDS * block
        while mask:
            low = mask & -mask
            bits.append(base + low.bit_length() - 1)
            mask ^= low
    swept = 1.0 if taken and not table_after else 0.0
    return bits, [(INPUTS - 2, swept), (INPUTS - 1, view.stock_size / NUM_CARDS)]


def dense(bits: list[int], values: list[tuple[int, float]]) -> list[float]:
    """The inputs as a dense vector (training and the tests' reference)."""
    x = [0.0] * INPUTS
    for i in bits:
        x[i] = 1.0
    for i, v in values:
        x[i] = v
    return x


class MoveScorer:
    """A fitted network: ``cols[i]`` is input ``i``'s weight in every hidden unit."""

    __slots__ = ("cols", "b1", "w2", "b2", "meta")

    def __init__(
        self,
        w1: list[list[float]],
        b1: list[float],
        w2: list[float],
        b2: float,
        meta: dict[str, Any] | None = None,
    ) -> None:
        if len(w1) != len(b1) or len(w2) != len(b1) or any(len(r) != INPUTS for r in w1):
            raise ValueError("the network's shapes do not match its inputs")
        self.cols = [tuple(col) for col in zip(*w1, strict=True)]
        self.b1, self.w2, self.b2 = tuple(b1), tuple(w2), float(b2)
        self.meta = meta or {}

    def score(self, bits: list[int], values: list[tuple[int, float]]) -> float:
        """The move's score (a logit of the policy)."""
        h = list(self.b1)
        cols = self.cols
        for i in bits:
            h = [a + b for a, b in zip(h, cols[i], strict=True)]
        for i, v in values:
            if v:
                h = [a + v * b for a, b in zip(h, cols[i], strict=True)]
        return self.b2 + sum(w * a for w, a in zip(self.w2, h, strict=True) if a > 0.0)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MoveScorer:
        if data.get("format") != FORMAT:
            raise ValueError(f"a move scorer of format {FORMAT} is needed")
        return cls(data["w1"], data["b1"], data["w2"], data["b2"], data.get("meta"))

    def to_dict(self) -> dict[str, Any]:
        w1 = [list(row) for row in zip(*self.cols, strict=True)]
        return {"format": FORMAT, "w1": w1, "b1": list(self.b1), "w2": list(self.w2),
                "b2": self.b2, "meta": self.meta}


def net_path(variant: str) -> Path:
    return NETS_DIR / f"{variant}.json"


@cache
def scorer_for(variant: str) -> MoveScorer:
    """The shipped network of a variant (the Scopa one for a variant without its own)."""
    path = net_path(variant)
    if not path.exists():
        path = net_path("scopa")
    return MoveScorer.from_dict(json.loads(path.read_text()))


class LearnedBot(ScoringBot):
    """Plays the legal move the learned scorer rates best (greedy policy)."""

    name = "learned"

    def __init__(self, seed: int | str | None = None, scorer: MoveScorer | None = None) -> None:
        super().__init__(seed)
        self._scorer = scorer

    def scorer(self, rules: Rules) -> MoveScorer:
        return self._scorer if self._scorer is not None else scorer_for(rules.variant)

    def score(self, view: PlayerView, move: Move) -> float:
        return self.scorer(view.rules).score(*move_inputs(view, move))
