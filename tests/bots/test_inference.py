"""Clues from the history: the tables before each play, and missed sweeps."""

from __future__ import annotations

import random

from scopa.bots.inference import missed_sweeps, sweeping_ranks, tables_before
from scopa.bots.worlds import WorldSampler
from scopa.cards import RANK_MASK
from scopa.match import Match
from scopa.view import PlayerView

from .helpers import cards


def test_tables_before_rebuilds_the_history() -> None:
    for variant in ["scopa", "escoba", "scopone", "asso-pigliatutto"]:
        for seed in range(5):
            g = Match.new(variant, seed=seed).hand
            rng = random.Random(seed)
            seen = [g.table] if g.history else []  # Escoba's opening sweep comes first
            if g.history:
                seen = [g.history[0][1] >> 6]
            while not g.hand_over and len(g.history) < 25:
                seen.append(g.table)
                g.play(rng.choice(g.legal_moves()))
            view = PlayerView.of(g, 0) if not g.hand_over else None
            if view is None:
                continue
            assert tables_before(view) == seen


def test_sweeping_ranks() -> None:
    from scopa import Rules

    equal = Rules.preset("scopa")
    assert sweeping_ranks(equal, cards("3d", "4c")) == [7]
    assert sweeping_ranks(equal, cards("9d")) == [9]
    assert sweeping_ranks(equal, cards("3d", "4c", "7s")) == []  # a 7 must take the 7
    assert sweeping_ranks(equal, cards("6d", "5c")) == []
    fifteen = Rules.preset("quindici")
    assert sweeping_ranks(fifteen, cards("3d", "4c")) == [8]
    assert sweeping_ranks(fifteen, cards("10d", "9c")) == []


def test_missed_sweep_is_a_clue() -> None:
    # Deal so that seat 1 (second to play) faces a table of 3+4 and lays a card instead.
    rng = random.Random(3)
    found = False
    for _ in range(300):
        g = Match.new("scopa", seed=rng.random()).hand
        view0 = PlayerView.of(g, g.to_move)
        for m in view0.legal_moves():
            h = g.copy()
            h.play(m)
            ranks = sweeping_ranks(h.rules, h.table)
            if not ranks:
                continue
            lays = [x for x in h.legal_moves() if not x.capture]
            if not lays:
                continue
            h.play(lays[0])
            if not h.table:
                continue
            clue_seat = (g.to_move + 1) % 2
            clues = missed_sweeps(PlayerView.of(h, g.to_move))
            assert (clue_seat, ranks[0]) in clues
            sampler = WorldSampler(PlayerView.of(h, g.to_move), random.Random(1), "sweeps")
            assert sampler.clues
            holds = sum(
                1 for _ in range(200)
                if sampler.draw().hands[clue_seat] & RANK_MASK[ranks[0]]
            )
            plain = sum(
                1 for _ in range(200)
                if PlayerView.of(h, g.to_move).sample(random.Random(_)).hands[clue_seat]
                & RANK_MASK[ranks[0]]
            )
            # weighted worlds give the clue's seat that rank less often than uniform ones
            assert holds < plain
            found = True
            break
        if found:
            break
    assert found
