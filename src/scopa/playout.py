"""Random playouts in one tight loop: the rollout of search bots.

The rollout policy is "a uniformly random card from hand, then a uniformly random one of the
captures the rules allow for it" (a card with no capture is laid). It keeps the state in local
variables for the whole hand and never lists the moves of cards it does not play, which makes
it several times faster than ``legal_codes`` / ``play_code`` per play.

Its random choices come from one specified generator, used only by playouts, so that the
compiled kernel (``scopa.kernel``, C) makes exactly the same choices from the same seed:
a 64-bit LCG (``x = x * LCG_A + LCG_C mod 2**64``); a choice among ``n > 1`` things steps it
once and takes ``(x >> 32) * n >> 32``; a choice of one draws nothing. ``random_playout``
takes one 64-bit seed from the caller's ``random.Random`` and runs the kernel where it is
built (and the rule set is one it expresses), else this module's Python loop.
"""

from __future__ import annotations

import random

from . import kernel
from .captures import _expand_slow
from .cards import NUM_CARDS, RANK_KEY, rank_key
from .hand import _HAND_CARDS, Hand, held_cards
from .kernel import spec_for
from .meaning import meaning_of
from .moves import DECLARE
from .rules import Rules

#: the playout generator: a 64-bit LCG (Knuth's MMIX constants)
LCG_A = 6364136223846793005
LCG_C = 1442695040888963407
MASK64 = (1 << 64) - 1


def pick(x: int, n: int) -> tuple[int, int]:
    """One choice among ``n`` from generator state ``x``: (index, next state). The loops
    below inline it."""
    if n <= 1:
        return 0, x
    x = (x * LCG_A + LCG_C) & MASK64
    return (x >> 32) * n >> 32, x


def random_playout(g: Hand, rng: random.Random) -> None:
    """Play random cards until the hand is over, in place, seeded by one 64-bit draw from
    ``rng``: through the compiled kernel when it is built, else in Python (the same
    outcome either way).

    For speed the plays are not added to ``g.history``; scores and piles are exact. Where
    hands may be declared (Cirulla), every seat that may declare does (the Python path
    then plays through ``legal_codes`` / ``play_code``, which do record history)."""
    if not g.hand_over:
        seeded_playout(g, rng.getrandbits(64))


def seeded_playout(g: Hand, x: int) -> int:
    """``random_playout`` from a generator state (the kernel where it is built, else
    Python); returns the next state. A search replays one seed for every move of a world
    (common random numbers) without saving and restoring a ``random.Random``."""
    spec = spec_for(g.meaning)
    if spec is not None and not g.hand_over:
        return _kernel_playout(g, spec, x)
    return python_playout(g, x)


def pure_random_playout(g: Hand, rng: random.Random) -> None:
    """``random_playout`` always on the Python path (the same outcome, slower): the
    yardstick of what the kernel buys (bench/kernel.py)."""
    if not g.hand_over:
        python_playout(g, rng.getrandbits(64))


def kernel_playout(g: Hand, seed: int) -> int:
    """``random_playout`` from a generator state through the kernel; returns the next
    state. Raises ``RuntimeError`` where the kernel is not built or the rules are not
    ones it expresses."""
    spec = spec_for(g.meaning)
    if spec is None:
        raise RuntimeError("the compiled kernel is not loaded or does not express these rules")
    if g.hand_over:
        return seed
    return _kernel_playout(g, spec, seed)


#: the kernel's playout policies: this module's uniform one, and the capture policy of
#: ``scopa.bots.rollout`` (which owns its rule and its probability)
RANDOM_POLICY = 0
CAPTURE_POLICY = 1


def kernel_policy_playout(g: Hand, x: int, policy: int, capture_prob: float) -> int | None:
    """The hand played out by the kernel under ``policy`` from generator state ``x``
    (returns the next state), or None, changing nothing, where the kernel does not run."""
    spec = spec_for(g.meaning)
    if spec is None or g.hand_over:
        return None
    return _kernel_playout(g, spec, x, policy, capture_prob)


