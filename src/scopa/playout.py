"""Random playouts in one tight loop: the rollout of search bots.

The rollout policy is "a uniformly random card from hand, then a uniformly random one of the
captures the rules allow for it" (a card with no capture is laid). It keeps the state in local
variables for the whole hand and never lists the moves of cards it does not play, which makes
it several times faster than ``legal_codes`` / ``play_code`` per play.
"""

from __future__ import annotations

import random

from .captures import _expand_slow
from .cards import RANK_KEY
from .game import _HAND_CARDS, DECLARE, Game, held_cards


def random_playout(g: Game, rng: random.Random) -> None:
    """Play random cards until the hand is over, in place.

    For speed the plays are not added to ``g.history``; scores and piles are exact. Where
    hands may be declared (Cirulla), every seat that may declare does, and the plays go
    through ``legal_codes`` / ``play_code`` (the same policy, a little slower)."""
    if g.hand_over:
        return
    if g.rules.declarations != "off":
        _playout_by_moves(g, rng)
        return
    g.state_changed()
    rand = rng.random
    solver = g.meaning.solver
    rows = solver.rows
    solver_row = solver.row
    sweep_scores = g.meaning.sweep_scores
    rounds = g.rules.rounds
    hands = g.hands
    captured = g.captured
    scope = g.scope
    stock = g.stock
    hand_cards = _HAND_CARDS
    n = g.n
    first = (g.dealer + 1) % n
    table = g.table
    tkey = g.tkey
    p = g.to_move
    in_hands = g.in_hands
    lc = g.last_capturer
    rnd = g.round
    while True:
        hand = hands[p]
        held = hand_cards.get(hand)
        if held is None:
            held = held_cards(hand)
        c, r = held[int(rand() * len(held))]
        row = rows.get(tkey)
        if row is None:
            row = solver_row(tkey)
        sols = row[r]
        hands[p] = hand ^ 1 << c
        in_hands -= 1
        if sols:
            if len(sols) == 1:
                key, field, span = sols[0]
                if tkey & field == key:
                    cap = table & span
                else:
                    options = _expand_slow(table, key)
                    cap = options[int(rand() * len(options))]
            else:
                choices = []
                for key, field, span in sols:
                    if tkey & field == key:
                        choices.append((key, table & span))
                    else:
                        for m in _expand_slow(table, key):
                            choices.append((key, m))
                key, cap = choices[int(rand() * len(choices))]
            table ^= cap
            if table:
                tkey -= key
            else:
                tkey = 0
                if sweep_scores(r, cap, not (in_hands or stock)):
                    scope[p] += 1
            captured[p] |= cap | 1 << c
            lc = p
        else:
            table |= 1 << c
            tkey += RANK_KEY[c]
        if in_hands:
            p += 1
            if p == n:
                p = 0
        elif stock:
            rnd += 1
            size = rounds[rnd]
            for _ in range(size):
                for i in range(n):
                    seat = first + i
                    if seat >= n:
                        seat -= n
                    hands[seat] |= 1 << stock.pop()
            in_hands = n * size
            p = first
        else:
            break
    if table and lc >= 0:
        captured[lc] |= table
        table = 0
        tkey = 0
    g.table = table
    g.tkey = tkey
    g.to_move = p
    g.in_hands = 0
    g.last_capturer = lc
    g.round = rnd
    g.hand_over = True


def _playout_by_moves(g: Game, rng: random.Random) -> None:
    """``random_playout`` through the public rules of play: declare whenever a seat may,
    else a uniformly random card and a uniformly random capture for it."""
    rand = rng.random
    while not g.hand_over:
        codes = g.legal_codes()
        if g.deciding:
            g.play_code(DECLARE)
            continue
        held = held_cards(g.hands[g.to_move])
        c = held[int(rand() * len(held))][0]
        mine = [code for code in codes if code & 63 == c]
        g.play_code(mine[int(rand() * len(mine))])
