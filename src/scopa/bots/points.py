"""The utility search bots maximise, from the hand points per side.

``scopa.scoring.score_hand`` builds a full score sheet for people; search needs only the
points per side millions of times: ``scoring.hand_totals`` (tests check it agrees).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import kernel
from ..hand import Hand
from ..meaning import meaning_of
from ..rules import Rules
from ..scoring import hand_totals

#: each side's hand points: the engine's own fast count (agrees with ``score_hand``)
side_points = hand_totals


def game_points(game: Hand) -> list[int]:
    """Each side's points for a finished hand, declarations included (counted by the
    compiled kernel where it is built: the same points, tests/engine/test_kernel.py)."""
    counted = kernel.totals(game.meaning, game.captured, game.scope, game.declared)
    if counted is not None:
        return counted
    return game.meaning.hand_totals(game.captured, game.scope, game.declared)


def margin(points: Sequence[float], side: int) -> float:
    """A side's points minus the mean of the other sides' points."""
    others = len(points) - 1
    return points[side] - (sum(points) - points[side]) / others


#: how many hand points a decided match is worth to the utility of a match-aware bot
MATCH_WEIGHT = 4.0


def match_bonus(
    rules: Rules, scores: list[int], points: list[int], side: int, outright: int | None = None
) -> float:
    """+1 if this hand makes ``side`` win the match, -1 if it makes another side win: the
    engine's own winner (``Meaning.winner``), outright wins included."""
    totals = [s + p for s, p in zip(scores, points, strict=True)]
    won = meaning_of(rules).winner(totals, outright)
    if won is None:
        return 0.0
    return 1.0 if won == side else -1.0


def _outright(game: Hand) -> int | None:
    return game.meaning.outright_of(game.captured)


def utility(game: Hand, side: int, match_aware: bool = False) -> float:
    """The value of a finished hand to ``side``: its point margin, plus, in a match, a
    bonus or malus when the hand decides the match (the points that decide matter more)."""
    pts = game_points(game)
    value = margin(pts, side)
    if match_aware:
        value += MATCH_WEIGHT * match_bonus(game.rules, game.scores, pts, side, _outright(game))
    return value


def side_values(game: Hand, match_aware: bool) -> list[float]:
    """``utility`` for every side at once (the exact solver and ISMCTS back these up)."""
    pts = game_points(game)
    out = [margin(pts, s) for s in range(len(pts))]
    if match_aware:
        outright = _outright(game)
        for s in range(len(pts)):
            out[s] += MATCH_WEIGHT * match_bonus(game.rules, game.scores, pts, s, outright)
    return out
