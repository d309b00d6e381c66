"""The engine's fast paths agree with the careful ones they shortcut, and hand every
unusual input to them, so the errors stay the same."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from scopa import VARIANTS, IllegalMoveError, Move, PositionError, Rules
from scopa.cards import (
    COINS,
    RANK_KEY,
    RANK_MASK,
    RE_BELLO,
    SETTEBELLO,
    card,
    card_text,
    iter_cards,
    rank_key,
)
from scopa.hand import Hand
from scopa.match import Match
from scopa.notation import _ZONE_NAMES, _read_zones, _read_zones_fast, dump_position, load_position
from scopa.rules import VARIANT_SEATINGS
from scopa.scoring import (
    POINT_ITEMS,
    _piles,
    _top,
    hand_totals,
    napola_points,
    primiera,
    score_hand,
)

from .helpers import position


def _zones(p: dict) -> list:
    return [*p["hands"], p["table"], p["stock"], *p["captured"]]


def _played_positions(count: int) -> list[dict]:
    """Positions of every variant, fresh and part-played."""
    rng = random.Random(5)
    out = []
    for i in range(count):
        variant = VARIANTS[i % len(VARIANTS)]
        players = rng.choice(sorted(VARIANT_SEATINGS[variant]))
        g = Match(Rules.preset(variant, players=players), seed=f"fast-{i}").hand
        for _ in range(rng.randrange(0, 40)):
            if g.hand_over:
                break
            g.play(rng.choice(g.legal_moves()))
        out.append(dump_position(g))
    return out


def test_rank_key_table_matches_card_sums():
    rng = random.Random(3)
    masks = [0, (1 << 40) - 1] + [rng.getrandbits(40) for _ in range(2000)]
    for m in masks:
        assert rank_key(m) == sum(RANK_KEY[c] for c in iter_cards(m))


def test_fast_zone_reading_agrees_with_careful_reading():
    for p in _played_positions(120):
        n = p["rules"]["players"]
        zones = _zones(p)
        fast = _read_zones_fast(zones, n)
        assert fast is not None
        masks, stock, order = _read_zones(zones, _ZONE_NAMES[n])
        assert fast[0] == masks and fast[1] == stock and list(fast[2]) == list(order)
        assert dump_position(load_position(p)) == p


def base() -> dict:
    return position([["7d", "1b", "2b"], ["5s", "6s", "8s"]], ["3s", "4d"], stock_size=6)


def _set(p: dict, zone: tuple, value: object) -> None:
    """Put ``value`` at a path like ("hands", 0, 1) or ("table",)."""
    target = p
    for k in zone[:-1]:
        target = target[k]
    target[zone[-1]] = value


# each: where to write, what, and words the error must contain
BAD_ZONES = [
    (("hands", 0, 1), "7d", "7d appears twice"),  # twice in one hand, 40 cards in all
    (("table", 0), "7d", "7d appears twice"),  # twice across zones, 40 cards in all
    (("table", 0), "5s", "5s appears twice"),
    # 7d twice and 8d missing: the bits of 7d+7d carry into 8d's place
    (("captured", 1, 0), "7d", "appears twice"),
    (("table", 0), "11d", "11d"),
    (("table", 0), "0d", "0d"),
    (("table", 0), "7x", "7x"),
    (("table", 0), 7, "table"),
    (("table", 0), None, "table"),
    (("table", 0), ["3s"], "table"),  # unhashable
    (("table", 0), "", "table"),
    (("table", 0), " 3s", "table"),
    (("table",), ("3s", "4d"), "table must be a list"),
    (("stock",), "7c 8c", "stock must be a list"),
    (("hands", 1), None, r"hands\[1\] must be a list"),
]


@pytest.mark.parametrize("where, value, words", BAD_ZONES, ids=[repr(b[:2]) for b in BAD_ZONES])
def test_fast_path_passes_bad_cards_to_the_careful_reading(where, value, words):
    p = base()
    if where == ("captured", 1, 0):  # make sure 8d is the card that goes missing
        owner = next(z for z in _zones(p) if "8d" in z)
        owner[owner.index("8d")] = "7d"
    else:
        _set(p, where, value)
    n = p["rules"]["players"]
    assert _read_zones_fast(_zones(p), n) is None
    with pytest.raises(PositionError, match=words):
        load_position(p)


def test_fast_path_rejects_wrong_card_counts():
    p = base()
    p["table"].append("10d")  # 41 cards (10d twice)
    assert _read_zones_fast(_zones(p), 2) is None
    with pytest.raises(PositionError, match="10d appears twice"):
        load_position(p)
    p = base()
    p["table"].remove("3s")  # 39 cards
    assert _read_zones_fast(_zones(p), 2) is None
    with pytest.raises(PositionError, match="missing: 3s"):
        load_position(p)


def test_other_spellings_fall_to_the_careful_reading_and_are_refused():
    p = base()
    upper = copy.deepcopy(p)
    upper["hands"][0][0] = "7D"
    assert _read_zones_fast(_zones(upper), 2) is None
    with pytest.raises(PositionError, match="not a card"):
        load_position(upper)


def test_list_subclass_zone_loads_like_a_list():
    class Cards(list):  # type: ignore[type-arg]
        pass

    p = base()
    q = copy.deepcopy(p)
    q["table"] = Cards(q["table"])
    assert _read_zones_fast(_zones(q), 2) is None
    assert dump_position(load_position(q)) == dump_position(load_position(p))


def test_deal_shape_checked_after_a_good_position_of_the_same_shape():
    # the shape cache must only ever remember shapes that passed
    good = base()
    load_position(good)
    for _ in range(2):
        bad = base()
        bad["to_move"] = 1  # seat 1 to move although seat 0 has not played
        with pytest.raises(PositionError, match="hand sizes"):
            load_position(bad)
    load_position(good)


# -- the score sheet ---------------------------------------------------------------------------
def _reference_sheet(rules: Rules, captured: list[int], scope: list[int]) -> dict[str, Any]:
    """The score sheet as first written (one helper per item, dicts filled in place): the
    faster ``score_hand`` must give exactly this, key order included."""
    sides = rules.teams
    piles, sweeps = _piles(rules, captured, scope)
    cards = [p.bit_count() for p in piles]
    coins = [(p & COINS).bit_count() for p in piles]
    sevens = [(p & RANK_MASK[7]).bit_count() for p in piles]
    prim = [primiera(p, rules.primiera_faces) for p in piles]
    points: list[dict[str, int]] = [dict.fromkeys(POINT_ITEMS, 0) for _ in range(sides)]

    def award(values: list[int] | list[int | None], item: str) -> None:
        w = _top(values)
        if w >= 0:
            points[w][item] = 1

    award(cards, "cards")
    award(coins, "coins")
    if rules.primiera:
        award([t for t, _ in prim], "primiera")
    if rules.sevens:
        award(sevens, "sevens")
    out = []
    for i, pile in enumerate(piles):
        pts = points[i]
        pts["settebello"] = pile >> SETTEBELLO & 1
        pts["scope"] = sweeps[i]
        if rules.napola:
            pts["napola"] = napola_points(pile)
        if rules.re_bello:
            pts["re_bello"] = pile >> RE_BELLO & 1
        total, best = prim[i]
        out.append(
            {
                "seats": rules.seats_of(i),
                "cards": cards[i],
                "coins": coins[i],
                "settebello": bool(pile >> SETTEBELLO & 1),
                "primiera": total,
                "primiera_cards": [card_text(c) for c in best],
                "sevens": sevens[i],
                "scope": sweeps[i],
                "napola_run": napola_points(pile),
                "re_bello": bool(pile >> RE_BELLO & 1),
                "points": pts,
                "total": sum(pts.values()),
            }
        )
    all_coins = [i for i in range(sides) if piles[i] & COINS == COINS]
    outright = rules.napola_outright and bool(all_coins)
    return {"sides": out, "outright": all_coins[0] if outright else None}


SHEET_RULES = [
    Rules.preset(v, players=n)
    for v in VARIANTS
    if v != "cirulla"  # the classic sheet: Cirulla's items are checked in its own tests
    for n in VARIANT_SEATINGS[v]
    if n != 5
] + [
    Rules.preset("scopa", primiera_faces="rank"),
    Rules.preset("napola", napola_outright=True, re_bello=True),
    Rules.preset("napola", players=4, napola_outright=True),
    Rules.preset("scopa", players=4, teams=4),
    Rules.preset("escoba", players=6, teams=3),
]


@pytest.mark.parametrize(
    "rules", SHEET_RULES, ids=[f"{i}-{r.variant}-{r.players}p" for i, r in enumerate(SHEET_RULES)]
)
def test_score_sheet_matches_the_reference_exactly(rules):
    rng = random.Random(f"sheet-{rules}")
    n = rules.players
    for k in range(300):
        cards = list(range(40))
        rng.shuffle(cards)
        piles = [0] * n
        if k % 5 == 0:  # one seat with every coin (napola runs, outright wins)
            piles[rng.randrange(n)] |= COINS
            cards = [c for c in cards if not COINS >> c & 1]
        for c in cards[: rng.randrange(len(cards) + 1)]:  # some cards may be missing
            piles[rng.randrange(n)] |= 1 << c
        if k % 7 == 0:  # equal piles: ties at the top give nobody the point
            piles = [0] * n
        scope = [rng.randrange(4) for _ in range(n)]
        got = score_hand(rules, list(piles), list(scope))
        items = got.pop("items")
        want = _reference_sheet(rules, piles, scope)
        # the sheet's own list of items: the items played, with the same points
        for item in items:
            assert item["points"] == [s["points"][item["key"]] for s in want["sides"]]
        played = {item["key"] for item in items}
        assert all(
            s["points"][k] == 0 for s in want["sides"] for k in s["points"] if k not in played
        )
        assert json.dumps(got) == json.dumps(want)
        assert got == want
        assert hand_totals(rules, piles, scope) == [s["total"] for s in got["sides"]]


# -- legal moves and play ----------------------------------------------------------------------
def test_legal_moves_are_the_legal_codes_as_shared_moves():
    rng = random.Random(11)
    for p in _played_positions(60):
        g = load_position(p)
        while not g.hand_over:
            moves = g.legal_moves()
            assert [m.code for m in moves] == g.legal_codes()
            assert all(m is Move.from_code(m.code) for m in moves)
            assert g.legal_moves() == moves and g.legal_moves() is not moves
            g.play(rng.choice(moves))


def test_play_accepts_an_equal_move_spelled_otherwise():
    # a Move equal to a legal one but not the object legal_moves() returned, its numbers
    # even spelled as float or bool: the legal move is played (floats used to raise
    # TypeError)
    p = position([["2d", "1b", "2b"], ["5s", "6s", "8s"]], ["3s", "4c"], stock_size=6)
    lay = Move(card("2d"), 0)  # 2d is card 1
    for spelled in (Move(1, 0), Move(1.0, 0.0), Move(True, False)):  # type: ignore[arg-type]
        g = load_position(p)
        assert lay in g.legal_moves()
        g.play(spelled)
        assert g.history == [(0, lay.code, False)] and type(g.history[0][1]) is int
        assert g.moves() == [lay]


def test_play_checks_moves_added_to_the_returned_list():
    g = load_position(base())
    moves = g.legal_moves()
    bad = Move(card("7d"), 0)  # 7d must capture here
    moves.append(bad)
    before = dump_position(g)
    with pytest.raises(IllegalMoveError, match="must capture"):
        g.play(bad)
    assert dump_position(g) == before and g.history == []


def test_illegal_moves_after_legal_moves_change_nothing():
    bad_moves = [
        Move(card("7d"), 0),
        Move(card("7d"), 1 << card("3s")),
        Move(card("5s"), 0),
        Move(card("7d"), 1 << 45),
        Move(-1, 0),
        Move(7.5, 0),  # type: ignore[arg-type]
        Move("7d", 0),  # type: ignore[arg-type]
    ]
    for bad in bad_moves:
        g = load_position(base())
        legal = g.legal_moves()
        before = dump_position(g)
        with pytest.raises(IllegalMoveError):
            g.play(bad)
        assert dump_position(g) == before and g.history == [] and g.legal_moves() == legal


# -- one computation per sheet item ------------------------------------------------------------
@pytest.mark.parametrize("variant", VARIANTS)
def test_sheet_points_from_values_agree_with_the_awards(variant):
    """``score_hand`` works each item out once (values, then points from them); the search's
    ``award`` path must give every item the same points."""
    from scopa.meaning import meaning_of

    rng = random.Random(f"items-{variant}")
    for n in VARIANT_SEATINGS[variant]:
        rules = Rules.preset(variant, players=n)
        sides = rules.teams
        for _ in range(60):
            piles = [0] * n
            for c in range(40):
                if rng.random() < 0.9:
                    piles[rng.randrange(n)] |= 1 << c
            scope = [rng.randrange(3) for _ in range(n)]
            declared = [rng.choice((0, 0, 3, 10)) for _ in range(n)]
            sheet = score_hand(rules, piles, scope, declared)
            side_piles, sweeps, decl = meaning_of(rules).side_piles(piles, scope, declared)
            for item, entry in zip(meaning_of(rules).items, sheet["items"], strict=True):
                assert entry["key"] == item.key
                assert entry["points"] == item.points(side_piles, sweeps, decl), item.key
                assert len(entry["values"]) == sides


def test_score_sheet_keeps_no_list_of_the_caller():
    rules = Rules.preset("scopa")
    scope = [1, 0]
    sheet = score_hand(rules, [0x3FF, 0xFFC00], scope)
    scope[0] = 5
    assert [item["values"] for item in sheet["items"] if item["key"] == "scope"] == [[1, 0]]


def test_from_parts_sets_every_field():
    """``Hand.from_parts`` sets each field itself (no ``_init_empty`` first): none is left
    unset, and they match a dealt game's."""
    for variant in ("scopa", "cirulla"):
        g = Match(Rules.preset(variant), seed="parts").hand
        h = load_position(dump_position(g))
        for name in Hand.__slots__:
            assert hasattr(h, name), name
        assert dump_position(h) == dump_position(g)
        assert (h.auto_declare, h.meaning, h._rows) == (g.auto_declare, g.meaning, g._rows)
