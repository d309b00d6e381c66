"""Cirulla by RULES.md, one example per rule: the three captures, the ace, the opening
15/30, the two-aces void deal, declarations (with the matta), grande, piccola, seats."""

from __future__ import annotations

import pytest

from scopa import IllegalMoveError, Rules
from scopa.cards import card
from scopa.hand import Hand
from scopa.match import Match
from scopa.meaning import declaration_points
from scopa.notation import dump_position, load_position
from scopa.shuffle import deck_from_seed
from scopa.view import PlayerView

from .helpers import ALL_CARDS, captures_for, game, moves_of, position, rank

CIRULLA = {"variant": "cirulla"}


def fs(*cards: str) -> frozenset[str]:
    return frozenset(cards)


def mask(*cards: str) -> int:
    return sum(1 << card(c) for c in cards)


# -- captures -----------------------------------------------------------------------------
def test_simple_capture_takes_the_equal_card_never_a_sum():
    g = game([["7d", "10b"], ["2b", "9b"]], ["7c", "3s", "4b"], **CIRULLA)
    assert captures_for(g, "7d") == {fs("7c")}


def test_simple_capture_takes_the_fewest_cards():
    g = game([["9d", "10b"], ["2b", "9b"]], ["2c", "3s", "4b", "5d"], **CIRULLA)
    # 4 + 5 is simple (fewest cards), 2 + 4 makes fifteen with the 9; 2 + 3 + 4 is neither
    assert captures_for(g, "9d") == {fs("4b", "5d"), fs("2c", "4b")}


def test_the_player_chooses_between_a_simple_capture_and_a_fifteen():
    g = game([["7d", "10b"], ["2b", "9b"]], ["2c", "3s", "4b", "6d"], **CIRULLA)
    assert captures_for(g, "7d") == {fs("3s", "4b"), fs("2c", "6d")}


def test_fifteen_capture_takes_any_number_of_cards():
    g = game([["8d", "10b"], ["2b", "9b"]], ["7c", "4s"], **CIRULLA)
    assert captures_for(g, "8d") == {fs("7c")}
    g = game([["2d", "10b"], ["2b", "9b"]], ["3c", "4s", "6b"], **CIRULLA)
    assert captures_for(g, "2d") == {fs("3c", "4s", "6b")}


def test_a_card_that_can_capture_must():
    g = game([["8d", "10b"], ["2b", "9b"]], ["7c", "4s"], **CIRULLA)
    with pytest.raises(IllegalMoveError):
        g.play({"card": "8d", "capture": []})
    g.play({"card": "10b", "capture": []})  # another card may still be laid


def test_ace_with_no_ace_on_the_table_takes_it_all_and_is_no_scopa():
    g = game([["1d", "10b"], ["2b", "9b"]], ["5c", "9s"], stock_size=6, **CIRULLA)
    assert captures_for(g, "1d") == {fs("5c", "9s")}  # makes 15 too: still the ace's take
    g.play({"card": "1d", "capture": ["5c", "9s"]})
    assert g.scope == [0, 0] and g.table == 0


def test_ace_sweep_scores_with_the_option():
    g = game([["1d", "10b"], ["2b", "9b"]], ["5c", "9s"], stock_size=6, ace_sweep_scopa=True,
             **CIRULLA)
    g.play({"card": "1d", "capture": ["5c", "9s"]})
    assert g.scope == [1, 0]


def test_ace_with_an_ace_on_the_table_takes_that_ace_or_a_fifteen():
    g = game([["1d", "10b"], ["2b", "9b"]], ["1c", "5c", "9s"], **CIRULLA)
    assert captures_for(g, "1d") == {fs("1c"), fs("5c", "9s")}
    g = game([["1d", "10b"], ["2b", "9b"]], ["1c"], stock_size=6, **CIRULLA)
    g.play({"card": "1d", "capture": ["1c"]})
    assert g.scope == [1, 0]  # an ordinary capture that empties the table


def test_ace_on_an_empty_table_stays():
    g = game([["1d", "10b"], ["2b", "9b"]], [], **CIRULLA)
    assert captures_for(g, "1d") == {fs()}


def test_no_scopa_on_the_hands_last_play():
    g = game([[], ["8d"]], ["7c"], to_move=1, dealer=1, last_capturer=0, **CIRULLA)
    g.play({"card": "8d", "capture": ["7c"]})
    assert g.hand_over and g.scope == [0, 0]


