"""One example per rule and option of docs/rules.md, each on a hand-built position.

Every expectation here is worked out by hand from docs/rules.md, not copied from the engine.
"""

from __future__ import annotations

import copy
import random

import pytest

from scopa import IllegalMoveError, PositionError, Rules, card, card_name, card_text
from scopa.hand import Hand
from scopa.match import Match
from scopa.notation import dump_position, load_position
from scopa.shuffle import deck_from_seed
from scopa.view import PlayerView

from .helpers import ALL_CARDS, captures_for, game, position, rank

S = frozenset


def pos_of(g: Hand) -> dict:
    return dump_position(g)


def finished(piles: list[list[str]], **kw) -> Hand:
    """A finished hand: empty hands, table and stock; ``piles`` hold all 40 cards."""
    n = len(piles)
    assert sorted(c for p in piles for c in p) == sorted(ALL_CARDS)
    return game([[] for _ in range(n)], [], captured=piles, **kw)


def rest(*taken: list[str]) -> list[str]:
    used = {c for p in taken for c in p}
    return [c for c in ALL_CARDS if c not in used]


def points(g: Hand, side: int) -> dict:
    return g.hand_result()["sides"][side]["points"]


# -- capturing -----------------------------------------------------------------------------
def test_same_rank_beats_sum():
    g = game([["7d", "1b", "2b"], ["5s", "6s", "8s"]], ["7c", "3s", "4d"], stock_size=6)
    assert captures_for(g, "7d") == {S(["7c"])}
    before = pos_of(g)
    with pytest.raises(IllegalMoveError):
        g.play({"card": "7d", "capture": ["3s", "4d"]})
    assert pos_of(g) == before


def test_player_chooses_among_equal_ranks():
    for choice in ("5c", "5s"):
        g = game([["5d", "1b", "2b"], ["4s", "6s", "8s"]], ["5c", "5s", "2d"], stock_size=6)
        assert captures_for(g, "5d") == {S(["5c"]), S(["5s"])}
        g.play({"card": "5d", "capture": [choice]})
        other = "5s" if choice == "5c" else "5c"
        assert sorted(pos_of(g)["table"]) == sorted([other, "2d"])
        assert {"5d", choice} <= set(pos_of(g)["captured"][0])


def test_sum_capture_choice():
    table = ["1c", "6s", "3d", "4b", "2s"]
    g = game([["7d", "10b", "9b"], ["5s", "6c", "8s"]], table, stock_size=6)
    # subsets of {1, 6, 3, 4, 2} making 7 with two or more cards: 1+6, 3+4, 1+2+4
    assert captures_for(g, "7d") == {S(["1c", "6s"]), S(["3d", "4b"]), S(["1c", "2s", "4b"])}
    g.play("7d:1c+2s+4b")
    assert sorted(pos_of(g)["table"]) == sorted(["6s", "3d"])


def test_fewest_cards_option():
    table = ["1c", "6s", "3d", "4b", "2s"]
    g = game(
        [["7d", "10b", "9b"], ["5s", "6c", "8s"]], table, stock_size=6, fewest_cards=True
    )
    assert captures_for(g, "7d") == {S(["1c", "6s"]), S(["3d", "4b"])}
    before = pos_of(g)
    with pytest.raises(IllegalMoveError):
        g.play("7d:1c+2s+4b")
    assert pos_of(g) == before


def test_fewest_cards_does_not_touch_same_rank():
    g = game([["4d", "10b", "9b"], ["5s", "6c", "8s"]], ["4c", "1s", "3s"], fewest_cards=True)
    assert captures_for(g, "4d") == {S(["4c"])}


def test_capture_forced_only_for_card_played():
    g = game([["7d", "2c", "9b"], ["5s", "6c", "8s"]], ["3s", "4b"], stock_size=6)
    assert captures_for(g, "2c") == {S()}
    assert captures_for(g, "7d") == {S(["3s", "4b"])}
    before = pos_of(g)
    with pytest.raises(IllegalMoveError):
        g.play({"card": "7d", "capture": []})
    assert pos_of(g) == before
    g.play({"card": "2c", "capture": []})
    assert sorted(pos_of(g)["table"]) == sorted(["3s", "4b", "2c"])
    assert pos_of(g)["to_move"] == 1


def test_face_cards_take_sums():
    g = game([["10d", "8d", "9d"], ["5s", "6c", "8s"]], ["1c", "9s", "3b", "7s"], stock_size=6)
    assert captures_for(g, "10d") == {S(["1c", "9s"]), S(["3b", "7s"])}
    assert captures_for(g, "8d") == {S(["1c", "7s"])}
    assert captures_for(g, "9d") == {S(["9s"])}


def test_no_capture_lays_card():
    g = game([["6d", "10b", "9b"], ["5s", "6c", "8s"]], ["10c", "9s"], stock_size=6)
    assert captures_for(g, "6d") == {S()}
    g.play("6d")
    assert pos_of(g)["table"][-1] == "6d"


