"""The house rule ``capture_optional`` (issue 44 section 3; docs/rules.md): taking is never
obligatory, so every card may be laid besides its captures; off (the default) a card that
can take must. Through the engine, the playouts (the compiled kernel refuses the option and
Python plays it), the record and the bots: a position where laying is worth two points more
than any capture, found and checked by the exact solver, is played right."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scopa import Rules
from scopa.bots import make_bot
from scopa.bots.exact import solve
from scopa.kernel import pack_spec
from scopa.match import Match
from scopa.meaning import meaning_of
from scopa.notation import dump_position, load_position
from scopa.playout import random_playout
from scopa.record import game_record, replay_steps
from scopa.view import PlayerView

OPTIONAL = Rules.preset(capture_optional=True)

#: seat 0 to play 6b or 8c: each can take, yet laying either leaves the other side nothing
#: better, worth 3 points to seat 0's side against 1 for the best capture (exact solve)
LAY_IS_RIGHT = {
    "rules": {"variant": "scopa", "players": 2, "target": 11, "capture_optional": True},
    "dealer": 1, "to_move": 0, "hands": [["6b", "8c"], ["5d", "1d"]],
    "table": ["5b", "7b", "4c", "10s", "4d", "3b", "7s", "10c", "2s"], "stock": [],
    "captured": [
        ["7d", "1c", "6c", "7c", "5s", "2b", "9s", "3d", "5c", "1s", "8d", "8s", "9b", "9c"],
        ["10b", "10d", "3c", "2c", "1b", "4b", "4s", "8b", "2d", "6s", "9d", "6d", "3s"]],
    "scope": [0, 0], "last_capturer": 1, "scores": [0, 0]}


def test_by_default_a_card_that_can_take_must_take() -> None:
    h = load_position({**LAY_IS_RIGHT, "rules": {"variant": "scopa", "players": 2}})
    assert all(m.capture for m in h.legal_moves())
    lay = next(m for m in load_position(LAY_IS_RIGHT).legal_moves() if not m.capture)
    try:
        h.play(lay)
    except ValueError as e:
        assert "must capture" in str(e)
    else:
        raise AssertionError("a lay was accepted where taking is obligatory")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plays=st.integers(0, 30))
def test_the_option_adds_every_lay_and_nothing_else(seed: int, plays: int) -> None:
    rng = random.Random(seed)
    strict = Match(Rules.preset(), seed=seed)
    free = Match(OPTIONAL, seed=seed)
    for _ in range(plays):
        if strict.hand.hand_over:
            break
        move = rng.choice(strict.hand.legal_moves())
        strict.hand.play(move)
        free.hand.play(move)
    if strict.hand.hand_over:
        return
    held = {m.card for m in strict.hand.legal_moves()}
    expected = set(strict.hand.legal_moves()) | {(c, 0) for c in held}
    assert set(free.hand.legal_moves()) == expected
    assert sorted(free.hand.legal_codes()) == sorted(m.code for m in free.hand.legal_moves())


def test_the_kernel_refuses_it_and_python_plays_it_out() -> None:
    assert pack_spec(meaning_of(OPTIONAL)) is None
    laid_with_a_capture = 0
    for n in range(40):
        h = Match(OPTIONAL, seed=f"playout-{n}").hand
        history_before = len(h.history)
        random_playout(h, random.Random(n))
        assert h.hand_over and sum(bin(c).count("1") for c in h.captured) == 40
        for _, code, _ in h.history[history_before:]:
            laid_with_a_capture += not code >> 6
    assert laid_with_a_capture  # the playouts do lay cards (some that could have taken)


def test_a_match_with_the_option_is_recorded_and_replays() -> None:
    rng = random.Random(5)
    game = Match(OPTIONAL, seed="record-optional")
    laid = 0
    while not game.hand.hand_over:
        moves = game.hand.legal_moves()
        lays = [m for m in moves if not m.capture]
        move = lays[0] if lays and any(m.capture for m in moves) else rng.choice(moves)
        laid += move in lays and any(m.capture for m in moves)
        game.hand.play(move)
    assert laid
    record = json.loads(json.dumps(game_record(game, players=["Ann", "Bob"])))
    assert record["rules"]["capture_optional"] is True
    again = replay_steps(record)
    assert again.hand.captured == game.hand.captured


def test_the_position_s_best_play_is_a_lay() -> None:
    h = load_position(LAY_IS_RIGHT)
    values = {}
    for m in h.legal_moves():
        g = h.copy()
        g.play(m)
        values[m] = solve(g, 0)
    best_lay = max(v for m, v in values.items() if not m.capture)
    best_take = max(v for m, v in values.items() if m.capture)
    assert best_lay >= best_take + 1.5, values
    assert json.loads(json.dumps(dump_position(h))) == LAY_IS_RIGHT


def test_the_bots_lay_where_laying_is_right() -> None:
    h = load_position(LAY_IS_RIGHT)
    for level in ("expert", "champion"):
        move = make_bot(level, seed=1).choose(PlayerView.of(h, 0))
        assert not move.capture, (level, move)
