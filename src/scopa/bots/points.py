"""Fast hand points per side, and the utility search bots maximise.

``scopa.scoring.score_hand`` builds a full score sheet for people; search needs only the
points per side millions of times, so this module computes the same numbers with plain
integer work (tests check it agrees with ``score_hand``).
"""

from __future__ import annotations

from ..cards import COINS, RANK_MASK, RE_BELLO, SETTEBELLO
from ..game import Game
from ..rules import Rules
from ..scoring import PRIMIERA_RANK, PRIMIERA_TEN, napola_points

SEVENS = RANK_MASK[7]


def _best_table(scale: tuple[int, ...]) -> list[int]:
    table = [0] * 1024
    for m in range(1, 1024):
        table[m] = max(scale[r + 1] for r in range(10) if m >> r & 1)
    return table


_BEST = {"ten": _best_table(PRIMIERA_TEN), "rank": _best_table(PRIMIERA_RANK)}


def _primiera_total(pile: int, best: list[int]) -> int | None:
    total = 0
    for suit in range(4):
        bits = pile >> (10 * suit) & 1023
        if not bits:
            return None
        total += best[bits]
    return total


def _award(values: list[int] | list[int | None], points: list[int]) -> None:
    """One point to the single side with the top value (same rule as ``score_hand``)."""
    top = -1
    who = -1
    for i, v in enumerate(values):
        if v is None:
            continue
        if v > top:
            top, who = v, i
        elif v == top:
            who = -1
    if who >= 0 and top > 0:
        points[who] += 1


def side_points(rules: Rules, captured: list[int], scope: list[int]) -> list[int]:
    """The hand's total points of each side, from each seat's pile and sweeps."""
    sides = rules.teams
    piles = [0] * sides
    points = [0] * sides
    for seat, pile in enumerate(captured):
        side = seat % sides
        piles[side] |= pile
        points[side] += scope[seat]
    _award([p.bit_count() for p in piles], points)
    _award([(p & COINS).bit_count() for p in piles], points)
    for i, p in enumerate(piles):
        if p >> SETTEBELLO & 1:
            points[i] += 1
    if rules.primiera:
        best = _BEST[rules.primiera_faces]
        _award([_primiera_total(p, best) for p in piles], points)
    if rules.sevens:
        _award([(p & SEVENS).bit_count() for p in piles], points)
    if rules.napola:
        for i, p in enumerate(piles):
            points[i] += napola_points(p)
    if rules.re_bello:
        for i, p in enumerate(piles):
            if p >> RE_BELLO & 1:
                points[i] += 1
    return points


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
