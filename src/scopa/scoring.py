"""A hand's score sheet: pure functions from the captured piles to points per side.

Every item is kept per side (counts and points), so a player can see where each point
came from. A tie at the top of an item gives its point to nobody.
"""

from __future__ import annotations

from typing import Any

from .cards import COINS, NUM_CARDS, RANK_MASK, RE_BELLO, SETTEBELLO, card_text
from .rules import Rules

#: primiera value by rank, faces worth 10 (the common scale) or their rank (old sources)
PRIMIERA_TEN = (0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
PRIMIERA_RANK = (0, 16, 12, 13, 14, 15, 18, 21, 8, 9, 10)

POINT_ITEMS = ("cards", "coins", "settebello", "primiera", "sevens", "scope", "napola", "re_bello")


def _best_by_suit(scale: tuple[int, ...]) -> list[tuple[int, int]]:
    """For every 10-bit set of ranks in one suit: (best primiera value, its rank)."""
    table = [(0, 0)]
    for m in range(1, 1 << 10):
        best = max((scale[r + 1], r + 1) for r in range(10) if m >> r & 1)
        table.append(best)
    return table


_BEST = {"ten": _best_by_suit(PRIMIERA_TEN), "rank": _best_by_suit(PRIMIERA_RANK)}


def primiera(pile: int, faces: str = "ten") -> tuple[int | None, list[int]]:
    """A pile's primiera total and the four cards that make it; None if a suit is missing."""
    best = _BEST[faces]
    total = 0
    chosen = []
    for suit in range(4):
        bits = (pile >> (10 * suit)) & 0x3FF
        if not bits:
            return None, []
        value, rank = best[bits]
        total += value
        chosen.append(suit * 10 + rank - 1)
    return total, chosen


def napola_points(pile: int) -> int:
    """3 for ace-2-3 of coins, plus one for each further coin continuing the run."""
    coins = pile & COINS
    if coins & 0b111 != 0b111:
        return 0
    run = 3
    while run < 10 and coins >> run & 1:
        run += 1
    return run


def _top(values: list[int] | list[int | None]) -> int:
    """The index of the single highest value, or -1 on a tie at the top, no value, or 0."""
    best = -1
    top = 0
    tied = False
    for i, v in enumerate(values):
        if v is None:
            continue
        if v > top:
            top, best, tied = v, i, False
        elif v == top and top:
            tied = True
    return -1 if tied else best


def _piles(rules: Rules, captured: list[int], scope: list[int]) -> tuple[list[int], list[int]]:
    """Each side's pooled pile and sweeps."""
    sides = rules.teams
    if sides == len(captured):
        return list(captured), list(scope)
    piles = [0] * sides
    sweeps = [0] * sides
    for seat, pile in enumerate(captured):
        piles[seat % sides] |= pile
        sweeps[seat % sides] += scope[seat]
    return piles, sweeps


def hand_totals(rules: Rules, captured: list[int], scope: list[int]) -> list[int]:
    """Each side's points for a finished hand, without the sheet: the evaluation that
    search bots run after every rollout. Agrees with ``score_hand`` totals."""
    piles, totals = _piles(rules, captured, scope)
    w = _top([p.bit_count() for p in piles])
    if w >= 0:
        totals[w] += 1
    w = _top([(p & COINS).bit_count() for p in piles])
    if w >= 0:
        totals[w] += 1
    for i, p in enumerate(piles):
        if p >> SETTEBELLO & 1:
            totals[i] += 1
    if rules.primiera:
        w = _top([primiera_total(p, rules.primiera_faces) for p in piles])
        if w >= 0:
            totals[w] += 1
    if rules.sevens:
        w = _top([(p & RANK_MASK[7]).bit_count() for p in piles])
        if w >= 0:
            totals[w] += 1
    if rules.napola or rules.re_bello:
        for i, p in enumerate(piles):
            if rules.napola:
                totals[i] += napola_points(p)
            if rules.re_bello and p >> RE_BELLO & 1:
                totals[i] += 1
    return totals


def primiera_total(pile: int, faces: str = "ten") -> int | None:
    """A pile's primiera total; None if a suit is missing."""
    best = _BEST[faces]
    a = best[pile & 0x3FF][0]
    b = best[pile >> 10 & 0x3FF][0]
    c = best[pile >> 20 & 0x3FF][0]
    d = best[pile >> 30 & 0x3FF][0]
    if a and b and c and d:
        return a + b + c + d
    return None


#: each card's text, and each side's seats by (players, sides): the sheet is built once per
#: hand from ready-made parts
_TEXT = tuple(card_text(c) for c in range(NUM_CARDS))
_SEATS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}
SEVENS = RANK_MASK[7]


def score_hand(rules: Rules, captured: list[int], scope: list[int]) -> dict[str, Any]:
    """The score sheet of a finished hand, from each seat's captured pile and sweeps.

    Built in one pass per side with literal dicts (their keys in the documented order):
    every public deal ends with one."""
    sides = rules.teams
    piles, sweeps = _piles(rules, captured, scope)
    cards = [p.bit_count() for p in piles]
    coins = [(p & COINS).bit_count() for p in piles]
    sevens = [(p & SEVENS).bit_count() for p in piles]
    best = _BEST[rules.primiera_faces]
    prim: list[int | None] = []
    prim_cards: list[list[str]] = []
    for p in piles:
        d_value, d_rank = best[p & 0x3FF]
        c_value, c_rank = best[p >> 10 & 0x3FF]
        s_value, s_rank = best[p >> 20 & 0x3FF]
        b_value, b_rank = best[p >> 30 & 0x3FF]
        if d_value and c_value and s_value and b_value:
            prim.append(d_value + c_value + s_value + b_value)
            prim_cards.append(
                [_TEXT[d_rank - 1], _TEXT[c_rank + 9], _TEXT[s_rank + 19], _TEXT[b_rank + 29]]
            )
        else:
            prim.append(None)
            prim_cards.append([])
    w_cards = _top(cards)
    w_coins = _top(coins)
    w_prim = _top(prim) if rules.primiera else -1
    w_sevens = _top(sevens) if rules.sevens else -1
    napola = rules.napola
    re_bello = rules.re_bello
    seats = _SEATS.get((rules.players, sides))
    if seats is None:
        seats = _SEATS[rules.players, sides] = tuple(
            tuple(rules.seats_of(i)) for i in range(sides)
        )
    out = []
    for i, pile in enumerate(piles):
        settebello = pile >> SETTEBELLO & 1
        run = napola_points(pile)
        king = pile >> RE_BELLO & 1
        pts = {
            "cards": 1 if w_cards == i else 0,
            "coins": 1 if w_coins == i else 0,
            "settebello": settebello,
            "primiera": 1 if w_prim == i else 0,
            "sevens": 1 if w_sevens == i else 0,
            "scope": sweeps[i],
            "napola": run if napola else 0,
            "re_bello": king if re_bello else 0,
        }
        out.append(
            {
                "seats": list(seats[i]),
                "cards": cards[i],
                "coins": coins[i],
                "settebello": bool(settebello),
                "primiera": prim[i],
                "primiera_cards": prim_cards[i],
                "sevens": sevens[i],
                "scope": sweeps[i],
                "napola_run": run,
                "re_bello": bool(king),
                "points": pts,
                "total": sum(pts.values()),
            }
        )
    outright = None
    if rules.napola_outright:
        for i, pile in enumerate(piles):
            if pile & COINS == COINS:
                outright = i
                break
    return {"sides": out, "outright": outright}


__all__ = [
    "score_hand", "hand_totals", "primiera", "primiera_total", "napola_points", "POINT_ITEMS",
]