def test_single_card_sum_is_not_a_sum_capture():
    # a sum capture needs two or more cards; a lone card of another rank is never taken
    g = game([["6d", "10b", "9b"], ["5s", "6c", "8s"]], ["2c", "3c"], stock_size=6)
    assert captures_for(g, "6d") == {S()}


# -- sweeps and the end of the hand --------------------------------------------------------
def test_scopa_sweep_scores():
    g = game([["7d", "1b", "2b"], ["5s", "6s", "8s"]], ["3s", "4d"], stock_size=6)
    g.play("7d:3s+4d")
    p = pos_of(g)
    assert p["table"] == [] and p["scope"] == [1, 0] and p["last_capturer"] == 0
    assert {"7d", "3s", "4d"} <= set(p["captured"][0])


def test_display_order_kept():
    # docs/formats.md: order is kept when read; a laid card goes to the end of the table,
    # the cards of a capture to the end of the pile
    g = game(
        [["7d", "6b", "2b"], ["5s", "6s", "8s"]], ["4d", "9c", "3s"], stock_size=6,
        captured=[["10b", "1b"], []],
    )
    g.play("7d:3s+4d")
    p = pos_of(g)
    assert p["table"] == ["9c"]
    assert p["captured"][0][:2] == ["10b", "1b"]
    assert set(p["captured"][0][2:]) == {"7d", "3s", "4d"}
    g.play("5s")
    assert pos_of(g)["table"] == ["9c", "5s"]
    g.play("6b")
    assert pos_of(g)["table"] == ["9c", "5s", "6b"]


def test_scopa_at_end_of_earlier_round_scores():
    # the dealer's last card of a round that is not the final one: the sweep counts
    g = game([[], ["7d"]], ["3s", "4d"], to_move=1, stock_size=6)
    g.play("7d:3s+4d")
    assert pos_of(g)["scope"] == [0, 1]
    assert not g.hand_over


def test_scopa_not_on_last_play():
    g = game([[], ["7d"]], ["3s", "4d"], to_move=1)
    g.play("7d:3s+4d")
    assert g.hand_over
    p = pos_of(g)
    assert p["scope"] == [0, 0]
    assert {"7d", "3s", "4d"} <= set(p["captured"][1])
    assert g.hand_result()["sides"][1]["points"]["scope"] == 0


def test_last_sweep_counts_option():
    g = game([[], ["7d"]], ["3s", "4d"], to_move=1, last_sweep_counts=True)
    g.play("7d:3s+4d")
    assert pos_of(g)["scope"] == [0, 1]
    assert g.hand_result()["sides"][1]["points"]["scope"] == 1


def test_last_sweep_counts_for_dealers_side_scopone_scientifico():
    g = game(
        [[], [], [], ["7d"]], ["3s", "4d"], variant="scopone-scientifico", dealer=3, to_move=3,
        last_sweep_counts=True,
    )
    g.play("7d:3s+4d")
    assert g.hand_result()["sides"][1]["points"]["scope"] == 1  # dealer 3 plays for side 1
    g2 = game([[], [], [], ["7d"]], ["3s", "4d"], variant="scopone-scientifico", to_move=3)
    g2.play("7d:3s+4d")
    assert g2.hand_result()["sides"][1]["points"]["scope"] == 0


def test_leftovers_to_last_capturer():
    g = game(
        [[], ["9c"]], ["2s", "5b"], to_move=1, last_capturer=0,
        captured=[["3d", "3c"], []], scope=[1, 0],
    )
    g.play("9c")
    assert g.hand_over
    p = pos_of(g)
    assert p["table"] == []
    assert {"2s", "5b", "9c", "3d", "3c"} == set(p["captured"][0])
    assert p["scope"] == [1, 0]  # taking the leftovers is not a scopa


def test_leftovers_nobody_when_no_capture():
    # A synthetic position (no capture all hand cannot happen with 40 cards): with no
    # last capturer the leftovers count for nobody.
    g = game([[], ["9c"]], ["2s", "5b"], to_move=1, last_capturer=None, rest_seat=0)
    g.play("9c")
    assert g.hand_over
    res = g.hand_result()
    assert res["sides"][0]["cards"] == 37
    assert res["sides"][1]["cards"] == 0


# -- scoring -------------------------------------------------------------------------------
COINS = [f"{r}d" for r in range(1, 11)]
CUPS = [f"{r}c" for r in range(1, 11)]
SWORDS = [f"{r}s" for r in range(1, 11)]
CLUBS = [f"{r}b" for r in range(1, 11)]


def test_cards_point_tie_nobody():
    g = finished([COINS + CUPS, SWORDS + CLUBS])
    res = g.hand_result()
    assert [s["cards"] for s in res["sides"]] == [20, 20]
    assert points(g, 0)["cards"] == 0 and points(g, 1)["cards"] == 0


def test_cards_point_most_cards():
    mine = COINS + CUPS + ["1s"]
    g = finished([mine, rest(mine)])
    assert points(g, 0)["cards"] == 1 and points(g, 1)["cards"] == 0


