"""Bots see only the view: two full states that share a view get the same choice, and a
seed reproduces a bot's choices."""

from __future__ import annotations

import random

import pytest

from scopa import Rules
from scopa.bots import make_bot
from scopa.bots.base import Limit
from scopa.hand import Hand
from scopa.match import Match
from scopa.view import PlayerView

from .helpers import TINY

FAIR = ["random", "greedy", "heuristic", "search", "expert", "champion"]


def _midgame(variant: str, players: int, seed: str, plays: int) -> Hand:
    game = Match(Rules.preset(variant, players=players), seed=seed).hand
    rng = random.Random(seed)
    for _ in range(plays):
        game.play(rng.choice(game.legal_moves()))
    return game


@pytest.mark.parametrize("variant,players", [("scopa", 2), ("scopone-scientifico", 4),
                                             ("quindici", 3), ("scopa", 6)])
@pytest.mark.parametrize("name", FAIR)
def test_states_sharing_a_view_get_the_same_choice(variant, players, name) -> None:  # type: ignore[no-untyped-def]
    game = _midgame(variant, players, f"fair-{variant}", 5)
    seat = game.to_move
    view = PlayerView.of(game, seat)
    # Another full state the seat cannot tell apart: the hidden cards dealt differently.
    other = view.sample(random.Random(99))
    assert other.hands != game.hands or other.stock != game.stock
    assert PlayerView.of(other, seat) == view
    a = make_bot(name, 7).choose(PlayerView.of(game, seat), TINY)
    b = make_bot(name, 7).choose(PlayerView.of(other, seat), TINY)
    assert a == b


@pytest.mark.parametrize("name", ["random", "greedy", "heuristic", "search", "oracle"])
def test_same_seed_same_hand(name: str) -> None:
    def play(seed: int) -> list[object]:
        game = Match.new("scopa", seed="repro").hand
        bots = [make_bot(name, seed * 10 + s) for s in range(2)]
        moves = []
        while not game.hand_over:
            bot = bots[game.to_move]
            if bot.omniscient:
                m = bot.choose_full(game.copy(), TINY)  # type: ignore[attr-defined]
            else:
                m = bot.choose(PlayerView.of(game, game.to_move), TINY)
            game.play(m)
            moves.append(m)
        return moves

    assert play(1) == play(1)


def test_different_seeds_can_choose_differently() -> None:
    """Different seeds draw different worlds: over many positions, some choice differs
    (guards against a bot that ignores its seed and always samples the same way)."""
    differs = False
    for i in range(30):
        game = _midgame("scopa", 2, f"seeds-{i}", 3)
        view = PlayerView.of(game, game.to_move)
        if len(view.legal_moves()) < 2:
            continue
        picks = {make_bot("random", s).choose(view) for s in range(6)}
        if len(picks) > 1:
            differs = True
            break
    assert differs


def test_search_does_not_change_the_view() -> None:
    game = _midgame("scopa", 2, "frozen", 4)
    view = PlayerView.of(game, game.to_move)
    before = view.to_dict()
    make_bot("search", 1).choose(view, Limit(simulations=50))
    assert view.to_dict() == before
