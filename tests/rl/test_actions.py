"""The fixed action space reaches every legal move, and only legal moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import Move, Rules, card, card_text
from scopa.cards import cards_of
from scopa.hand import Hand
from scopa.match import Match
from scopa.moves import DECLARE, PASS
from scopa.notation import dump_position, load_position
from scopa.rl.actions import (
    DECLARE_ACTION,
    DONE,
    NUM_ACTIONS,
    PASS_ACTION,
    TAKE,
    IllegalActionError,
    apply_action,
    legal_actions,
    move_actions,
)

from .helpers import TABLES, random_position


def moves_by_actions(game: Hand) -> dict[Move, int]:
    """Every move reachable by legal action sequences from ``game``, with how many
    sequences reach it."""
    found: dict[Move, int] = {}

    def walk(g: Hand, turn: object) -> None:
        for a in legal_actions(g, turn):  # type: ignore[arg-type]
            h = g.copy()
            nxt = apply_action(h, turn, a)  # type: ignore[arg-type]
            if nxt is None:
                move = h.moves()[-1]
                found[move] = found.get(move, 0) + 1
            else:
                walk(h, nxt)

    walk(game, None)
    return found


@settings(max_examples=60, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 10**6))
def test_every_legal_move_is_reached_exactly_once(table, seed):
    game = random_position(table, seed)
    found = moves_by_actions(game)
    assert set(found) == set(game.legal_moves())
    # a sequence of takes is an ordered choice; each ordering reaches the same move, but
    # the move each sequence makes is one legal move and none is ended early
    for move in game.legal_moves():
        g = game.copy()
        turn = None
        for a in move_actions(game, move):
            turn = apply_action(g, turn, a)
        assert turn is None and g.moves()[-1] == move


def test_a_choice_between_captures_takes_table_cards():
    shown = {"5d", "1b", "3s", "2c", "4d", "1c"}
    rest = [card_text(c) for c in range(40) if card_text(c) not in shown]
    game = load_position({
        "rules": {"variant": "scopa", "players": 2, "target": 11},
        "dealer": 1, "to_move": 0, "hands": [["5d"], ["1b"]],
        "table": ["3s", "2c", "4d", "1c"], "stock": [], "captured": [rest, []],
        "scope": [0, 0], "last_capturer": 0, "scores": [0, 0],
    })
    # 5d takes 3s+2c or 4d+1c: playing it leaves a choice, made by taking a table card
    turn = apply_action(game, None, card("5d"))
    assert turn is not None and turn.card == card("5d")
    assert legal_actions(game, turn) == sorted(TAKE + card(t) for t in ("3s", "2c", "4d", "1c"))
    turn = apply_action(game, turn, TAKE + card("1c"))  # only 4d+1c holds 1c: played
    assert turn is None
    assert game.moves()[-1].to_dict() == {"card": "5d", "capture": ["4d", "1c"]}


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 3.0, "7d", None])
def test_illegal_action_raises_and_changes_nothing(bad):
    game = random_position(TABLES[0], 3)
    before = dump_position(game)
    with pytest.raises(IllegalActionError):
        apply_action(game, None, bad)
    assert dump_position(game) == before


def test_a_card_not_in_hand_is_illegal():
    game = random_position(TABLES[0], 4)
    missing = next(c for c in range(40) if not game.hands[game.to_move] >> c & 1)
    with pytest.raises(IllegalActionError):
        apply_action(game, None, missing)


def cirulla_position(hands: list[list[str]], table: list[str]) -> Hand:
    shown = {c for h in hands for c in h} | set(table)
    rest = [card_text(c) for c in range(40) if card_text(c) not in shown]
    return load_position({
        "rules": {"variant": "cirulla"}, "dealer": 1, "to_move": 0, "hands": hands,
        "table": table, "stock": [], "captured": [rest, []], "scope": [0, 0],
        "last_capturer": 0, "scores": [0, 0],
    })


def test_a_capture_inside_a_larger_one_ends_with_done():
    # Cirulla: 5d takes 1c+4d or 2s+3b (simple), or all four (a fifteen)
    game = cirulla_position([["5d"], ["6b"]], ["1c", "2s", "3b", "4d"])
    found = moves_by_actions(game)
    assert set(found) == set(game.legal_moves()) and len(found) == 3
    turn = apply_action(game, None, card("5d"))
    turn = apply_action(game, turn, TAKE + card("1c"))
    assert DONE not in legal_actions(game, turn)  # 1c alone is no capture
    turn = apply_action(game, turn, TAKE + card("4d"))
    # 1c+4d is a capture, and the fifteen still holds it: stop here or take on
    assert legal_actions(game, turn) == [TAKE + card("2s"), TAKE + card("3b"), DONE]
    before = dump_position(game)
    other = game.copy()
    assert apply_action(other, turn, TAKE + card("2s")) is None  # only the fifteen holds 2s
    assert len(other.moves()[-1].to_dict()["capture"]) == 4
    assert dump_position(game) == before
    assert apply_action(game, turn, DONE) is None
    assert game.moves()[-1].to_dict() == {"card": "5d", "capture": ["4d", "1c"]}
    assert move_actions(cirulla_position([["5d"], ["6b"]], ["1c", "2s", "3b", "4d"]),
                        game.moves()[-1])[-1] == DONE


def test_declarations_are_actions_legal_exactly_when_the_engine_asks():
    game = next(
        g for g in (Match(Rules.preset("cirulla"), hand_seed=f"d{i}").hand for i in range(500))
        if g.deciding
    )
    assert game.legal_moves() == [Move.from_code(DECLARE), Move.from_code(PASS)]
    assert legal_actions(game, None) == [DECLARE_ACTION, PASS_ACTION]
    with pytest.raises(IllegalActionError):
        apply_action(game, None, cards_of(game.hands[game.to_move])[0])
    seat = game.to_move
    for action, move in ((DECLARE_ACTION, DECLARE), (PASS_ACTION, PASS)):
        g = game.copy()
        assert move_actions(g, Move.from_code(move)) == [action]
        assert apply_action(g, None, action) is None
        assert g.history[-1][0] == seat and g.history[-1][1] & 63 == move
        assert not (g.deciding and g.to_move == seat)
        assert DECLARE_ACTION not in legal_actions(g, None)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 8))
def test_cirulla_moves_are_reached_from_every_point_of_a_hand(seed, steps):
    # the hypothesis test above at the start of Cirulla hands, where declarations wait
    rng = random.Random(seed)
    game = Match(Rules.preset("cirulla"), hand_seed=f"c{seed}").hand
    for _ in range(steps):
        if game.hand_over:
            break
        game.play_code(rng.choice(game.legal_codes()))
    found = moves_by_actions(game)
    assert set(found) == set(game.legal_moves())
    assert bool(legal_actions(game, None)) != game.hand_over
