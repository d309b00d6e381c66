"""Difficulty levels for people: each a bot plus its own default per-move budget.

A level's budget is a simulation count (reproducible from the seed) capped by wall-clock
seconds (so a slow machine never makes people wait): on a normal core the count runs out
first. A limit passed to ``choose`` replaces the default.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..moves import Move
from ..view import PlayerView
from .base import Bot, Limit
from .greedy import GreedyBot
from .heuristic import HeuristicBot
from .search import SearchBot


@dataclass(frozen=True)
class Level:
    """A difficulty level: the bot it plays and its default per-move budget."""

    name: str
    bot: str
    limit: Limit
    description: str
    #: keyword options for the bot
    options: tuple[tuple[str, Any], ...] = ()
    #: the budget with two players, where it differs (a heads-up hand is shorter and its
    #: worlds smaller: the same count buys a stronger move than at four)
    heads_up: Limit | None = None

    def limit_for(self, players: int) -> Limit:
        """The default budget of a move at a table of ``players``."""
        return self.heads_up if players == 2 and self.heads_up is not None else self.limit


LEVELS: dict[str, Level] = {
    lv.name: lv
    for lv in (
        Level("beginner", "greedy", Limit(seconds=0.05), "takes the best capture in sight"),
        Level(
            "intermediate",
            "heuristic",
            Limit(seconds=0.05),
            "hunts sevens and coins, avoids leaving sweeps, counts cards",
        ),
        Level(
            "expert",
            "search",
            Limit(seconds=0.05, simulations=150),
            "searches a hundred and fifty imagined deals each move (sixty heads-up)",
            # plays every imagined deal to the end of the hand and, among partners, solves
            # from six cards with the prior on every move as before teams.py. Heads-up 150
            # simulations played as well as the champion (champion against it +0.028 +-
            # 0.099, 200 deals): a level must be a step, so heads-up it searches 60, between
            # intermediate (+0.372 +- 0.118 above it) and champion (+0.435 +- 0.108 above
            # it); in Scopone Scientifico 60 lost to intermediate (-0.620 +- 0.186, 100
            # deals) and 150 sits between (+0.390 +- 0.178, champion +0.560 +- 0.176):
            # docs/notes/2026-12-06-a-ladder-of-levels.md
            (("learned", False), ("partner_endgame", False)),
            Limit(seconds=0.05, simulations=60),
        ),
        Level(
            "champion",
            "search",
            Limit(seconds=0.2, simulations=2000),
            "searches up to eight hundred imagined deals to the end of the round each move "
            "(200 ms at most)",
            # heads-up, each imagined deal is searched by alpha-beta to the end of the round
            # and valued there by the learned round value (bots/minimax.py; a round search
            # counts as 2.5 simulations): against the alphabeta sparring bot it beat the
            # rollout search (docs/bots.md, "Strength"); elsewhere it plays rollouts
            (("algorithm", "minimax"),),
        ),
    )
}

_BOTS: dict[str, Callable[..., Bot]] = {
    "greedy": GreedyBot,
    "heuristic": HeuristicBot,
    "search": SearchBot,
}


class LevelBot(Bot):
    """A bot at a difficulty level: delegates to its bot with the level's budget."""

    def __init__(self, level: str, seed: int | str | None = None) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVELS)}")
        super().__init__(seed)
        self.level = LEVELS[level]
        self.name = level
        self.inner = _BOTS[self.level.bot](seed, **dict(self.level.options))

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        return self.inner.choose(view, limit or self.level.limit_for(view.rules.players))


def level_factory(level: str) -> Callable[[int | str | None], Bot]:
    """A ``make_bot`` factory for one level."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")

    def make(seed: int | str | None = None) -> Bot:
        return LevelBot(level, seed)

    return make
