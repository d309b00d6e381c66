"""The fixed action space reaches every legal move, and only legal moves."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import Game, Move, card, card_text
from scopa.rl.actions import (
    NUM_ACTIONS,
    TAKE,
    IllegalActionError,
    apply_action,
    legal_actions,
    move_actions,
)

from .helpers import TABLES, random_position


def moves_by_actions(game: Game) -> dict[Move, int]:
    """Every move reachable by legal action sequences from ``game``, with how many
    sequences reach it."""
    found: dict[Move, int] = {}

    def walk(g: Game, turn: object) -> None:
        for a in legal_actions(g, turn):  # type: ignore[arg-type]
            h = g.copy()
            nxt = apply_action(h, turn, a)  # type: ignore[arg-type]
            if nxt is None:
                code = h.history[-1][1]
                move = Move.from_code(code)
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
        assert turn is None and Move.from_code(g.history[-1][1]) == move


def test_a_choice_between_captures_takes_table_cards():
    shown = {"5d", "1b", "3s", "2c", "4d", "1c"}
    rest = [card_text(c) for c in range(40) if card_text(c) not in shown]
    game = Game.from_position({
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
    before = game.to_position()
    with pytest.raises(IllegalActionError):
        apply_action(game, None, bad)
    assert game.to_position() == before


def test_a_card_not_in_hand_is_illegal():
    game = random_position(TABLES[0], 4)
    missing = next(c for c in range(40) if not game.hands[game.to_move] >> c & 1)
    with pytest.raises(IllegalActionError):
        apply_action(game, None, missing)
