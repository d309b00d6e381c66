"""The sparring bot ``alphabeta``: legal everywhere, fair, sound search, its budget."""

from __future__ import annotations

import random
from functools import partial

import pytest

from scopa import Rules
from scopa.bots import AlphaBetaBot, Limit, make_bot
from scopa.bots.abpimc import static_value
from scopa.bots.exact import alphabeta, solve
from scopa.cards import card
from scopa.match import Match
from scopa.notation import load_position
from scopa.view import PlayerView

from .helpers import all_rules, midgame, rules_id


@pytest.mark.parametrize("rules", all_rules(), ids=rules_id)
def test_whole_hand_only_legal_moves(rules: Rules) -> None:
    game = Match(rules, seed=f"ab-legal-{rules_id(rules)}").hand
    bots = [AlphaBetaBot(seat, worlds=2, depth=2) for seat in range(rules.players)]
    while not game.hand_over:
        move = bots[game.to_move].choose(PlayerView.of(game, game.to_move))
        assert move in game.legal_moves()
        game.play(move)


@pytest.mark.parametrize("variant,players", [("scopa", 2), ("scopone-scientifico", 4)])
def test_states_sharing_a_view_get_the_same_choice(variant: str, players: int) -> None:
    for i in range(6):
        game = midgame(f"ab-fair-{i}", 3 + i, variant, players)
        seat = game.to_move
        other = PlayerView.of(game, seat).sample(random.Random(i))
        assert other.hands != game.hands or other.stock != game.stock
        a = AlphaBetaBot(5, worlds=3, depth=3).values(PlayerView.of(game, seat))
        b = AlphaBetaBot(5, worlds=3, depth=3).values(PlayerView.of(other, seat))
        assert a == b


def test_takes_the_settebello_before_the_opponent_can() -> None:
    hands = [["7s", "2c", "5b"], ["7c", "1c", "3c"]]
    table = ["7d", "10b"]
    used = {c for h in hands for c in h} | set(table)
    rest = [f"{r}{s}" for s in "dcsb" for r in range(1, 11)]
    rest = [c for c in rest if c not in used]
    game = load_position({
        "rules": Rules.preset("scopa").to_dict(), "dealer": 1, "to_move": 0, "hands": hands,
        "table": table, "stock": [], "captured": [rest[::2], rest[1::2]], "scope": [0, 0],
        "last_capturer": 0, "scores": [0, 0],
    })
    move = AlphaBetaBot(1, worlds=2, depth=2).choose(PlayerView.of(game, 0))
    assert str(move) == "7s:7d"


def test_full_depth_matches_the_exact_solver() -> None:
    """With depth enough to reach the hand's end, alpha-beta is the exact solve."""
    checked = 0
    for i in range(20):
        game = midgame(f"ab-exact-{i}", 32, "scopa", 2)  # the last round: 4 cards in hands
        if game.hand_over or game.stock or game.in_hands > 6:
            continue
        side = game.to_move % 2
        exact = solve(game.copy(), side)
        searched = alphabeta(
            game.copy(), side, float("-inf"), float("inf"),
            partial(static_value, side=side), game.in_hands,
        )
        assert searched == pytest.approx(exact)
        checked += 1
    assert checked >= 5


def test_static_value_credits_the_side_that_captured() -> None:
    game = midgame("ab-static", 0, "scopa", 2)
    assert static_value(game, 0) == pytest.approx(0.0)
    game.captured[1] |= 1 << card("7d")
    assert static_value(game, 1) > 1.0
    assert static_value(game, 0) == pytest.approx(-static_value(game, 1))


def test_limit_sets_worlds_and_seed_reproduces() -> None:
    game = midgame("ab-seed", 5, "scopa", 2)
    view = PlayerView.of(game, game.to_move)
    a = make_bot("alphabeta", 3).choose(view, Limit(simulations=4))
    b = make_bot("alphabeta", 3).choose(view, Limit(simulations=4))
    assert a == b
    assert a in view.legal_moves()


def test_time_budget_ends_the_search() -> None:
    game = midgame("ab-time", 4, "scopa", 2)
    view = PlayerView.of(game, game.to_move)
    bot = AlphaBetaBot(1, worlds=10**9, depth=3, seconds=0.01)
    values = bot.values(view)
    assert len(values) == len(view.legal_codes())


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        AlphaBetaBot(worlds=0)
    with pytest.raises(ValueError):
        AlphaBetaBot(depth=0)
    with pytest.raises(ValueError):
        AlphaBetaBot(seconds=0)
    game = midgame("ab-turn", 1, "scopa", 2)
    with pytest.raises(ValueError):
        make_bot("alphabeta").choose(PlayerView.of(game, 1 - game.to_move))


def test_teams_full_depth_matches_the_exact_solver() -> None:
    """Scopone: partners maximise together; to the hand's end it is the exact solve."""
    checked = 0
    for i in range(12):
        game = midgame(f"ab-team-{i}", 34, "scopone-scientifico", 4)  # 6 cards in hands
        if game.hand_over or game.in_hands > 6:
            continue
        side = game.to_move % 2
        exact = solve(game.copy(), side)
        searched = alphabeta(
            game.copy(), side, float("-inf"), float("inf"),
            partial(static_value, side=side), game.in_hands,
        )
        assert searched == pytest.approx(exact)
        checked += 1
    assert checked >= 5
