"""A hand's score sheet: pure functions from the captured piles to points per side.

Every item is kept per side (counts and points), so a player can see where each point
came from. A tie at the top of an item gives its point to nobody.
"""

from __future__ import annotations

from typing import Any

from .cards import COINS, RANK_MASK, RE_BELLO, SETTEBELLO, card_text
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


def _award(values: list[int | None], points: list[dict[str, int]], item: str) -> None:
    """One point to the single side with the highest value; nobody on a tie or no value."""
    present = [v for v in values if v is not None]
    if not present:
        return
    top = max(present)
    winners = [i for i, v in enumerate(values) if v == top]
    if len(winners) == 1 and top > 0:
        points[winners[0]][item] = 1


def score_hand(rules: Rules, captured: list[int], scope: list[int]) -> dict[str, Any]:
    """The score sheet of a finished hand, from each seat's captured pile and sweeps."""
    sides = rules.teams
    piles = [0] * sides
    sweeps = [0] * sides
    for seat, pile in enumerate(captured):
        piles[seat % sides] |= pile
        sweeps[seat % sides] += scope[seat]
    cards = [p.bit_count() for p in piles]
    coins = [(p & COINS).bit_count() for p in piles]
    sevens = [(p & RANK_MASK[7]).bit_count() for p in piles]
    settebello = [bool(p >> SETTEBELLO & 1) for p in piles]
    prim = [primiera(p, rules.primiera_faces) for p in piles]
    points: list[dict[str, int]] = [dict.fromkeys(POINT_ITEMS, 0) for _ in range(sides)]
    _award(list(cards), points, "cards")
    _award(list(coins), points, "coins")
    for i in range(sides):
        points[i]["settebello"] = int(settebello[i])
        points[i]["scope"] = sweeps[i]
    if rules.primiera:
        _award([t for t, _ in prim], points, "primiera")
    if rules.sevens:
        _award(list(sevens), points, "sevens")
    if rules.napola:
        for i in range(sides):
            points[i]["napola"] = napola_points(piles[i])
    if rules.re_bello:
        for i in range(sides):
            points[i]["re_bello"] = int(bool(piles[i] >> RE_BELLO & 1))
    out = []
    for i in range(sides):
        total, best = prim[i]
        out.append(
            {
                "seats": rules.seats_of(i),
                "cards": cards[i],
                "coins": coins[i],
                "settebello": settebello[i],
                "primiera": total,
                "primiera_cards": [card_text(c) for c in best],
                "sevens": sevens[i],
                "scope": sweeps[i],
                "napola_run": napola_points(piles[i]),
                "re_bello": bool(piles[i] >> RE_BELLO & 1),
                "points": points[i],
                "total": sum(points[i].values()),
            }
        )
    all_coins = [i for i in range(sides) if piles[i] & COINS == COINS]
    outright = rules.napola_outright and bool(all_coins)
    return {"sides": out, "outright": all_coins[0] if outright else None}


__all__ = ["score_hand", "primiera", "napola_points", "POINT_ITEMS"]