def test_coins_point_and_tie():
    mine = ["1d", "2d", "3d", "4d", "5d", "6d"]
    g = finished([mine, rest(mine)])
    assert g.hand_result()["sides"][0]["coins"] == 6
    assert points(g, 0)["coins"] == 1 and points(g, 1)["coins"] == 0
    mine = ["1d", "2d", "3d", "4d", "5d"] + CUPS + ["1s", "2s", "3s", "4s", "5s"]
    g = finished([mine, rest(mine)])  # 5 coins each, 20 cards each
    assert points(g, 0)["coins"] == 0 and points(g, 1)["coins"] == 0
    assert points(g, 0)["cards"] == 0 and points(g, 1)["cards"] == 0


def test_settebello():
    mine = ["7d"]
    g = finished([mine, rest(mine)])
    assert points(g, 0)["settebello"] == 1 and points(g, 1)["settebello"] == 0
    assert g.hand_result()["sides"][0]["settebello"] is True


@pytest.mark.parametrize(
    "mine, my_total, their_total",
    [
        (["7d", "6c", "1s", "5b"], 21 + 18 + 16 + 15, 18 + 21 + 21 + 21),
        (["4d", "3c", "2s", "10b"], 14 + 13 + 12 + 10, 84),
        (["8d", "9c", "10s", "8b"], 40, 84),
        (["1d", "2d", "3c", "4s", "5b", "8b"], 16 + 13 + 14 + 15, 84),
        (["7d", "7c", "7s", "7b"], 84, 72),
    ],
)
def test_primiera_values(mine, my_total, their_total):
    g = finished([mine, rest(mine)])
    res = g.hand_result()
    assert res["sides"][0]["primiera"] == my_total
    assert res["sides"][1]["primiera"] == their_total
    winner = 0 if my_total > their_total else 1
    assert points(g, winner)["primiera"] == 1 and points(g, 1 - winner)["primiera"] == 0


def test_primiera_missing_suit():
    theirs = CLUBS + ["2d", "2c", "2s"]  # 21 + 12 + 12 + 12 = 57
    g = finished([rest(theirs), theirs])  # seat 0: 27 cards, no club (63 on three suits)
    res = g.hand_result()
    assert res["sides"][0]["primiera"] is None
    assert res["sides"][1]["primiera"] == 57
    assert points(g, 1)["primiera"] == 1 and points(g, 0)["primiera"] == 0
    # nobody holds all four suits: nobody scores it
    g = finished([COINS + CUPS + SWORDS, CLUBS])
    res = g.hand_result()
    assert [s["primiera"] for s in res["sides"]] == [None, None]
    assert points(g, 0)["primiera"] == 0 and points(g, 1)["primiera"] == 0


def test_primiera_face_values_option():
    mine = ["8d", "9c", "10s", "8b"]
    assert Rules.preset("scopa").primiera_faces == "ten"
    g = finished([mine, rest(mine)], primiera_faces="rank")
    assert g.hand_result()["sides"][0]["primiera"] == 8 + 9 + 10 + 8
    mine = ["4d", "3c", "2s", "10b"]
    g = finished([mine, rest(mine)], primiera_faces="rank")
    assert g.hand_result()["sides"][0]["primiera"] == 14 + 13 + 12 + 10


def test_scope_one_point_per_sweep():
    g = finished([COINS + CUPS, SWORDS + CLUBS], scope=[3, 1])
    assert points(g, 0)["scope"] == 3 and points(g, 1)["scope"] == 1
    # coins 1 + settebello 1 + scope 3; cards tie; nobody has all suits
    assert g.hand_result()["sides"][0]["total"] == 5
    assert g.hand_result()["sides"][1]["total"] == 1


def test_hand_result_format():
    g = finished([COINS + CUPS, SWORDS + CLUBS], scope=[1, 0])
    res = g.hand_result()
    side = res["sides"][0]
    assert side["seats"] == [0]
    for key in ("cards", "coins", "settebello", "primiera", "scope", "points", "total"):
        assert key in side
    for key in ("cards", "coins", "settebello", "primiera", "scope", "napola", "re_bello"):
        assert key in side["points"]
    assert side["total"] == sum(side["points"].values())


# -- Scopa d'Assi / Asso Pigliatutto -------------------------------------------------------
ASSO = {"variant": "asso-pigliatutto"}


def test_ace_takes_all():
    table = ["3s", "4d", "10c"]
    g = game([["1d", "5c", "9c"], ["2s", "6s", "8s"]], table, stock_size=6, **ASSO)
    assert captures_for(g, "1d") == {S(table)}
    g.play({"card": "1d", "capture": table})
    p = pos_of(g)
    assert p["table"] == []
    assert set(table + ["1d"]) <= set(p["captured"][0])


def test_ace_on_table_only_takes_ace():
    g = game([["1d", "5c", "9c"], ["2s", "6s", "8s"]], ["1c", "5s", "4b"], stock_size=6, **ASSO)
    assert captures_for(g, "1d") == {S(["1c"])}
    g.play("1d:1c")
    assert sorted(pos_of(g)["table"]) == sorted(["5s", "4b"])


