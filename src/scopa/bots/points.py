"""The utility search bots maximise, from the hand points per side.

``scopa.scoring.score_hand`` builds a full score sheet for people; search needs only the
points per side millions of times: ``scoring.hand_totals`` (tests check it agrees).
"""

from __future__ import annotations

from ..game import Game
from ..rules import Rules
from ..scoring import hand_totals

#: each side's hand points: the engine's own fast count (agrees with ``score_hand``)
side_points = hand_totals


def margin(points: list[int], side: int) -> float:
    """A side's points minus the mean of the other sides' points."""
    others = len(points) - 1
    return points[side] - (sum(points) - points[side]) / others


#: how many hand points a decided match is worth to the utility of a match-aware bot
MATCH_WEIGHT = 4.0


def match_bonus(rules: Rules, scores: list[int], points: list[int], side: int) -> float:
    """+1 if this hand makes ``side`` win the match, -1 if it makes another side win."""
    totals = [s + p for s, p in zip(scores, points, strict=True)]
    top = max(totals)
    if top < rules.target:
        return 0.0
    leaders = [i for i, t in enumerate(totals) if t == top]
    if len(leaders) != 1:
        return 0.0
    return 1.0 if leaders[0] == side else -1.0


def utility(game: Game, side: int, match_aware: bool = False) -> float:
    """The value of a finished hand to ``side``: its point margin, plus, in a match, a
    bonus or malus when the hand decides the match (the points that decide matter more)."""
    pts = side_points(game.rules, game.captured, game.scope)
    value = margin(pts, side)
    if match_aware:
        value += MATCH_WEIGHT * match_bonus(game.rules, game.scores, pts, side)
    return value


def side_values(game: Game, match_aware: bool) -> list[float]:
    """``utility`` for every side at once (the exact solver and ISMCTS back these up)."""
    pts = side_points(game.rules, game.captured, game.scope)
    out = [margin(pts, s) for s in range(len(pts))]
    if match_aware:
        for s in range(len(pts)):
            out[s] += MATCH_WEIGHT * match_bonus(game.rules, game.scores, pts, s)
    return out
