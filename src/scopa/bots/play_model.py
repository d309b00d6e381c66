"""What another seat's plays this round say about the cards it held, by a model of a good
player.

The model is the heuristic bot's judgement of a play (what it wins, less the sweep and
exposure risks of the table it leaves, from the player's own view then): a player whose
card ``c`` had a play judged better than the one it made probably did not hold ``c``.
Each informative play becomes a clue: a weight per card, ``exp(-BETA * shortfall)``, and
a hand's likelihood under the clue is the smallest weight among its cards (the play it
would have preferred is the one that gives it away).

Only plays of the current round count: a seat's hand is refilled between rounds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from math import exp
from typing import NamedTuple

from ..cards import NUM_CARDS, rank_key
from ..moves import Move, is_card_play
from ..view import PlayerView
from .heuristic import heuristic_score
from .inference import round_plays, tables_before

#: how sharply a play rules cards out: a card whose best play looked ``x`` points better
#: than the play made keeps weight ``exp(-BETA * x)``. Champion against ``heuristic`` in
#: 2-player Scopa, the same 200 deals: +1.01 with 10, +0.92 with 5, +0.75 with missed-sweep
#: clues only (over the 400 benchmark deals the gain vanished: docs/bots.md).
BETA = 10.0


class Clue(NamedTuple):
    """One play's evidence about ``seat``'s hand: a world in which the seat holds cards
    ``H`` weighs ``min(floor, min(weights[c] for c in H))``. ``floor`` covers the cards the
    seat played later this round: they were in its hand at the time, whatever it holds now."""

    seat: int
    floor: float
    weights: tuple[float, ...]


def _before_each_play(view: PlayerView) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """For each history entry: (table, captured piles, hand sizes) just before it; the
    hand sizes only for plays of the current round."""
    tables = tables_before(view)
    this_round = set(round_plays(view))
    captured = list(view.captured)
    sizes = list(view.hand_sizes)
    out: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = [(0, (), ())] * len(view.history)
    for i in range(len(view.history) - 1, -1, -1):
        seat, code, _ = view.history[i]
        c = code & 63
        if is_card_play(code):
            if code >> 6:
                captured[seat] &= ~(code >> 6 | 1 << c)
            if i in this_round:
                sizes[seat] += 1
        out[i] = (tables[i], tuple(captured), tuple(sizes))
    return out


def play_clues(view: PlayerView) -> list[Clue]:
    """The clues of every play this round by another seat (uninformative ones left out)."""
    n = view.rules.players
    unseen = view.unseen()
    before = _before_each_play(view)
    history = view.history
    # a blank state whose table and hand are set for each play, to list its options
    probe = view.determinize([0] * n, [])
    probe.to_move = 0
    probe.undecided = 0  # the probe lists card plays only
    out = []
    for i in round_plays(view):
        seat, code, _ = history[i]
        c0 = code & 63
        if seat == view.seat:
            continue
        later = 0
        for s2, code2, _ in history[i + 1 :]:
            if s2 == seat and is_card_play(code2):
                later |= 1 << (code2 & 63)
        table, captured, sizes = before[i]
        then = dataclasses.replace(
            view,
            seat=seat,
            to_move=seat,
            hand=1 << c0 | later,
            hand_sizes=sizes,
            table=table,
            captured=captured,
            history=history[:i],
        )
        made = heuristic_score(then, Move(c0, code >> 6))
        # every play the cards it might have held had on that table
        probe.table = table
        probe.tkey = rank_key(table)
        probe.hands[0] = unseen | later
        best: dict[int, float] = {}
        for option in probe.legal_codes():
            c = option & 63
            w = heuristic_score(then, Move(c, option >> 6))
            if w > best.get(c, -1e9):
                best[c] = w
        weights = [1.0] * NUM_CARDS
        floor = 1.0
        informative = False
        for c, w in best.items():
            x = exp(-BETA * (w - made)) if w > made + 1e-9 else 1.0
            weights[c] = x
            if later >> c & 1:
                floor = min(floor, x)
            elif x < 0.999:
                informative = True
        if informative:
            out.append(Clue(seat, floor, tuple(weights)))
    return out


def clue_weight(hands: Sequence[int], clues: Sequence[Clue]) -> float:
    """The likelihood of the clues if the seats hold ``hands``."""
    w = 1.0
    for seat, floor, weights in clues:
        m = floor
        h = hands[seat]
        while h:
            low = h & -h
            x = weights[low.bit_length() - 1]
            if x < m:
                m = x
            h ^= low
        w *= m
    return w