def test_ace_on_empty_table_stays():
    g = game([["1d", "5c", "9c"], ["2s", "6s", "8s"]], [], stock_size=6, **ASSO)
    assert captures_for(g, "1d") == {S()}
    g.play("1d")
    assert pos_of(g)["table"] == ["1d"]


def test_ace_sweep_not_scopa_by_default():
    g = game([["1d", "5c", "9c"], ["2s", "6s", "8s"]], ["3s", "4d"], stock_size=6, **ASSO)
    g.play("1d:3s+4d")
    assert pos_of(g)["scope"] == [0, 0]
    assert pos_of(g)["last_capturer"] == 0


def test_ace_sweep_scopa_option():
    g = game(
        [["1d", "5c", "9c"], ["2s", "6s", "8s"]], ["3s", "4d"], stock_size=6,
        ace_sweep_scopa=True, **ASSO,
    )
    g.play("1d:3s+4d")
    assert pos_of(g)["scope"] == [1, 0]


def test_lone_ace_capture_is_scopa():
    g = game([["1d", "5c", "9c"], ["2s", "6s", "8s"]], ["1c"], stock_size=6, **ASSO)
    assert captures_for(g, "1d") == {S(["1c"])}
    g.play("1d:1c")
    assert pos_of(g)["scope"] == [1, 0]


def test_ace_does_not_take_all_in_plain_scopa():
    g = game([["1d", "5c", "9c"], ["2s", "6s", "8s"]], ["3s", "4d"], stock_size=6)
    assert captures_for(g, "1d") == {S()}


# -- Napola, Re Bello ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "coins, run",
    [
        (["1d", "2d", "3d"], 3),
        (["1d", "2d", "3d", "4d"], 4),
        (["1d", "2d", "3d", "4d", "5d", "6d"], 6),
        (COINS, 10),
        (["1d", "2d", "4d", "5d"], 0),
        (["1d", "2d", "3d", "5d", "6d"], 3),
        (["2d", "3d", "4d"], 0),
    ],
)
def test_napola_run(coins, run):
    g = finished([coins, rest(coins)], variant="napola")
    assert points(g, 0)["napola"] == run
    assert points(g, 1)["napola"] == 0
    plain = finished([coins, rest(coins)])
    assert points(plain, 0)["napola"] == 0


def test_napola_outright_option():
    g = Match.from_hand(finished([COINS, rest(COINS)], variant="napola", target=31,
                                 napola_outright=True))
    # napola 10 + coins 1 + settebello 1 = 12, far from 31: the outright win decides
    assert g.hand.hand_result()["sides"][0]["total"] == 12
    assert g.winner == 0 and g.match_over
    g = Match.from_hand(finished([COINS, rest(COINS)], variant="napola", target=31))
    assert g.winner is None and not g.match_over
    nine = COINS[:9]
    g = Match.from_hand(finished([nine, rest(nine)], variant="napola", target=31,
                                 napola_outright=True))
    assert g.winner is None


def test_re_bello():
    mine = ["10d", "1c"]
    g = finished([mine, rest(mine)], variant="re-bello")
    assert points(g, 0)["re_bello"] == 1 and points(g, 1)["re_bello"] == 0
    plain = finished([mine, rest(mine)])
    assert points(plain, 0)["re_bello"] == 0
    assert g.hand_result()["sides"][0]["total"] == plain.hand_result()["sides"][0]["total"] + 1


# -- Scopa a Quindici, Escoba --------------------------------------------------------------
QUINDICI = {"variant": "quindici"}


def test_quindici_captures():
    table = ["5c", "3s", "7b", "10d", "2b"]
    g = game([["8d", "5d", "10s"], ["4s", "6s", "8s"]], table, stock_size=6, **QUINDICI)
    assert captures_for(g, "8d") == {S(["7b"]), S(["5c", "2b"])}
    assert captures_for(g, "5d") == {S(["10d"]), S(["3s", "7b"]), S(["5c", "3s", "2b"])}
    assert captures_for(g, "10s") == {S(["5c"]), S(["3s", "2b"])}
    g.play("5d:5c+3s+2b")
    assert sorted(pos_of(g)["table"]) == sorted(["7b", "10d"])


def test_quindici_no_equal_rank_capture():
    g = game([["5d", "1b", "2b"], ["4s", "6s", "8s"]], ["5c", "9s"], stock_size=6, **QUINDICI)
    assert captures_for(g, "5d") == {S()}


def test_quindici_must_capture():
    table = ["5c", "3s", "7b", "10d", "2b"]
    g = game([["8d", "5d", "4c"], ["4s", "6s", "8s"]], table, stock_size=6, **QUINDICI)
    before = pos_of(g)
    with pytest.raises(IllegalMoveError):
        g.play("8d")
    assert pos_of(g) == before
    # 4 needs 11: no subset of {5, 3, 7, 10, 2} makes 11, so the 4 is laid
    assert captures_for(g, "4c") == {S()}
    g.play("4c")
    assert "4c" in pos_of(g)["table"]


