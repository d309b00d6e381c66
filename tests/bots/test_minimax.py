"""The search valuing worlds by alpha-beta to the end of the round (``minimax``): legal
moves, fair (only the view counts), reproducible, and exact where nothing is left to guess."""

from __future__ import annotations

import random

import pytest

from scopa import Rules
from scopa.bots import Bot, Limit, SearchBot, make_bot
from scopa.bots.base import imagined
from scopa.bots.exact import solve
from scopa.bots.minimax import round_leaf, round_minimax
from scopa.bots.round_value import net_for
from scopa.bots.search import evaluate
from scopa.match import Match
from scopa.view import PlayerView

from .helpers import midgame, play_hand

LIMIT = Limit(simulations=24)


def test_whole_hands_only_legal_moves() -> None:
    for i in range(2):
        game = Match(Rules.preset("scopa"), seed=f"mm-legal-net-{i}").hand
        bots = [SearchBot(s, algorithm="minimax") for s in range(2)]
        while not game.hand_over:
            move = bots[game.to_move].choose(PlayerView.of(game, game.to_move), LIMIT)
            assert move in game.legal_moves()
            game.play(move)


@pytest.mark.parametrize("variant,players", [("scopa", 3), ("scopone-scientifico", 4)])
def test_without_a_round_value_it_plays_rollouts(variant: str, players: int) -> None:
    game = Match(Rules.preset(variant, players=players), seed="mm-other").hand
    view = PlayerView.of(game, game.to_move)
    move = SearchBot(1, algorithm="minimax").choose(view, Limit(simulations=8))
    assert move in game.legal_moves()


def test_states_sharing_a_view_get_the_same_choice() -> None:
    differed = 0
    for i in range(6):
        game = midgame(f"mm-fair-{i}", 3 + 2 * i)
        seat = game.to_move
        view = PlayerView.of(game, seat)
        other = view.sample(random.Random(i))
        assert PlayerView.of(other, seat) == view
        differed += other.hands != game.hands or other.stock != game.stock
        a = SearchBot(5, algorithm="minimax").choose(PlayerView.of(game, seat), LIMIT)
        b = SearchBot(5, algorithm="minimax").choose(PlayerView.of(other, seat), LIMIT)
        assert a == b
    assert differed == 6


def test_a_seed_reproduces_its_choices() -> None:
    def play(seed: int) -> list[object]:
        game = Match(Rules.preset("scopa"), seed="mm-repro").hand
        bots: list[Bot] = [SearchBot(seed * 10 + s, algorithm="minimax") for s in range(2)]
        return play_hand(game, bots, LIMIT)

    assert play(1) == play(1)


def test_last_round_is_the_exact_solve() -> None:
    """In the last round the round's end is the hand's end: the round search is exact."""
    net = net_for(Rules.preset("scopa"))
    assert net is not None
    checked = 0
    for i in range(30):
        game = midgame(f"mm-exact-{i}", 30 + i % 6)
        if game.hand_over or game.stock:
            continue
        for side in (0, 1):
            for ma in (False, True):
                leaf = round_leaf(side, net, ma)
                value = round_minimax(game.copy(), side, game.round, leaf)
                assert value == solve(game.copy(), side, ma)
        checked += 1
    assert checked >= 10


def test_every_move_is_valued_by_the_round_search() -> None:
    """At the root, the search's value of a move in its only world is the round search's."""
    game = midgame("mm-root", 8)
    seat = game.to_move
    net = net_for(game.rules)
    assert net is not None
    leaf = round_leaf(seat, net, False)
    expected = {}
    for code in game.legal_codes():
        h = game.copy()
        h.play_code(code)
        expected[code] = round_minimax(h, seat, game.round, leaf)
    # the true state as the only world: each move's mean is the round search of that world
    stats = evaluate(lambda: imagined(game.copy()), game.legal_codes(), seat,
                     Limit(simulations=len(expected)), random.Random(0),
                     round_value=net, round_search=True, match_aware=False)
    assert {st.code: st.mean for st in stats} == pytest.approx(expected)


def test_the_champion_searches_rounds_heads_up_and_rolls_out_at_four() -> None:
    champion = make_bot("champion", 1)
    assert champion.inner.algorithm == "minimax"  # type: ignore[attr-defined]
    game = Match(Rules.preset("scopone-scientifico"), seed="mm-four").hand
    view = PlayerView.of(game, game.to_move)
    assert champion.choose(view, Limit(simulations=8)) in game.legal_moves()
