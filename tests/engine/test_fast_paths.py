"""The engine's fast paths agree with the careful ones they shortcut, and hand every
unusual input to them, so the errors stay the same."""

from __future__ import annotations

import copy
import random

import pytest

from scopa import VARIANTS, Game, PositionError, Rules
from scopa.cards import RANK_KEY, iter_cards, rank_key
from scopa.notation import _ZONE_NAMES, _read_zones, _read_zones_fast

from .helpers import position


def _zones(p: dict) -> list:
    return [*p["hands"], p["table"], p["stock"], *p["captured"]]


def _played_positions(count: int) -> list[dict]:
    """Positions of every variant, fresh and part-played."""
    rng = random.Random(5)
    out = []
    for i in range(count):
        variant = VARIANTS[i % len(VARIANTS)]
        players = 4 if variant.startswith("scopone") else rng.choice([2, 3, 4, 6])
        g = Game(Rules.preset(variant, players=players), seed=f"fast-{i}")
        for _ in range(rng.randrange(0, 40)):
            if g.hand_over:
                break
            g.play(rng.choice(g.legal_moves()))
        out.append(g.to_position())
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
        assert Game.from_position(p).to_position() == p


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
        Game.from_position(p)


def test_fast_path_rejects_wrong_card_counts():
    p = base()
    p["table"].append("10d")  # 41 cards (10d twice)
    assert _read_zones_fast(_zones(p), 2) is None
    with pytest.raises(PositionError, match="10d appears twice"):
        Game.from_position(p)
    p = base()
    p["table"].remove("3s")  # 39 cards
    assert _read_zones_fast(_zones(p), 2) is None
    with pytest.raises(PositionError, match="missing: 3s"):
        Game.from_position(p)


def test_other_spellings_still_load_through_the_careful_reading():
    p = base()
    upper = copy.deepcopy(p)
    upper["table"] = [c.upper() for c in upper["table"]]
    upper["hands"][0][0] = "7D"
    assert _read_zones_fast(_zones(upper), 2) is None
    assert Game.from_position(upper).to_position() == Game.from_position(p).to_position()


def test_list_subclass_zone_loads_like_a_list():
    class Cards(list):  # type: ignore[type-arg]
        pass

    p = base()
    q = copy.deepcopy(p)
    q["table"] = Cards(q["table"])
    assert _read_zones_fast(_zones(q), 2) is None
    assert Game.from_position(q).to_position() == Game.from_position(p).to_position()


def test_deal_shape_checked_after_a_good_position_of_the_same_shape():
    # the shape cache must only ever remember shapes that passed
    good = base()
    Game.from_position(good)
    for _ in range(2):
        bad = base()
        bad["to_move"] = 1  # seat 1 to move although seat 0 has not played
        with pytest.raises(PositionError, match="hand sizes"):
            Game.from_position(bad)
    Game.from_position(good)
