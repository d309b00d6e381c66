"""What the other seats' plays reveal about their hands, and worlds weighted by it.

A player who could have swept the table with some rank and did not probably holds no card
of that rank. ``missed_sweeps`` finds those moments in the public history of the hand;
``WorldSampler`` draws full states from a view (uniformly, as ``PlayerView.sample`` does)
and keeps each with a probability that falls for every such clue it contradicts.
"""

from __future__ import annotations

import random

from ..cards import RANK, RANK_MASK, iter_cards
from ..game import OPENING, Game
from ..rules import Rules
from ..view import PlayerView

#: chance that a player holding a sweeping card would still not sweep
MISS_LIKELIHOOD = 0.15
#: rejection-sampling attempts per world before settling for an unweighted one
MAX_TRIES = 24


def tables_before(view: PlayerView) -> list[int]:
    """The table just before each play of this hand's history (rebuilt backwards from
    the current table: a capture puts its cards back, a laid card is lifted)."""
    out = [0] * len(view.history)
    table = view.table
    for i in range(len(view.history) - 1, -1, -1):
        _, code, _ = view.history[i]
        c = code & 63
        cap = code >> 6
        if c == OPENING:
            table = cap
        elif cap:
            table |= cap
        else:
            table &= ~(1 << c)
        out[i] = table
    return out


def sweeping_ranks(rules: Rules, table: int) -> list[int]:
    """Ranks whose play would take the whole of this (non-empty) table as a scopa."""
    if not table:
        return []
    ranks = [RANK[c] for c in iter_cards(table)]
    total = sum(ranks)
    if rules.capture == "fifteen":
        need = 15 - total
        return [need] if 1 <= need <= 10 else []
    out = []
    if rules.ace_takes_all and rules.ace_sweep_scopa and 1 not in ranks:
        out.append(1)
    if len(ranks) == 1:
        out.append(ranks[0])
    elif total <= 10 and total not in ranks:
        out.append(total)
    return out


def missed_sweeps(view: PlayerView) -> list[tuple[int, int]]:
    """(seat, rank) pairs: another seat could have swept with ``rank`` and did not, and
    every card it holds now was already in its hand then (same round of dealing)."""
    rules = view.rules
    n = rules.players
    plays_before_round = n * sum(rules.rounds[: view.round])
    out = []
    play_index = 0
    for (seat, code, swept), table in zip(view.history, tables_before(view), strict=True):
        if code & 63 == OPENING:
            continue
        this = play_index
        play_index += 1
        if seat == view.seat or swept or this < plays_before_round:
            continue
        for r in sweeping_ranks(rules, table):
            out.append((seat, r))
    return out


class WorldSampler:
    """Full states consistent with a view, weighted by the clues of missed sweeps."""

    def __init__(self, view: PlayerView, rng: random.Random, use_clues: bool = True) -> None:
        self.view = view
        self.rng = rng
        clues = missed_sweeps(view) if use_clues else []
        # Only ranks that are still unseen can be in a hidden hand.
        unseen = view.unseen()
        self.clues = [(s, RANK_MASK[r]) for s, r in clues if unseen & RANK_MASK[r]]

    def weight(self, world: Game) -> float:
        w = 1.0
        hands = world.hands
        for seat, mask in self.clues:
            if hands[seat] & mask:
                w *= MISS_LIKELIHOOD
        return w

    def draw(self) -> Game:
        """One world; with clues, accepted with probability equal to its weight."""
        world = self.view.sample(self.rng)
        if not self.clues:
            return world
        for _ in range(MAX_TRIES):
            if self.rng.random() < self.weight(world):
                return world
            world = self.view.sample(self.rng)
        return world