def test_quindici_sweep_is_scopa():
    g = game([["8d", "1b", "2b"], ["4s", "6s", "8s"]], ["3s", "4b"], stock_size=6, **QUINDICI)
    g.play("8d:3s+4b")
    assert pos_of(g)["scope"] == [1, 0]


def escoba_deck(table: list[str]) -> list[int]:
    hands = ["1d", "1c", "1s", "1b", "2d", "2s"]
    others = [c for c in ALL_CARDS if c not in hands + table]
    return [card(c) for c in hands + table + others]


@pytest.mark.parametrize(
    "table, sweeps",
    [
        (["2c", "3s", "4b", "6c"], 1),
        (["10c", "10s", "5b", "5c"], 2),
        (["2c", "3s", "4b", "5c"], 0),
        (["10c", "10s", "5b", "6c"], 0),
    ],
)
def test_escoba_opening_sweep_15_and_30(table, sweeps):
    g = Match(Rules.preset("escoba"), deck=escoba_deck(table)).hand
    p = pos_of(g)
    assert p["dealer"] == 1
    assert p["scope"] == [0, sweeps]
    if sweeps:
        assert p["table"] == [] and set(p["captured"][1]) == set(table)
    else:
        assert set(p["table"]) == set(table) and p["captured"] == [[], []]
    assert p["to_move"] == 0
    # the plain game knows no opening sweep
    plain = Match(Rules.preset("scopa"), deck=escoba_deck(table)).hand
    assert pos_of(plain)["scope"] == [0, 0]


def test_escoba_most_sevens():
    mine = ["7c", "7s", "7b"]
    g = finished([mine, rest(mine)], variant="escoba")
    assert points(g, 0)["sevens"] == 1 and points(g, 1)["sevens"] == 0
    assert points(g, 0)["primiera"] == 0 and points(g, 1)["primiera"] == 0
    # seat 1: cards, coins, settebello; no primiera in Escoba
    assert g.hand_result()["sides"][1]["total"] == 3
    mine = ["7c", "7s"]
    g = finished([mine, rest(mine)], variant="escoba")
    assert points(g, 0)["sevens"] == 0 and points(g, 1)["sevens"] == 0
    plain = finished([["7c", "7s", "7b"], rest(["7c", "7s", "7b"])])
    assert points(plain, 0)["sevens"] == 0


def test_escoba_played_to_21():
    assert Rules.preset("escoba").target == 21
    assert Rules.preset("scopa").target == 11


# -- deals ---------------------------------------------------------------------------------
def shuffled(seed: int) -> list[str]:
    deck = list(ALL_CARDS)
    random.Random(seed).shuffle(deck)
    return deck


def kings_in(cards: list[str]) -> int:
    return sum(1 for c in cards if rank(c) == 10)


def safe_deck(seed: int, table_at: int, table_cards: int = 4) -> list[str]:
    deck = shuffled(seed)
    while kings_in(deck[table_at : table_at + table_cards]) >= 3:
        seed += 1000
        deck = shuffled(seed)
    return deck


def test_deal_order_one_card_at_a_time():
    deck = safe_deck(3, 6)
    g = Match(Rules.preset("scopa"), deck=[card(c) for c in deck]).hand
    p = pos_of(g)
    assert p["dealer"] == 1 and p["to_move"] == 0
    assert set(p["hands"][0]) == {deck[0], deck[2], deck[4]}
    assert set(p["hands"][1]) == {deck[1], deck[3], deck[5]}
    assert set(p["table"]) == set(deck[6:10])
    assert p["stock"] == deck[10:]
    g = Match(Rules.preset("scopa"), deck=[card(c) for c in deck], dealer=0).hand
    p = pos_of(g)
    assert p["to_move"] == 1
    assert set(p["hands"][1]) == {deck[0], deck[2], deck[4]}
    assert set(p["hands"][0]) == {deck[1], deck[3], deck[5]}
    deck = safe_deck(4, 9)
    g = Match(Rules.preset("scopa", players=3), deck=[card(c) for c in deck]).hand
    p = pos_of(g)
    for seat in range(3):
        assert set(p["hands"][seat]) == {deck[seat], deck[seat + 3], deck[seat + 6]}
    assert set(p["table"]) == set(deck[9:13])
    assert p["stock"] == deck[13:]


def play_round(g: Hand, plays: int) -> None:
    for _ in range(plays):
        g.play(g.legal_moves()[0])


def test_next_round_dealt_to_hands_only():
    deck = safe_deck(5, 6)
    g = Match(Rules.preset("scopa"), deck=[card(c) for c in deck]).hand
    play_round(g, 6)
    p = pos_of(g)
    assert set(p["hands"][0]) == {deck[10], deck[12], deck[14]}
    assert set(p["hands"][1]) == {deck[11], deck[13], deck[15]}
    assert not set(p["table"]) & set(deck[10:16])
    assert p["stock"] == deck[16:]
    assert p["to_move"] == 0


def test_two_players_six_rounds():
    deck = safe_deck(6, 6)
    g = Match(Rules.preset("scopa"), deck=[card(c) for c in deck]).hand
    for r in range(6):
        p = pos_of(g)
        assert [len(h) for h in p["hands"]] == [3, 3]
        assert len(p["stock"]) == 30 - 6 * r
        play_round(g, 6)
    assert g.hand_over


