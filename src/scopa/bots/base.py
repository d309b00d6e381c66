"""The bot interface and the registry of bots by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from ..hand import Hand
from ..moves import DECLARE, Move
from ..view import PlayerView


def declaration(view: PlayerView) -> Move | None:
    """Our bots' choice when they may declare their dealt hand (Cirulla): always declare.
    The points are certain; showing three cards costs far less (measured nowhere yet: a
    plain rule, not a search)."""
    return Move.from_code(DECLARE) if view.deciding else None


def forced_move(view: PlayerView) -> Move | None:
    """The move a searching bot need not think about: its declaration (Cirulla) or its only
    legal move; None when there is a choice. Refuses when it is not the seat's turn."""
    if not view.my_turn:
        raise ValueError("it is not this seat's turn")
    decided = declaration(view)
    if decided is not None:
        return decided
    codes = view.legal_codes()
    return Move.from_code(codes[0]) if len(codes) == 1 else None


def imagined(world: Hand) -> Hand:
    """A sampled world as the search plays it: every player in it declares what scores."""
    if world.meaning.declares:
        world.assume_declarations()
    return world


@dataclass(frozen=True)
class Limit:
    """How long a bot may think: wall-clock seconds and/or a simulation count."""

    seconds: float | None = None
    simulations: int | None = None


class Bot:
    """A player. ``choose`` gets only what its seat may see."""

    name = "bot"
    #: an omniscient bot is hosted with ``choose_full(game, limit)`` instead of ``choose``
    omniscient = False

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        raise NotImplementedError


class RandomBot(Bot):
    """Plays a uniformly random legal move."""

    name = "random"

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        return self.pick(view.legal_moves())

    def pick(self, moves: list[Move]) -> Move:
        """``choose`` given the seat's legal moves: an environment that holds the game
        passes ``game.legal_moves()`` (the same list as the view's) and builds no view."""
        if not moves:
            raise ValueError("it is not this seat's turn")
        return self.rng.choice(moves)


class ScoringBot(Bot):
    """Plays the legal move its one-ply ``score`` rates best (random tie-break)."""

    def score(self, view: PlayerView, move: Move) -> float:
        raise NotImplementedError

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        moves = view.legal_moves()
        if not moves:
            raise ValueError("it is not this seat's turn")
        decided = declaration(view)
        if decided is not None:
            return decided
        return max(moves, key=lambda m: (self.score(view, m), self.rng.random()))


_REGISTRY: dict[str, Callable[[int | str | None], Bot]] = {"random": RandomBot}


def register_bot(name: str, factory: Callable[[int | str | None], Bot]) -> None:
    """Make a bot (or a difficulty level) available to ``make_bot`` by name."""
    _REGISTRY[name] = factory


def make_bot(name: str, seed: int | str | None = None) -> Bot:
    """Build a bot by name or level; raise ValueError for an unknown name."""
    factory = _REGISTRY.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {name!r}; choose one of {', '.join(sorted(_REGISTRY))}")
    return factory(seed)


def registered(name: str) -> Callable[[int | str | None], Bot]:
    """The factory registered under ``name`` (KeyError if none): a process that runs bots
    elsewhere (a Ray worker) takes along what was registered here at run time."""
    return _REGISTRY[name]


def bot_names() -> list[str]:
    """Every registered bot and level name, sorted."""
    return sorted(_REGISTRY)


def seatable(name: str) -> bool:
    """Whether the bot may sit at a table: it plays from its seat's view alone (the
    omniscient oracle is a yardstick for the arena, never an opponent)."""
    return not getattr(make_bot(name, 0), "omniscient", False)
