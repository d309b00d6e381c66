"""``alphabeta``: a determinized alpha-beta bot, the sparring partner that is not us.

It is built the way published open-source Scopa bots are, and shares no judgement with our
search (no heuristic prior, no play model, no learned value, no opponent model), so our
levels can be measured against a player they were not tuned against (issue 17):

1. draw ``worlds`` full states consistent with the seat's view, uniformly
   (``worlds.WorldSampler`` with ``clues="none"``: no inference);
2. in each world, value every legal move by alpha-beta to ``depth`` plies in all (the move
   itself is the first), every side playing its best; a finished hand is worth its exact
   point margin, an unfinished leaf its ``static_value``;
3. play the move with the best mean over the worlds (the first in legal order on a tie).

Sides: heads-up and in teams (Scopone) it is plain two-sided alpha-beta (a partner
maximises with us); with three or more sides every other side is taken to play against us
("paranoid" search), which keeps alpha-beta sound.

Budget: ``worlds`` (a ``Limit``'s ``simulations`` replaces it) and, optionally, seconds per
move (a ``Limit``'s ``seconds``): with a time budget it searches worlds until the time is
up, at least one, and drops a world it could not finish.
"""

from __future__ import annotations

import time

from ..cards import COINS, RANK_MASK, SETTEBELLO
from ..hand import Hand
from ..moves import Move
from ..view import PlayerView
from .base import Bot, Limit, forced_move
from .exact import alphabeta
from .points import game_points, margin
from .worlds import WorldSampler

#: what a leaf credits a side for, in points, from its captured pile (the classic items,
#: counted as progress towards the point; the real items score only a finished hand):
#: a point for each sweep and for the settebello; the cards point by the share of the 21
#: cards that make it sure; coins by the share of 6; primiera by sevens (3 nearly make it).
CARDS_SURE = 21
COINS_SURE = 6
SEVENS_SURE = 3
SEVENS = RANK_MASK[7]
SETTEBELLO_BIT = 1 << SETTEBELLO

DEFAULT_WORLDS = 12
DEFAULT_DEPTH = 5


def _side_value(pile: int, sweeps: int) -> float:
    return (
        sweeps
        + (1.0 if pile & SETTEBELLO_BIT else 0.0)
        + min(pile.bit_count() / CARDS_SURE, 1.0)
        + min((pile & COINS).bit_count() / COINS_SURE, 1.0)
        + min((pile & SEVENS).bit_count() / SEVENS_SURE, 1.0)
    )


def static_value(g: Hand, side: int) -> float:
    """A state's worth to ``side``: the exact point margin of a finished hand, else the
    margin of the sides' captured progress (``_side_value``)."""
    if g.hand_over:
        return margin(game_points(g), side)
    piles, sweeps, _ = g.meaning.side_piles(g.captured, g.scope, None)
    values = [_side_value(p, s) for p, s in zip(piles, sweeps, strict=True)]
    return margin(values, side)


class AlphaBetaFactory:
    """A picklable ``make_bot`` factory for one setting (``alphabeta-12x5`` and the like)."""

    def __init__(self, worlds: int, depth: int, seconds: float | None = None) -> None:
        self.worlds = worlds
        self.depth = depth
        self.seconds = seconds

    def __call__(self, seed: int | str | None = None) -> AlphaBetaBot:
        return AlphaBetaBot(seed, worlds=self.worlds, depth=self.depth, seconds=self.seconds)


#: the settings registered by name: the issue's yardstick (12 worlds, depth 5) as
#: ``alphabeta``, a quick one and a deep one
SETTINGS: dict[str, tuple[int, int]] = {
    "alphabeta": (DEFAULT_WORLDS, DEFAULT_DEPTH),
    "alphabeta-4x3": (4, 3),
    "alphabeta-24x7": (24, 7),
}


class AlphaBetaBot(Bot):
    """Determinized alpha-beta over uniform worlds (see module doc)."""

    name = "alphabeta"

    def __init__(
        self,
        seed: int | str | None = None,
        *,
        worlds: int = DEFAULT_WORLDS,
        depth: int = DEFAULT_DEPTH,
        seconds: float | None = None,
    ) -> None:
        super().__init__(seed)
        if worlds < 1 or depth < 1:
            raise ValueError("alphabeta needs at least one world and a depth of one ply")
        if seconds is not None and seconds <= 0:
            raise ValueError("alphabeta's seconds per move must be positive")
        self.worlds = worlds
        self.depth = depth
        self.seconds = seconds

    def values(self, view: PlayerView, limit: Limit | None = None) -> list[tuple[int, float]]:
        """Each legal move (packed) with its mean value over the worlds searched."""
        codes = view.legal_codes()
        worlds = self.worlds
        seconds = self.seconds
        if limit is not None:
            worlds = limit.simulations or (worlds if limit.seconds is None else 1 << 30)
            seconds = limit.seconds if limit.seconds is not None else seconds
        deadline = None if seconds is None else time.perf_counter() + seconds
        sampler = WorldSampler(view, self.rng, "none")
        side = view.seat % view.rules.teams
        totals = [0.0] * len(codes)
        done = 0

        def leaf(g: Hand) -> float:
            return static_value(g, side)

        while done < worlds:
            world = sampler.draw()
            row = []
            for code in codes:
                if deadline is not None and done and time.perf_counter() >= deadline:
                    break
                h = world.copy()
                h.play_code(code)
                row.append(alphabeta(h, side, float("-inf"), float("inf"), leaf, self.depth - 1))
            if len(row) < len(codes):
                break  # out of time mid-world: drop it
            totals = [t + v for t, v in zip(totals, row, strict=True)]
            done += 1
            if deadline is not None and time.perf_counter() >= deadline:
                break
        return [(c, t / done) for c, t in zip(codes, totals, strict=True)]

    def choose(self, view: PlayerView, limit: Limit | None = None) -> Move:
        forced = forced_move(view)
        if forced is not None:
            return forced
        scored = self.values(view, limit)
        best_code, best_value = scored[0]
        for code, value in scored[1:]:
            if value > best_value + 1e-12:
                best_code, best_value = code, value
        return Move.from_code(best_code)