def _kernel_playout(
    g: Hand, spec: bytes, x: int, policy: int = RANDOM_POLICY, capture_prob: float = 0.0
) -> int:
    g.state_changed()
    table, p, lc, rnd, x, declared, shown = kernel.playout(
        spec, g.hands, g.captured, g.scope, g.declared, g.shown, g.stock, g.table, g.to_move,
        g.in_hands, g.last_capturer, g.round, g.dealer, g.undecided, x, policy, capture_prob,
    )
    g.table = table
    g.tkey = rank_key(table) if table else 0
    g.to_move = p
    g.in_hands = 0
    g.last_capturer = lc
    g.round = rnd
    g.hand_over = True
    if declared is not None:
        g.declared = declared  # new lists: copies of the game share the old ones
        g.shown = shown
        g.undecided = 0
    return int(x)


def python_playout(g: Hand, x: int) -> int:
    """``random_playout`` from a generator state in pure Python (the reference the kernel
    is checked against); returns the next state."""
    if g.hand_over:
        return x
    if g.meaning.declares or g.meaning.lay_always:
        return _playout_by_moves(g, x)
    g.state_changed()
    a, inc, mask = LCG_A, LCG_C, MASK64
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
        k = len(held)
        if k > 1:
            x = (x * a + inc) & mask
            c, r = held[(x >> 32) * k >> 32]
        else:
            c, r = held[0]
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
                    x = (x * a + inc) & mask
                    cap = options[(x >> 32) * len(options) >> 32]
            else:
                choices = []
                for key, field, span in sols:
                    if tkey & field == key:
                        choices.append((key, table & span))
                    else:
                        for m in _expand_slow(table, key):
                            choices.append((key, m))
                x = (x * a + inc) & mask
                key, cap = choices[(x >> 32) * len(choices) >> 32]
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
    return x




def _playout_by_moves(g: Hand, x: int) -> int:
    """``python_playout`` through the public rules of play: declare whenever a seat may,
    else a uniformly random card and a uniformly random one of its plays (its captures, and
    laying it where taking is not obligatory)."""
    while not g.hand_over:
        codes = g.legal_codes()
        if g.deciding:
            g.play_code(DECLARE)
            continue
        held = held_cards(g.hands[g.to_move])
        i, x = pick(x, len(held))
        c = held[i][0]
        mine = [code for code in codes if code & 63 == c]
        i, x = pick(x, len(mine))
        g.play_code(mine[i])
    return x


def random_deals(
    rules: Rules, seed: int, count: int, *, pure: bool = False
) -> list[tuple[int, ...]]:
    """Each side's points in ``count`` random deals from one generator seed: the deck
    shuffled by the playout generator (Fisher-Yates from the top, a void deal shuffled
    again), dealt by the last seat, played out at random. Through the kernel unless
    ``pure`` or it is not there (the same outcomes either way): the yardstick of
    bench/kernel.py and of the kernel's tests."""
    meaning = meaning_of(rules)
    x = seed & MASK64
    spec = None if pure else spec_for(meaning)
    if spec is not None:
        data, _ = kernel.deals(spec, x, count)
        flat = memoryview(data).cast("i").tolist()
        sides = rules.teams
        return [tuple(flat[i : i + sides]) for i in range(0, len(flat), sides)]
    out = []
    for _ in range(count):
        deck = list(range(NUM_CARDS))
        while True:
            for i in range(NUM_CARDS - 1, 0, -1):
                j, x = pick(x, i + 1)
                deck[i], deck[j] = deck[j], deck[i]
            if not meaning.void_deal(deck):
                break
        g = Hand.deal(rules, deck)
        x = python_playout(g, x)
        out.append(tuple(meaning.hand_totals(g.captured, g.scope, g.declared)))
    return out