def test_three_and_four_players_rounds():
    for players, rounds in ((3, 4), (4, 3)):
        deck = safe_deck(7, 3 * players)
        g = Match(Rules.preset("scopa", players=players), deck=[card(c) for c in deck]).hand
        for r in range(rounds):
            p = pos_of(g)
            assert [len(h) for h in p["hands"]] == [3] * players
            assert len(p["stock"]) == 36 - 3 * players * (r + 1)
            play_round(g, 3 * players)
        assert g.hand_over


def test_scopone_deal():
    deck = safe_deck(8, 36)
    g = Match(Rules.preset("scopone"), deck=[card(c) for c in deck]).hand
    p = pos_of(g)
    assert p["dealer"] == 3 and p["to_move"] == 0
    for seat in range(4):
        assert set(p["hands"][seat]) == {deck[i] for i in range(36) if i % 4 == seat}
    assert set(p["table"]) == set(deck[36:])
    assert p["stock"] == []
    assert g.rules.teams == 2 and g.rules.players == 4


def test_scopone_scientifico_deal():
    deck = shuffled(9)
    g = Match(Rules.preset("scopone-scientifico"), deck=[card(c) for c in deck]).hand
    p = pos_of(g)
    for seat in range(4):
        assert set(p["hands"][seat]) == {deck[i] for i in range(40) if i % 4 == seat}
    assert p["table"] == [] and p["stock"] == []
    play_round(g, 40)
    assert g.hand_over


def test_five_players_deal():
    deck = safe_deck(10, 15, 5)
    rules = Rules.preset("scopa", players=5)
    assert rules.teams == 5  # no teams
    g = Match(rules, deck=[card(c) for c in deck]).hand
    p = pos_of(g)
    for seat in range(5):
        assert set(p["hands"][seat]) == {deck[i] for i in range(15) if i % 5 == seat}
    assert set(p["table"]) == set(deck[15:20])
    assert p["stock"] == deck[20:]
    play_round(g, 15)
    p = pos_of(g)
    for seat in range(5):
        assert set(p["hands"][seat]) == {deck[20 + i] for i in range(20) if i % 5 == seat}
    assert p["stock"] == []
    play_round(g, 20)
    assert g.hand_over
    assert len(g.hand_result()["sides"]) == 5


def test_six_players_teams_2x3_and_3x2():
    rules = Rules.preset("scopa", players=6)
    assert rules.teams == 2
    assert rules.table_cards == 4 and rules.rounds == (3, 3)
    piles = [ALL_CARDS[i::6] for i in range(6)]
    g = finished(piles)
    assert [s["seats"] for s in g.hand_result()["sides"]] == [[0, 2, 4], [1, 3, 5]]
    assert g.hand_result()["sides"][0]["cards"] == sum(len(piles[i]) for i in (0, 2, 4))
    g = finished(piles, teams=3)
    assert [s["seats"] for s in g.hand_result()["sides"]] == [[0, 3], [1, 4], [2, 5]]
    assert g.hand_result()["sides"][2]["cards"] == len(piles[2]) + len(piles[5])
    deck = safe_deck(11, 18)
    g = Match(Rules.preset("scopa", players=6, teams=3), deck=[card(c) for c in deck]).hand
    p = pos_of(g)
    assert [len(h) for h in p["hands"]] == [3] * 6 and len(p["table"]) == 4
    assert len(p["stock"]) == 18


def test_team_pooling():
    piles = [
        ["1d", "2d", "3d"] + [f"{r}c" for r in range(1, 10)],
        ["7d", "8d", "7s", "8s", "9s", "10s", "1b", "2b", "3b"],
        ["4d", "5d", "6d", "10c", "1s", "2s", "3s", "4s", "5s", "6s"],
        ["9d", "10d"] + [f"{r}b" for r in range(4, 11)],
    ]
    g = finished(piles, scope=[1, 0, 2, 1])
    res = g.hand_result()
    assert res["sides"][0]["seats"] == [0, 2]
    assert res["sides"][0]["cards"] == 22 and res["sides"][1]["cards"] == 18
    assert res["sides"][0]["coins"] == 6 and res["sides"][1]["coins"] == 4
    assert res["sides"][0]["scope"] == 3 and res["sides"][1]["scope"] == 1
    # side 0 has no club, side 1 no cup: nobody scores the primiera
    assert res["sides"][0]["total"] == 1 + 1 + 3
    assert res["sides"][1]["total"] == 1 + 1  # settebello, one sweep


# -- void deals ----------------------------------------------------------------------------
def table_kings(seed: str, attempt: int, players: int = 2) -> int:
    deck = [ALL_CARDS[c] for c in deck_from_seed(seed, attempt)]
    return kings_in(deck[3 * players : 3 * players + 4])


def find_seed(kings: int) -> str:
    for i in range(200_000):
        s = f"void-{i}"
        if table_kings(s, 0) == kings:
            return s
    raise AssertionError("no seed found")


