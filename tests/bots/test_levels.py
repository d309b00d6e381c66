"""A level's default budget by table size: the expert searches fewer worlds heads-up (where
150 played as well as the champion) than among four (where 60 lost to intermediate)."""

from __future__ import annotations

from typing import Any

from scopa.bots.base import Limit
from scopa.bots.levels import LEVELS, LevelBot
from scopa.match import Match
from scopa.moves import Move
from scopa.rules import Rules
from scopa.view import PlayerView


class Recording:
    """Stands in for the level's bot: remembers the limit it was given."""

    def __init__(self) -> None:
        self.limits: list[Limit | None] = []

    def choose(self, view: Any, limit: Limit | None = None) -> Move:
        self.limits.append(limit)
        return view.legal_moves()[0]


def limit_at(level: str, variant: str, given: Limit | None = None) -> Limit | None:
    bot = LevelBot(level, seed=1)
    recording = Recording()
    bot.inner = recording  # type: ignore[assignment]
    game = Match(Rules.preset(variant), seed=3).hand
    bot.choose(PlayerView.of(game, game.to_move), given)
    return recording.limits[0]


def test_the_expert_searches_sixty_worlds_heads_up_and_a_hundred_and_fifty_among_four() -> None:
    assert LEVELS["expert"].limit_for(2).simulations == 60
    assert limit_at("expert", "scopa") == Limit(seconds=0.05, simulations=60)
    assert limit_at("expert", "scopone-scientifico") == Limit(seconds=0.05, simulations=150)


def test_a_level_without_a_heads_up_budget_has_one_budget_and_a_given_limit_wins() -> None:
    champion = LEVELS["champion"].limit
    assert limit_at("champion", "scopa") == champion == limit_at("champion", "scopone")
    assert limit_at("expert", "scopa", Limit(simulations=7)) == Limit(simulations=7)
