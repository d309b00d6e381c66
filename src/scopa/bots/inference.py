"""Reading a hand's public history: the table before each play, and missed sweeps.

A player who could have swept the table with some rank and did not probably holds no card
of that rank: ``missed_sweeps`` finds those moments. ``worlds.WorldSampler`` turns them
(or the fuller ``play_model`` clues) into weighted hidden states.
"""

from __future__ import annotations

from ..cards import rank_key
from ..meaning import meaning_of
from ..moves import OPENING, is_card_play
from ..rules import Rules
from ..view import PlayerView

#: chance that a player holding a sweeping card would still not sweep
MISS_LIKELIHOOD = 0.15


def tables_before(view: PlayerView) -> list[int]:
    """The table just before each play of this hand's history (rebuilt backwards from
    the current table: a capture puts its cards back, a laid card is lifted)."""
    out = [0] * len(view.history)
    table = view.table
    for i in range(len(view.history) - 1, -1, -1):
        _, code, _ = view.history[i]
        c = code & 63
        cap = code >> 6
        if not is_card_play(code):
            if c == OPENING:
                table = cap
        elif cap:
            table |= cap
        else:
            table &= ~(1 << c)
        out[i] = table
    return out


def sweeping_ranks(rules: Rules, table: int) -> list[int]:
    """Ranks whose play would take the whole of this (non-empty) table as a scopa (the
    rules' own answer: ``Meaning.sweeping_ranks``)."""
    return meaning_of(rules).sweeping_ranks(rank_key(table))


def round_plays(view: PlayerView) -> list[int]:
    """Indices into ``view.history`` of the plays of the current round of dealing (the
    only ones that say something about the cards a seat holds now)."""
    start = view.rules.players * sum(view.rules.rounds[: view.round])
    out = []
    played = 0
    for i, (_, code, _) in enumerate(view.history):
        if not is_card_play(code):
            continue
        if played >= start:
            out.append(i)
        played += 1
    return out


def missed_sweeps(view: PlayerView) -> list[tuple[int, int]]:
    """(seat, rank) pairs: another seat could have swept with ``rank`` and did not, and
    every card it holds now was already in its hand then (same round of dealing)."""
    tables = tables_before(view)
    out = []
    for i in round_plays(view):
        seat, _, swept = view.history[i]
        if seat == view.seat or swept:
            continue
        for r in sweeping_ranks(view.rules, tables[i]):
            out.append((seat, r))
    return out