def test_king_redeal_three_kings():
    assert Rules.preset("scopa").king_redeal == 3
    seed = find_seed(3)
    g = Match(Rules.preset("scopa"), hand_seed=seed)
    assert g.hand_attempt >= 1
    assert g.hand.dealer == 1  # the same dealer deals again
    for attempt in range(g.hand_attempt):
        assert table_kings(seed, attempt) >= 3
    assert table_kings(seed, g.hand_attempt) < 3
    deck = [ALL_CARDS[c] for c in deck_from_seed(seed, g.hand_attempt)]
    assert set(pos_of(g.hand)["table"]) == set(deck[6:10])
    assert kings_in(pos_of(g.hand)["table"]) < 3


def test_king_redeal_two_kings_play_on():
    seed = find_seed(2)
    g = Match(Rules.preset("scopa"), hand_seed=seed)
    assert g.hand_attempt == 0 and kings_in(pos_of(g.hand)["table"]) == 2


def test_king_redeal_threshold_option():
    seed = find_seed(3)
    g = Match(Rules.preset("scopa", king_redeal=4), hand_seed=seed)
    assert g.hand_attempt == 0 and kings_in(pos_of(g.hand)["table"]) == 3
    seed4 = find_seed(4)
    g = Match(Rules.preset("scopa", king_redeal=4), hand_seed=seed4)
    assert g.hand_attempt >= 1
    g = Match(Rules.preset("scopa", king_redeal=None), hand_seed=seed4)
    assert g.hand_attempt == 0 and kings_in(pos_of(g.hand)["table"]) == 4
    seed2 = find_seed(2)
    g = Match(Rules.preset("scopa", king_redeal=2), hand_seed=seed2)
    assert g.hand_attempt >= 1


# -- winning -------------------------------------------------------------------------------
def two_all(scores: list[int], **kw) -> Match:
    """Side 0 takes the coins (coins, settebello = 2), side 1 the rest (cards) and one sweep
    (= 2); nobody has four suits, so no primiera. The match going on from that hand."""
    return Match.from_hand(finished([COINS, rest(COINS)], scope=[0, 1], scores=scores, **kw))


def test_target_and_tiebreak_extra_hand():
    g = two_all([0, 0])
    assert [s["total"] for s in g.hand.hand_result()["sides"]] == [2, 2]
    assert g.winner is None
    g = two_all([9, 9])  # both reach 11 with 11: tie, another hand
    assert g.winner is None and not g.match_over
    g.next_hand(seed="extra")
    assert g.scores == [11, 11] and not g.hand.hand_over
    assert two_all([10, 9]).winner == 0  # 12 against 11: the highest total wins
    assert two_all([9, 10]).winner == 1
    assert two_all([8, 9]).winner == 1  # only side 1 reaches 11
    assert two_all([9, 7]).winner == 0


@pytest.mark.parametrize("target", [11, 16, 21, 31])
def test_target_options(target):
    assert Rules.preset("scopa", target=target).target == target
    assert two_all([target - 2, 0], target=target).winner == 0
    assert two_all([target - 3, 0], target=target).winner is None


def test_dealer_rotation():
    g = Match(Rules.preset("scopa", players=3), seed="rotation")
    for hand in range(3):
        assert g.hand.dealer == (2 + hand) % 3
        assert g.hand.to_move == (g.hand.dealer + 1) % 3
        assert g.hand_number == hand + 1
        played = []
        while not g.hand.hand_over:
            m = g.hand.legal_moves()[0]
            played.append(m.to_dict())
            g.hand.play(m)
        if g.match_over:
            break
        sides = g.hand.hand_result()["sides"]
        totals = [s + side["total"] for s, side in zip(g.scores, sides, strict=True)]
        g.next_hand()
        assert g.scores == totals
        assert len(g.results) == hand + 1
        assert g.results[-1]["dealer"] == (2 + hand) % 3
        assert g.results[-1]["moves"] == played  # the record keeps every hand
        assert g.results[-1]["deck"] == [ALL_CARDS[c] for c in deck_from_seed(
            f"rotation:{hand + 1}", g.results[-1]["redeals"])]


# -- cards, shuffles, seeds ----------------------------------------------------------------
def test_card_notation():
    for c in ALL_CARDS:
        assert card_text(card(c)) == c
    assert card_name(card("7d")) == "7 of coins"
    assert card_name(card("10d")) == "king of coins"
    assert card_name(card("1c")) == "ace of cups"
    assert card_name(card("8s")) == "knave of swords"
    assert card_name(card("9b")) == "knight of clubs"
    for bad in ("0d", "11d", "7x", "07d", "d7", "7", "", "10", "7D", "10B", " 7d", "7d ",
                "+7d", "\u0663d", "\uff17d", "\u0661\u0660d", "\U0001d7d5d", "7\uff44"):
        with pytest.raises(ValueError):
            card(bad)


