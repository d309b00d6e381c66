"""A hand's score sheet: pure functions from the captured piles to points per side.

Every item is kept per side (counts and points), so a player can see where each point
came from. A tie at the top of an item gives its point to nobody.
"""

from __future__ import annotations

from typing import Any

from .cards import COINS, NUM_CARDS, RANK_MASK, RE_BELLO, SETTEBELLO, card_text
from .items import (
    BEST,
    PRIMIERA_RANK,
    PRIMIERA_TEN,
    SHEET_KEYS,
    napola_points,
    primiera,
    primiera_total,
)
from .items import top as _top  # noqa: F401 (the reference sheet in the tests uses it)
from .meaning import meaning_of
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


#: each card's text, and each side's seats by (players, sides): the sheet is built once per
#: hand from ready-made parts
_TEXT = tuple(card_text(c) for c in range(NUM_CARDS))
_SEATS: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}
SEVENS = RANK_MASK[7]


def score_hand(
    rules: Rules, captured: list[int], scope: list[int], declared: list[int] | None = None
) -> dict[str, Any]:
    """The score sheet of a finished hand, from each seat's captured pile, sweeps and
    declared points.

    ``items`` lists the items this table plays, each with its key, label key, the value
    shown per side and the points per side, so any client can draw any variant's sheet.
    Each side also keeps the classic facts (counts, primiera cards) and ``points`` by item
    key (the classic keys always, zero when not played)."""
    meaning = meaning_of(rules)
    sides = rules.teams
    piles, sweeps, decl = meaning.side_piles(captured, scope, declared)
    items = meaning.items
    item_points = [item.points(piles, sweeps, decl) for item in items]
    sweep_counts: list[int] = sweeps
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
    seats = _SEATS.get((rules.players, sides))
    if seats is None:
        seats = _SEATS[rules.players, sides] = tuple(
            tuple(rules.seats_of(i)) for i in range(sides)
        )
    # each item's sheet entry; the counts worked out above are not worked out again
    known: dict[str, list[Any]] = {
        "cards": cards, "coins": coins, "sevens": sevens, "primiera": prim, "scope": sweep_counts,
    }
    entries: list[dict[str, Any]] = []
    for item, item_pts in zip(items, item_points, strict=True):
        shown = known.get(item.key)
        entry = {
            "key": item.key, "label": item.label, "points": item_pts,
            "values": list(shown) if shown is not None else item.values(piles, sweeps, decl),
        }
        if item.key == "primiera":
            entry["cards"] = prim_cards
        entries.append(entry)
    classic = [(e["key"], e["points"]) for e in entries if e["key"] in _CLASSIC]
    #: a newer variant's items: their points, and their shown value under their own key
    extra = [(e["key"], e["points"], e["values"]) for e in entries if e["key"] not in _CLASSIC]
    out = []
    for i, pile in enumerate(piles):
        pts = dict.fromkeys(SHEET_KEYS, 0)
        for key, got in classic:
            pts[key] = got[i]
        side: dict[str, Any] = {
            "seats": list(seats[i]),
            "cards": cards[i],
            "coins": coins[i],
            "settebello": bool(pile >> SETTEBELLO & 1),
            "primiera": prim[i],
            "primiera_cards": prim_cards[i],
            "sevens": sevens[i],
            "scope": sweeps[i],
            "napola_run": napola_points(pile),
            "re_bello": bool(pile >> RE_BELLO & 1),
            "points": pts,
        }
        for key, got, shown in extra:
            pts[key] = got[i]
            side[key] = shown[i]
        side["total"] = sum(pts.values())
        out.append(side)
    return {"sides": out, "outright": meaning.outright(piles), "items": entries}


_CLASSIC = frozenset(SHEET_KEYS)

__all__ = [
    "score_hand", "hand_totals", "primiera", "primiera_total", "napola_points", "POINT_ITEMS",
    "PRIMIERA_TEN", "PRIMIERA_RANK",
]
