"""A hand's score sheet: pure functions from the captured piles to points per side.

Every item is kept per side (counts and points), so a player can see where each point
came from. A tie at the top of an item gives its point to nobody.
"""

from __future__ import annotations

from typing import Any

from .cards import COINS, NUM_CARDS, RANK_MASK, RE_BELLO, SETTEBELLO, card_text
from .items import (
    BEST,
    NAPOLA_RUN,
    PRIMIERA_RANK,
    PRIMIERA_TEN,
    SHEET_KEYS,
    napola_points,
    primiera,
    primiera_total,
)
from .items import top as _top  # noqa: F401 (the reference sheet in the tests uses it)
from .meaning import Meaning, meaning_of
from .rules import Rules

#: the items every sheet lists in ``points`` (newer variants' items follow where played)
POINT_ITEMS = SHEET_KEYS
_BEST = BEST


def _piles(rules: Rules, captured: list[int], scope: list[int]) -> tuple[list[int], list[int]]:
    """Each side's pooled pile and sweeps."""
    piles, sweeps, _ = meaning_of(rules).side_piles(captured, scope, None)
    return piles, sweeps


def hand_totals(
    rules: Rules, captured: list[int], scope: list[int], declared: list[int] | None = None
) -> list[int]:
    """Each side's points for a finished hand, without the sheet: the evaluation that
    search bots run after every rollout. Agrees with ``score_hand`` totals (both add up
    the same ``items``)."""
    return meaning_of(rules).hand_totals(captured, scope, declared)


#: each card's text: the sheet is built once per hand from ready-made parts
_TEXT = tuple(card_text(c) for c in range(NUM_CARDS))
SEVENS = RANK_MASK[7]


def score_hand(
    rules: Rules, captured: list[int], scope: list[int], declared: list[int] | None = None
) -> dict[str, Any]:
    """The score sheet of a finished hand, from each seat's captured pile, sweeps and
    declared points.

    ``items`` lists the items this table plays, each with its key, label key, the value
    shown per side and the points per side, so any client can draw any variant's sheet.
    Each side also keeps the classic facts (counts, primiera cards) and ``points`` by item
    key (the classic keys always, zero when not played). Every item is worked out once:
    its values, and its points from them (``ScoreItem.points_from``); the sides' entries
    are read off the items (every public deal ends with a sheet)."""
    return sheet(meaning_of(rules), captured, scope, declared)


def sheet(
    meaning: Meaning, captured: list[int], scope: list[int], declared: list[int] | None
) -> dict[str, Any]:
    """``score_hand`` for a rule set's ``Meaning`` (what a ``Hand`` holds already).

    One computation, two shapes: the counts below are the classic facts of each side and
    the values of their items; each item's points are worked out once and each side's
    ``points`` is the transpose of the items' point lists (built in C: ``zip``)."""
    rules = meaning.rules
    sides = rules.teams
    if sides == len(captured) and not (meaning.declares and declared and any(declared)):
        # (read only below)
        piles, sweeps, decl = captured, list(scope), _NO_POINTS[sides]
    else:
        piles, sweeps, decl = meaning.side_piles(captured, scope, declared)
    # each side's classic facts, in one pass over the piles
    best = _BEST[rules.primiera_faces]
    cards: list[int] = []
    coins: list[int] = []
    sevens: list[int] = []
    settebello: list[bool] = []
    prim: list[int | None] = []
    prim_cards: list[list[str]] = []
    for p in piles:
        cards.append(p.bit_count())
        coins.append((p & COINS).bit_count())
        sevens.append((p & SEVENS).bit_count())
        settebello.append(p >> SETTEBELLO & 1 == 1)
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
    seats = meaning.side_seats
    # the counts worked out above are the values of their items; the others ask the item
    known = (cards, coins, sevens, prim, sweeps, settebello)
    entries: list[dict[str, Any]] = []
    #: each classic item's points per side, in ``SHEET_KEYS`` order (zero when not played)
    columns = [_NO_POINTS[sides]] * len(SHEET_KEYS)
    #: a newer variant's items: their points and shown values per side, under their own key
    extra: list[tuple[str, list[int], list[Any]]] = []
    for values_of, points_from, key, label, slot, column in meaning.sheet_plan:
        # (the lists worked out above are used by the sheet only, so they are not copied)
        values = known[slot] if slot >= 0 else values_of(piles, sweeps, decl)
        item_pts = points_from(values)
        if slot == 3:
            entries.append({"key": key, "label": label, "points": item_pts, "values": values,
                            "cards": prim_cards})
        else:
            entries.append({"key": key, "label": label, "points": item_pts, "values": values})
        if column >= 0:
            columns[column] = item_pts
        else:
            extra.append((key, item_pts, values))
    # each side's ``points`` reads the items' point lists: dict literals (twice as quick
    # as building them from the keys), their keys in ``SHEET_KEYS`` order
    p_cards, p_coins, p_bello, p_prim, p_sevens, p_scope, p_napola, p_re = columns
    out = []
    for i, pile in enumerate(piles):
        pts = {
            "cards": p_cards[i], "coins": p_coins[i], "settebello": p_bello[i],
            "primiera": p_prim[i], "sevens": p_sevens[i], "scope": p_scope[i],
            "napola": p_napola[i], "re_bello": p_re[i],
        }
        side: dict[str, Any] = {
            "seats": list(seats[i]), "cards": cards[i], "coins": coins[i],
            "settebello": settebello[i], "primiera": prim[i],
            "primiera_cards": prim_cards[i], "sevens": sevens[i], "scope": sweeps[i],
            "napola_run": NAPOLA_RUN[pile & COINS], "re_bello": pile >> RE_BELLO & 1 == 1,
            "points": pts,
        }
        if extra:
            for key, item_pts, shown in extra:  # a newer variant's items, before the total
                pts[key] = item_pts[i]
                side[key] = shown[i]
        side["total"] = sum(pts.values())
        out.append(side)
    return {"sides": out, "outright": meaning.outright(piles), "items": entries}


# the sides' ``points`` literals above spell the classic keys in this order
assert SHEET_KEYS == (
    "cards", "coins", "settebello", "primiera", "sevens", "scope", "napola", "re_bello"
)

#: nobody's points (or declared points), by number of sides (read only)
_NO_POINTS = {n: [0] * n for n in range(1, 7)}


__all__ = [
    "score_hand", "sheet", "hand_totals", "primiera", "primiera_total", "napola_points",
    "POINT_ITEMS", "PRIMIERA_TEN", "PRIMIERA_RANK",
]