def test_other_spellings_of_cards_are_refused_in_positions_and_moves():
    """The notation is lower case, ASCII: a position or a move in another spelling is an
    error that names the card, never read as the card it looks like."""
    p = position([["7d", "1b", "2b"], ["5s", "6s", "8s"]], ["3s", "4d"], stock_size=6)
    for spelling in ("7D", "\uff17d", "\u0667d"):
        q = copy.deepcopy(p)
        q["hands"][0][0] = spelling
        with pytest.raises(PositionError, match="not a card"):
            load_position(q)
    g = load_position(p)
    for move in ("7D:3S+4D", "7d:3S+4d", "\u0667d:3s+4d"):
        with pytest.raises(IllegalMoveError, match="not a card"):
            g.play(move)
    assert pos_of(g) == pos_of(load_position(p))  # nothing changed


def test_deck_from_seed_is_a_reproducible_permutation():
    assert deck_from_seed("abc", 0) == deck_from_seed("abc", 0)
    assert sorted(deck_from_seed("abc", 0)) == list(range(40))
    assert deck_from_seed("abc", 0) != deck_from_seed("abc", 1)
    assert deck_from_seed("abc", 0) != deck_from_seed("abd", 0)


def test_deck_from_seed_roughly_uniform():
    first = [0] * 40
    place_of_ace = [0] * 40
    for i in range(4000):
        deck = deck_from_seed(f"u{i}", 0)
        first[deck[0]] += 1
        place_of_ace[deck.index(0)] += 1
    assert min(first) > 50 and max(first) < 160
    assert min(place_of_ace) > 50 and max(place_of_ace) < 160


def test_match_seed_deals_hand_k_from_seed_k():
    g = Match(Rules.preset("scopa"), seed="match")
    assert g.hand_seed == "match:1"
    assert g.deck == deck_from_seed("match:1", g.hand_attempt)
    while not g.hand.hand_over:
        g.hand.play(g.hand.legal_moves()[0])
    g.next_hand()
    assert g.hand_seed == "match:2"
    assert g.deck == deck_from_seed("match:2", g.hand_attempt)
    h = Match(Rules.preset("scopa"), hand_seed="explicit")
    assert h.deck == deck_from_seed("explicit", h.hand_attempt)


def test_unseeded_games_differ():
    decks = {tuple(Match(Rules.preset("scopa")).deck) for _ in range(5)}
    assert len(decks) == 5
    seeds = {Match(Rules.preset("scopa")).hand_seed for _ in range(5)}
    assert len(seeds) == 5 and None not in seeds


def test_hand_result_before_end_raises():
    g = Match(Rules.preset("scopa"), seed=1)
    with pytest.raises(ValueError):
        g.hand.hand_result()
    with pytest.raises(ValueError):
        g.next_hand()


def test_variant_default_targets():
    # docs/rules.md: 11 by default; Scopone and Quindici are "often played to 21", Escoba to 21
    assert Rules.preset("scopa").target == 11
    for v in ("asso-pigliatutto", "napola", "re-bello"):
        assert Rules.preset(v).target == 11
    for v in ("scopone", "scopone-scientifico", "quindici", "escoba"):
        assert Rules.preset(v).target == 21


# -- fair play -----------------------------------------------------------------------------
def test_player_view_shows_only_allowed():
    g = game(
        [["7d", "1b", "2b"], ["5s", "6s", "8s"]], ["3s", "4d"], stock=["9c", "9d"],
        stock_size=6, captured=[["10b"], ["10c"]], last_capturer=1,
    )
    d = PlayerView.of(g, 0).to_dict()
    assert sorted(d["hand"]) == sorted(["7d", "1b", "2b"])
    assert sorted(d["table"]) == sorted(["3s", "4d"])
    assert d["hand_sizes"] == [3, 3] and d["stock_size"] == 6
    text = repr(d)
    for hidden in ["5s", "6s", "8s", "9c", "9d"]:
        assert f"'{hidden}'" not in text
    assert "10b" in d["captured"][0] and "10c" in d["captured"][1]  # piles are public
    d1 = PlayerView.of(g, 1).to_dict()
    for hidden in ["7d", "1b", "2b", "9c", "9d"]:
        assert f"'{hidden}'" not in repr(d1)


def test_view_sample_keeps_what_is_seen():
    g = game(
        [["7d", "1b", "2b"], ["5s", "6s", "8s"]], ["3s", "4d"], stock_size=6, last_capturer=1,
    )
    v = PlayerView.of(g, 0)
    unseen = {"5s", "6s", "8s", *pos_of(g)["stock"]}
    layouts = set()
    rng = random.Random(5)
    for _ in range(30):
        sp = dump_position(v.sample(rng))
        assert sorted(sp["hands"][0]) == sorted(["7d", "1b", "2b"])
        assert sorted(sp["table"]) == sorted(["3s", "4d"])
        assert len(sp["hands"][1]) == 3 and len(sp["stock"]) == 6
        assert set(sp["hands"][1]) | set(sp["stock"]) == unseen
        assert [set(x) for x in sp["captured"]] == [set(x) for x in pos_of(g)["captured"]]
        layouts.add(frozenset(sp["hands"][1]))
    assert len(layouts) > 1
