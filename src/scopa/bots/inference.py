"""Reading a hand's public history: the table before each play, and missed sweeps.

A player who could have swept the table with some rank and did not probably holds no card
of that rank: ``missed_sweeps`` finds those moments. ``worlds.WorldSampler`` turns them
(or the fuller ``play_model`` clues) into weighted hidden states.
"""

from __future__ import annotations

from ..cards import RANK, iter_cards
from ..game import OPENING
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

