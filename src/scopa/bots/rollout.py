"""Rollout policies: how a determinized world is played to the end of the hand.

``random`` is the engine's tight uniform loop, run by the compiled kernel where it is built
(``random-python``: the same loop always in Python, to measure what the kernel buys).
``capture`` plays like a quick, careless human (sweep when you can, usually capture when
you can, otherwise lay any card), which judges a position far better than uniform play for
about twice the cost. ``sound`` also keeps from laying into a sweep the next hand of the
world holds, and weighs what it takes: the better judge heads-up (measured in docs/bots.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from ..cards import ALL_CARDS, RANK, RANK_KEY, SETTEBELLO, rank_key
from ..hand import Hand
from ..moves import DECLARE
from ..playout import (
    CAPTURE_POLICY,
    LCG_A,
    LCG_C,
    MASK64,
    kernel_policy_playout,
    pick,
    pure_random_playout,
    python_playout,
    random_playout,
    seeded_playout,
)
from .values import card_values, take_worth

#: share of plays the sound policy makes at random
EXPLORE = 0.1
#: what leaving a sweep costs the sound policy (the sweep and a little of the table)
SWEEP_RISK = 1.3
#: chance that the capture policy takes something (when it can) instead of playing at random
CAPTURE_PROB = 0.85

Rollout = Callable[[Hand, random.Random], None]
#: a rollout driven by one 64-bit seed of the playout generator (returns its next state)
SeededRollout = Callable[[Hand, int], int]


def capture_playout(g: Hand, rng: random.Random) -> None:
    """Play to the end of the hand: a sweep if there is one, else mostly a capture (the
    one taking the most cards), else a uniformly random play. Seeded by one 64-bit draw
    from ``rng`` (the playout generator, ``scopa.playout``); played through the public
    rules of play, so ``history`` records it (the search's ``seeded_capture_playout`` runs
    the same policy in the compiled kernel, without history)."""
    if not g.hand_over:
        python_capture_playout(g, rng.getrandbits(64))


def seeded_capture_playout(g: Hand, x: int) -> int:
    """``capture_playout`` from a generator state, through the kernel where it is built
    (plays then not added to history, as ``random_playout``); returns the next state."""
    done = kernel_policy_playout(g, x, CAPTURE_POLICY, CAPTURE_PROB)
    return python_capture_playout(g, x) if done is None else done


def python_capture_playout(g: Hand, x: int) -> int:
    """``capture_playout`` in Python (the reference of the kernel's capture policy): a
    capture is taken if the generator's next step, as a fraction of 2**64 (its top 53
    bits), is below ``CAPTURE_PROB``; a random play is ``pick`` among the legal codes."""
    legal = g.legal_codes
    play = g.play_code
    while not g.hand_over:
        if g.undecided and g.deciding:
            play(DECLARE)
            continue
        codes = legal()
        table = g.table
        best = -1
        best_n = 0
        for code in codes:
            cap = code >> 6
            if cap:
                if cap == table:
                    best = code
                    break
                k = cap.bit_count()
                if k > best_n:
                    best, best_n = code, k
        if best >= 0:
            if best >> 6 == table:
                play(best)
                continue
            x = (x * LCG_A + LCG_C) & MASK64
            if (x >> 11) * (1.0 / (1 << 53)) < CAPTURE_PROB:
                play(best)
                continue
        i, x = pick(x, len(codes))
        play(codes[i])
    return x


#: rough worth of capturing each card for the rollout policy: settebello, sevens, coins
_WORTH = tuple(
    1.0 + (c == SETTEBELLO) * 6 + (RANK[c] == 7) * 2 + (RANK[c] == 6) + (c < 10) * 1.0
    for c in range(40)
)


def smart_playout(g: Hand, rng: random.Random) -> None:
    """Play to the end of the hand like a sound quick player: sweep when you can, else
    take the capture worth most (settebello, sevens, coins, many cards), else lay a card
    that does not leave a table some card sweeps (``Meaning.sweepers``) -- chosen at
    random among such cards -- else any card."""
    rand = rng.random
    legal = g.legal_codes
    play = g.play_code
    worth = _WORTH
    sweepers = g.meaning.sweepers
    while not g.hand_over:
        if g.undecided and g.deciding:
            play(DECLARE)
            continue
        codes = legal()
        table = g.table
        best = -1
        best_w = 0.0
        lays = []
        for code in codes:
            cap = code >> 6
            if not cap:
                lays.append(code)
                continue
            if cap == table:
                best = code
                break
            w = take_worth(worth, code & 63, cap)
            if w > best_w:
                best, best_w = code, w
        if best >= 0 and (best >> 6 == table or rand() < CAPTURE_PROB):
            play(best)
            continue
        if lays:
            tkey = g.tkey
            safe = [c for c in lays if not sweepers(tkey + RANK_KEY[c & 63])]
            if safe:
                play(safe[int(rand() * len(safe))])
                continue
        play(codes[int(rand() * len(codes))])


def sound_playout(g: Hand, rng: random.Random, round_only: bool = False) -> None:
    """Play to the end of the hand like a sound player who watches the next hand: sweep
    when you can, else take the play worth most (cards won, by their point worth) minus a
    sweep's worth when the table left behind can be swept by a card the next player holds
    in this world; one play in ten is random, so rollouts stay varied.

    ``round_only``: stop as soon as the next round has been dealt (or the hand is over),
    for a search that values the position between rounds (``round_value``)."""
    rules = g.rules
    values = card_values(rules)
    sweepers = g.meaning.sweepers
    rand = rng.random
    legal = g.legal_codes
    play = g.play_code
    hands = g.hands
    n = g.n
    last_round = g.round if round_only else len(rules.rounds)
    while not g.hand_over and g.round <= last_round:
        if g.undecided and g.deciding:
            play(DECLARE)
            continue
        codes = legal()
        if len(codes) == 1 or rand() < EXPLORE:
            play(codes[int(rand() * len(codes))])
            continue
        table = g.table
        nxt = hands[(g.to_move + 1) % n]
        if not nxt and g.stock:
            nxt = ALL_CARDS  # the next player's cards are still to be dealt: fear them all
        tkey = g.tkey
        best = codes[0]
        best_w = -1e9
        for code in codes:
            cap = code >> 6
            c = code & 63
            if cap:
                if cap == table:
                    best = code
                    break
                w = take_worth(values, c, cap)
                after_key = tkey - rank_key(cap)
            else:
                w = -0.5 * values[c]
                after_key = tkey + RANK_KEY[c]
            if nxt & sweepers(after_key):  # the next player holds a card that sweeps
                w -= SWEEP_RISK
            w += rand() * 0.01
            if w > best_w:
                best, best_w = code, w
        play(best)


def sound_round_playout(g: Hand, rng: random.Random) -> None:
    """``sound_playout`` to the end of the current round only."""
    sound_playout(g, rng, round_only=True)


#: rollouts that can stop at the end of the round, by the name of the whole-hand policy
ROUND_ROLLOUTS: dict[str, Rollout] = {"sound": sound_round_playout}

ROLLOUTS: dict[str, Rollout] = {
    "random": random_playout,
    "random-python": pure_random_playout,
    "capture": capture_playout,
    "smart": smart_playout,
    "sound": sound_playout,
}

#: the rollouts above that draw only one 64-bit seed, by name, taking the seed itself: a
#: search replays a world's seed for each move instead of restoring a ``random.Random``
#: (which costs more than the kernel's whole playout)
SEEDED_ROLLOUTS: dict[str, SeededRollout] = {
    "random": seeded_playout,
    "random-python": python_playout,
    "capture": seeded_capture_playout,
}