# -- the deal -----------------------------------------------------------------------------
def deck_with(hands: list[list[str]], table: list[str]) -> list[int]:
    """A 2-player deck (dealer 1) dealing these hands and this table; the rest in order."""
    named = [c for h in hands for c in h] + table
    rest = [c for c in ALL_CARDS if c not in named]
    order = [hands[i % 2][i // 2] for i in range(6)] + table + rest
    return [card(c) for c in order]


@pytest.mark.parametrize("table, sweeps", [(["2c", "3s", "4b", "6d"], 1),
                                          (["10c", "10s", "5b", "5d"], 2)])
def test_opening_fifteen_or_thirty_is_the_dealers(table, sweeps):
    rules = Rules.preset("cirulla", declarations="off")
    g = Match(rules, dealer=1, deck=deck_with([["7d", "8d", "9d"], ["7s", "8s", "9s"]], table)).hand
    assert g.table == 0 and g.scope == [0, sweeps] and g.last_capturer == 1
    assert g.captured[1] == mask(*table)


def test_two_aces_void_the_deal_before_any_fifteen():
    rules = Rules.preset("cirulla")
    void = deck_with([["7d", "8d", "9d"], ["7s", "8s", "9s"]], ["1c", "1s", "5b", "8b"])
    with pytest.raises(ValueError, match="void"):
        Match(rules, dealer=1, deck=void)
    seed = next(
        f"aces{i}" for i in range(10_000)
        if sum(1 for c in deck_from_seed(f"aces{i}", 0)[6:10] if rank(ALL_CARDS[c]) == 1) >= 2
    )
    g = Match(rules, dealer=1, hand_seed=seed)
    assert g.hand_attempt >= 1 and g.hand.dealer == 1  # the same dealer deals again
    table = deck_from_seed(seed, g.hand_attempt)[6:10]
    assert sum(1 for c in table if rank(ALL_CARDS[c]) == 1) < 2


def test_kings_do_not_void_a_cirulla_deal():
    rules = Rules.preset("cirulla", declarations="off")
    g = Match(rules, dealer=1, deck=deck_with([["7d", "8d", "9d"], ["7s", "8s", "9s"]],
                                             ["10c", "10s", "10b", "2d"])).hand
    assert g.table == mask("10c", "10s", "10b", "2d")


# -- declarations -------------------------------------------------------------------------
@pytest.mark.parametrize("hand, points", [
    (["1d", "2c", "3s"], 3),      # under 10
    (["7d", "1c", "1s"], 3),      # 9
    (["5d", "5c", "5s"], 10),     # three of a kind
    (["2d", "2c", "2s"], 10),     # both: only the 10
    (["4d", "5c", "10s"], 0),
    (["7c", "4d", "4s"], 10),     # the matta as a third 4
    (["7c", "2d", "5s"], 3),      # the matta as an ace: 8
    (["7c", "9d", "5s"], 0),
    (["7c", "7d", "7s"], 10),     # the matta as itself
])
def test_declaration_points(hand, points):
    assert declaration_points(mask(*hand)) == points


def declaring(hands: list[list[str]], **options) -> Hand:
    p = position(hands, ["10c", "9s"], stock_size=30, **CIRULLA, **options)
    p["declarations"] = {"points": [0, 0], "shown": [[], []], "pending": [0]}
    return load_position(p)


def test_declaring_is_a_move_listed_as_dicts():
    g = declaring([["7c", "4d", "4s"], ["5b", "6b", "8b"]])
    assert [m.to_dict() for m in g.legal_moves()] == [{"declare": True}, {"declare": False}]
    assert moves_of(g) == {("declare", fs()), ("pass", fs())}
    with pytest.raises(IllegalMoveError, match="declare"):
        g.play({"card": "4d", "capture": []})
    g.play({"declare": True})
    assert g.declared == [10, 0] and g.to_move == 0
    assert {m.to_dict()["card"] for m in g.legal_moves()} == {"7c", "4d", "4s"}
    with pytest.raises(IllegalMoveError):
        g.play({"declare": True})  # once
    # the declared hand is public in every view, the spectator's too
    for v in (PlayerView.of(g, 1), PlayerView.of(g, 0)):
        assert sorted(v.to_dict()["declarations"]["shown"][0]) == ["4d", "4s", "7c"]
        assert not v.unseen() & mask("7c", "4d", "4s")

    assert PlayerView.public(g).to_dict()["declarations"]["points"] == [10, 0]
    # a sample of seat 1 keeps the shown cards in seat 0's hand
    import random

    s = PlayerView.of(g, 1).sample(random.Random(1))
    assert s.hands[0] & mask("7c", "4d", "4s") == mask("7c", "4d", "4s")


def test_passing_scores_nothing_and_is_not_told_to_the_others():
    g = declaring([["1d", "2c", "3s"], ["5b", "6b", "8b"]])
    g.play({"declare": False})
    assert g.declared == [0, 0]
    assert all("declare" not in e for e in PlayerView.of(g, 1).to_dict()["history"])
    assert PlayerView.of(g, 0).to_dict()["history"][-1] == {"seat": 0, "declare": False}
    assert g.moves()[-1].to_dict() == {"declare": False}


def test_partners_add_their_declarations():
    p = position([["1d", "2c", "3s"], ["5b", "6b", "8b"], ["5d", "5c", "5s"], ["4b", "9b", "10b"]],
                 [], **CIRULLA)
    p["declarations"] = {"points": [3, 0, 10, 0], "shown": [[], [], [], []], "pending": []}
    g = load_position(p)
    while not g.hand_over:
        g.play(g.legal_moves()[0])
    res = g.hand_result()
    assert [s["points"]["declarations"] for s in res["sides"]] == [13, 0]


def test_auto_declarations_are_made_for_everyone_and_offer_no_moves():
    rules = Rules.preset("cirulla", declarations="auto")
    deck = deck_with([["1d", "2c", "3s"], ["7c", "4d", "4s"]], ["10c", "9s", "8b", "6b"])
    g = Match(rules, dealer=1, deck=deck).hand
    assert g.declared == [3, 10]
    assert not any(m.is_declaration for m in g.legal_moves())
    assert "declare" not in [str(m) for m in g.moves()]
    choice = Match(Rules.preset("cirulla"), dealer=1, deck=deck).hand
    assert [str(m) for m in choice.legal_moves()] == ["declare", "pass"]


def test_a_position_without_declaration_data_has_none_pending():
    g = game([["1d", "2c", "3s"], ["5b", "6b", "8b"]], ["10c"], stock_size=30, **CIRULLA)
    assert not any(m.is_declaration for m in g.legal_moves())
    assert dump_position(g)["declarations"] == {
        "points": [0, 0], "shown": [[], []], "pending": []}


def test_declarations_replay_through_text_moves():
    g = declaring([["7c", "4d", "4s"], ["5b", "6b", "8b"]])
    from scopa.moves import Move

    assert Move.parse("declare").to_dict() == {"declare": True}
    assert str(Move.from_dict({"declare": False})) == "pass"
    g.play("declare")
    assert g.declared == [10, 0]


# -- points and seats ---------------------------------------------------------------------
def finished(piles: list[list[str]]) -> dict:
    p = position([[], []], [], captured=piles, last_capturer=0, **CIRULLA)
    return load_position(p).hand_result()


def test_grande_king_knight_and_knave_of_coins_score_five():
    res = finished([["8d", "9d", "10d"], []])
    assert [s["points"]["grande"] for s in res["sides"]] == [5, 0]
    res = finished([["8d", "9d"], ["10d"]])
    assert [s["points"]["grande"] for s in res["sides"]] == [0, 0]


@pytest.mark.parametrize("coins, run", [(["1d", "2d", "3d"], 3), (["1d", "2d", "3d", "4d"], 4),
                                        (["1d", "2d", "4d"], 0)])
def test_piccola_ace_two_three_of_coins_and_the_run(coins, run):
    res = finished([coins, []])
    assert res["sides"][0]["points"]["piccola"] == run
    keys = [item["key"] for item in res["items"]]
    assert keys == ["cards", "coins", "settebello", "primiera", "scope", "piccola", "grande",
                    "declarations"]


def test_target_players_and_sides():
    assert Rules.preset("cirulla").target == 51
    assert [Rules.preset("cirulla", players=n).teams for n in (2, 3, 4)] == [2, 3, 2]
    for bad in ({"players": 5}, {"players": 6}, {"players": 4, "teams": 4}):
        with pytest.raises(ValueError):
            Rules.preset("cirulla", **bad)
