"""Rules JSON, positions and moves: round trips and clear errors for bad input."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import VARIANTS, IllegalMoveError, Move, PositionError, Rules, card
from scopa.hand import Hand
from scopa.match import Match
from scopa.notation import dump_position, load_position
from scopa.rules import VARIANT_SEATINGS

from .helpers import ALL_CARDS, captures_for, game, moves_of, position


def player_counts(variant: str) -> list[int]:
    return sorted(VARIANT_SEATINGS[variant])


ALL_PRESETS = [(v, n) for v in VARIANTS for n in player_counts(v)]


# -- rules -----------------------------------------------------------------------------------
def test_variants_listed():
    assert set(VARIANTS) == {
        "scopa", "scopone", "scopone-scientifico", "asso-pigliatutto", "napola", "re-bello",
        "quindici", "escoba", "cirulla",
    }


@pytest.mark.parametrize("variant, players", ALL_PRESETS)
def test_rules_json_round_trip(variant, players):
    r = Rules.preset(variant, players=players)
    d = json.loads(json.dumps(r.to_dict()))
    assert d["variant"] == variant and d["players"] == players and "target" in d
    assert Rules.from_dict(d) == r
    assert r.table_cards + players * sum(r.rounds) == 40


@pytest.mark.parametrize(
    "overrides",
    [
        {"target": 16},
        {"target": 31},
        {"fewest_cards": True},
        {"king_redeal": 4},
        {"king_redeal": None},
        {"primiera_faces": "rank"},
        {"last_sweep_counts": True},
        {"re_bello": True, "napola": True, "napola_outright": True},
        {"players": 6, "teams": 3},
        {"players": 4, "teams": 4},
    ],
)
def test_rules_options_round_trip(overrides):
    r = Rules.preset("scopa", **overrides)
    for k, v in overrides.items():
        assert getattr(r, k) == v
    d = json.loads(json.dumps(r.to_dict()))
    assert Rules.from_dict(d) == r
    assert Rules.from_dict(d).to_dict() == d


def test_asso_options_round_trip():
    r = Rules.preset("asso-pigliatutto", ace_sweep_scopa=True, players=3)
    assert Rules.from_dict(json.loads(json.dumps(r.to_dict()))) == r


def test_rules_are_immutable():
    r = Rules.preset("scopa")
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.target = 21  # type: ignore[misc]


@pytest.mark.parametrize(
    "data, words",
    [
        ({"variant": "briscola"}, "variant"),
        ({"variant": "scopa", "colour": "red"}, "colour"),
        ({"variant": "scopa", "players": 7}, "players"),
        ({"variant": "scopa", "players": 1}, "players"),
        ({"variant": "scopa", "players": "2"}, "players"),
        ({"variant": "scopa", "target": 0}, "target"),
        ({"variant": "scopa", "players": 6, "teams": 4}, "teams"),
        ({"variant": "scopa", "king_redeal": 5}, "king_redeal"),
        ({"variant": "scopa", "fewest_cards": "yes"}, "fewest_cards"),
        ({"variant": "scopa", "capture": "twenty"}, "capture"),
        ({"variant": "scopa", "primiera_faces": "eleven"}, "primiera_faces"),
        ({"variant": "quindici", "ace_takes_all": True}, "ace_takes_all"),
        ({"variant": "scopa", "napola_outright": True}, "napola"),
        ({"variant": "scopone", "players": 2}, "40"),
    ],
)
def test_rules_bad_options_clear_errors(data, words):
    with pytest.raises(ValueError, match=words):
        Rules.from_dict(data)


def test_rules_from_dict_not_an_object():
    with pytest.raises(ValueError):
        Rules.from_dict(["scopa"])


# -- positions -------------------------------------------------------------------------------
def base() -> dict:
    return position([["7d", "1b", "2b"], ["5s", "6s", "8s"]], ["3s", "4d"], stock_size=6)


def test_position_round_trip_by_hand():
    p = base()
    g = load_position(json.loads(json.dumps(p)))
    out = dump_position(g)
    assert Rules.from_dict(out.pop("rules")) == Rules.from_dict(p.pop("rules"))
    assert out == p  # every card in the order given


@pytest.mark.parametrize("variant, players", ALL_PRESETS)
def test_position_round_trip_fresh_deal(variant, players):
    g = Match(Rules.preset(variant, players=players), seed=f"rt-{variant}-{players}").hand
    p = json.loads(json.dumps(dump_position(g)))
    assert dump_position(load_position(p)) == p
    assert sum(len(z) for k in ("hands", "captured") for z in p[k]) + len(p["table"]) + len(
        p["stock"]
    ) == 40


def test_position_card_twice():
    p = base()
    p["table"].append("7d")
    with pytest.raises(PositionError, match="7d"):
        load_position(p)


def test_position_missing_card():
    p = base()
    p["table"].remove("3s")
    with pytest.raises(PositionError, match="3s"):
        load_position(p)


def test_position_bad_hand_sizes():
    p = base()
    p["hands"][0].remove("1b")  # seat 0 to move with fewer cards than seat 1
    p["captured"][0].append("1b")
    with pytest.raises(PositionError, match="hand sizes"):
        load_position(p)
    p = base()
    card_ = p["hands"][1].pop()  # seat 1 has played, so seat 1 cannot be behind seat 0
    p["captured"][1].append(card_)
    p["to_move"] = 0
    with pytest.raises(PositionError, match="hand sizes"):
        load_position(p)
    p = base()  # four cards in a hand of a three-card round
    p["hands"][0].append(p["stock"].pop())
    p["hands"][1].append(p["captured"][1].pop())
    p["stock"].append(p["captured"][1].pop())
    with pytest.raises(PositionError, match="hand sizes"):
        load_position(p)


def test_position_stock_size_must_fit_deal():
    p = base()
    p["captured"][1].append(p["stock"].pop())
    with pytest.raises(PositionError, match="stock"):
        load_position(p)


def test_position_unknown_key():
    p = base()
    p["history"] = []
    with pytest.raises(PositionError, match="history"):
        load_position(p)


def test_position_missing_key():
    p = base()
    del p["scope"]
    with pytest.raises(PositionError, match="scope"):
        load_position(p)


@pytest.mark.parametrize(
    "field, value, words",
    [
        ("dealer", 2, "dealer"),
        ("to_move", -1, "to_move"),
        ("to_move", True, "to_move"),
        ("scope", [0], "scope"),
        ("scope", [0, -1], "scope"),
        ("scores", [0, 0, 0], "scores"),
        ("last_capturer", 5, "last_capturer"),
        ("hands", [["7d", "1b", "2b"]], "hands"),
        ("rules", {"variant": "nope"}, "rules"),
        ("table", "3s 4d", "table"),
    ],
)
def test_position_bad_fields(field, value, words):
    p = base()
    p[field] = value
    with pytest.raises(PositionError, match=words):
        load_position(p)


def test_position_bad_card_text():
    p = base()
    p["table"][0] = "11d"
    with pytest.raises(PositionError, match="11d"):
        load_position(p)
    p["table"][0] = 7
    with pytest.raises(PositionError):
        load_position(p)


def test_position_not_an_object():
    with pytest.raises(PositionError):
        load_position([])


# -- impossible counts --------------------------------------------------------------------
@pytest.mark.parametrize("scores", [[11, 3], [3, 12], [30, 0]])
def test_position_with_a_side_past_the_target_is_refused(scores):
    p = base()
    p["scores"] = scores
    with pytest.raises(PositionError, match=r"already has \d+ of the 11 points"):
        load_position(p)


@pytest.mark.parametrize("scores", [[10, 10], [11, 11], [14, 14], [0, 10]])
def test_position_with_scores_below_target_or_tied_at_the_top_loads(scores):
    p = base()
    p["scores"] = scores
    assert load_position(p).scores == scores


def test_position_with_more_sweeps_than_plays_is_refused():
    p = dump_position(Match(Rules.preset(), seed="fresh").hand)  # nobody has played yet
    p["scope"] = [0, 1]
    with pytest.raises(PositionError, match=r"scope\[1\] is 1, but seat 1 has made 0 plays"):
        load_position(p)


def test_position_with_more_sweeps_than_its_pile_allows_is_refused():
    p = position([["7d"], ["5s"]], ["3s"], captured=[["1d", "1c", "2d", "2c"], []],
                 rest_seat=1, scope=[3, 0])
    with pytest.raises(PositionError, match=r"taken 4 cards: at most 2 sweeps"):
        load_position(p)
    p["scope"] = [2, 0]
    assert load_position(p).scope == [2, 0]


def test_finished_hand_with_a_table_left_and_a_last_capturer_is_refused():
    p = position([[], []], ["3s", "4d"], last_capturer=0, rest_seat=0)
    with pytest.raises(PositionError, match="the table goes to the last capturer"):
        load_position(p)
    p["last_capturer"] = None  # nobody captured: the table counts for nobody
    assert load_position(p).hand_over


def _escoba_opening(sweeps: int) -> Hand:
    for i in range(20000):
        g = Match(Rules.preset("escoba"), seed=f"open-{i}").hand
        if g.scope[g.dealer] == sweeps:
            return g
    raise AssertionError("no such deal")


@pytest.mark.parametrize("sweeps", [1, 2])
def test_escoba_opening_sweeps_load_before_anyone_plays(sweeps):
    g = _escoba_opening(sweeps)
    assert load_position(dump_position(g)).scope == g.scope
    p = dump_position(g)
    p["scope"][g.dealer] = 3  # an opening table makes 30 at most: two sweeps
    with pytest.raises(PositionError, match="at most 2 sweeps"):
        load_position(p)


@settings(max_examples=40, deadline=None)
@given(preset=st.sampled_from(ALL_PRESETS), seed=st.integers(0, 10**6), data=st.data())
def test_impossible_counts_in_reachable_positions_are_refused(preset, seed, data):
    variant, players = preset
    g = Match(Rules.preset(variant, players=players), seed=seed).hand
    rng = random.Random(seed)
    for _ in range(data.draw(st.integers(0, 40), label="plays")):
        if g.hand_over:
            break
        g.play(rng.choice(g.legal_moves()))
    p = dump_position(g)
    assert dump_position(load_position(p)) == p
    seat = data.draw(st.integers(0, players - 1), label="seat")
    too_many = dict(p, scope=[*p["scope"]])
    too_many["scope"][seat] = len(g.history) + 3  # more than the seat's plays and an opening
    with pytest.raises(PositionError, match=f"scope\\[{seat}\\]"):
        load_position(too_many)
    target = g.rules.target
    side = data.draw(st.integers(0, g.rules.teams - 1), label="side")
    past = dict(p, scores=[0] * g.rules.teams)
    past["scores"][side] = data.draw(st.integers(target, target + 30), label="points")
    with pytest.raises(PositionError, match="match ended before this hand"):
        load_position(past)


# -- moves -----------------------------------------------------------------------------------
def test_move_forms_agree():
    for form in (
        {"card": "7d", "capture": ["3s", "4d"]},
        "7d:3s+4d",
        "7d:4d+3s",
        Move(card("7d"), (1 << card("3s")) | (1 << card("4d"))),
    ):
        g = load_position(base())
        g.play(form)
        assert dump_position(g)["scope"] == [1, 0]
        assert dump_position(g)["table"] == []


def test_move_dict_round_trip():
    g = load_position(base())
    for m in g.legal_moves():
        assert Move.from_dict(json.loads(json.dumps(m.to_dict()))) == m
        assert Move.parse(str(m)) == m


ILLEGAL = [
    {"card": "7d", "capture": []},  # must capture
    {"card": "7d", "capture": ["3s"]},  # not a sum
    {"card": "7d", "capture": ["3s", "4d", "5c"]},  # 5c not on the table
    {"card": "5s", "capture": []},  # not seat 0's card
    {"card": "9c", "capture": []},  # card in nobody's hand
    {"card": "1b", "capture": ["1b"]},  # captures itself
    {"card": "7d", "capture": ["3s", "3s", "4d"]},  # named twice
    {"card": "7d"},  # capture omitted: a lay, illegal here
    {"card": "7d", "capture": "3s"},
    {"card": "77d", "capture": []},
    {"card": "7d", "capture": [], "extra": 1},
    {"capture": []},
    "7d:3s+",
    "7x",
    "",
    ["7d"],
    None,
    42,
]


@pytest.mark.parametrize("move", ILLEGAL, ids=[repr(m) for m in ILLEGAL])
def test_illegal_move_leaves_game_unchanged(move):
    g = load_position(base())
    before = dump_position(g)
    legal = moves_of(g)
    with pytest.raises(IllegalMoveError):
        g.play(move)
    assert dump_position(g) == before
    assert moves_of(g) == legal
    assert g.history == []
    g.play("7d:3s+4d")  # the game still plays on
    assert dump_position(g)["scope"] == [1, 0]


def test_illegal_move_error_is_value_error():
    assert issubclass(IllegalMoveError, ValueError)
    assert issubclass(PositionError, ValueError)


def test_move_after_hand_over_is_illegal():
    g = game([[], ["9c"]], ["2s", "5b"], to_move=1, last_capturer=0)
    g.play("9c")
    assert g.hand_over and g.legal_moves() == []
    before = dump_position(g)
    with pytest.raises(IllegalMoveError):
        g.play("9c")
    assert dump_position(g) == before


@pytest.mark.parametrize(
    "move",
    [Move(card("7d"), 1 << 45), Move(-1, 0), Move(45, 0)],
    ids=["capture-bit-45", "card-minus-1", "card-45"],
)
def test_malformed_move_object_raises_illegal_move(move):
    # Move is a public NamedTuple: a malformed one must raise IllegalMoveError, not crash
    # or hang
    g = load_position(base())
    before = dump_position(g)
    with pytest.raises(IllegalMoveError):
        g.play(move)
    assert dump_position(g) == before


def test_negative_capture_mask_raises_illegal_move():
    # run in a child process: the engine may loop forever on this input
    code = (
        "import json, sys\n"
        "from scopa import IllegalMoveError, Move, card\n"
        "from scopa.notation import load_position\n"
        f"g = load_position(json.loads({json.dumps(json.dumps(base()))}))\n"
        "try:\n"
        "    g.play(Move(card('7d'), -1))\n"
        "except IllegalMoveError:\n"
        "    print('IllegalMoveError')\n"
    )
    try:
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=10
        )
    except subprocess.TimeoutExpired:
        pytest.fail("game.play(Move(card('7d'), -1)) did not return within 10 s")
    assert out.stdout.strip() == "IllegalMoveError", out.stderr[-500:]


def test_all_cards_text():
    assert len(ALL_CARDS) == 40
    assert sorted(card(c) for c in ALL_CARDS) == list(range(40))


def test_out_of_range_card_field_cannot_alias_a_legal_move():
    # Move(card=1d | 1c << 6, capture=0) names no card (card 640 + 0); its packed code equals
    # the legal 1d:1c, but it is malformed and must be refused
    g = game([["1d", "5c", "9c"], ["2s", "6s", "8s"]], ["1c", "4b"], stock_size=6)
    assert captures_for(g, "1d") == {frozenset(["1c"])}
    aliased = Move(card("1d") | (1 << card("1c")) << 6, 0)
    assert aliased.card >= 40
    before = dump_position(g)
    with pytest.raises(IllegalMoveError):
        g.play(aliased)
    assert dump_position(g) == before


def test_next_hand_with_bad_deck_changes_nothing():
    g = Match(Rules.preset("scopa"), seed="bad-deck")
    while not g.hand.hand_over:
        g.hand.play(g.hand.legal_moves()[0])
    totals = [side["total"] for side in g.hand.hand_result()["sides"]]
    before = (dump_position(g.hand), g.hand.dealer, g.hand_number, len(g.results), list(g.scores))
    kings = [card(k) for k in ("10d", "10c", "10s")]
    void = [c for c in range(40) if c not in kings]
    void[6:6] = kings  # three kings on the opening table: a void deck
    for bad in ([0] * 40, list(range(39)), void):
        with pytest.raises(ValueError):
            g.next_hand(deck=bad)
        after = (dump_position(g.hand), g.hand.dealer, g.hand_number, len(g.results),
                 list(g.scores))
        assert after == before
    g.next_hand(seed="good")
    assert g.scores == totals  # the hand's points banked once
    assert g.hand.dealer == 0 and g.hand_number == 2 and len(g.results) == 1
