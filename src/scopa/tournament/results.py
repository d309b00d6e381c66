"""A table's result, how it is checked, and who won it.

A result is written in the table's order, home entrant first. An event plays either a
fixed number of deals a round (each deal's points are entered: duplicate scoring needs
them) or one match to a target (its final score is entered). Scopa matches to a target
always end with a single leader (a tie at the top plays another hand), so only a match
stopped at the arena's hand limit, or a fixed number of deals, can end level. A level
knockout match goes to a decider: single deals, played one after the other, until one is
won (``MAX_DECIDER_DEALS`` at most; if all of them are drawn, the better seed goes
through, as the seeding already rewards the stronger record).

A forfeit is a table not played: one entrant's (withdrawn or absent), the other wins; or
both entrants' (a double forfeit), a loss for each, no winner. A knockout table needs a
winner, so it has no double forfeit (the event keeps one entrant's forfeit instead).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: match points for a win, a draw, a loss (2-1-0: a draw is a whole number); a bye and a
#: forfeit count as a win for the entrant who was there
WIN, DRAW, LOSS = 2, 1, 0
#: the game points a bye or a forfeit win adds to an entrant's points difference: none,
#: so that sitting out neither helps nor hurts that tie-break
BYE_POINTS = 0
#: deals of a knockout decider before the better seed goes through
MAX_DECIDER_DEALS = 10

#: a deal's or a match's points: (home, away)
Score = tuple[int, int]


class TournamentError(ValueError):
    """Bad input to an event (an unknown entrant, a result for no such table, a result
    entered twice...): the event is left as it was, and the message says what is wrong."""


@dataclass(frozen=True)
class Result:
    """What happened at a table (home first)."""

    #: per deal, its points; a fixed-deals event
    deals: tuple[Score, ...] = ()
    #: the match's final score; an event played to a target
    score: Score | None = None
    #: a knockout match that ended level: each decider deal's points, until one is won
    decider: tuple[Score, ...] = ()
    #: the entrant who did not play (withdrawn): the other wins, with no points either way
    forfeit: str | None = None
    #: neither entrant played (both withdrawn, or both absent): 0 match points for each
    double_forfeit: bool = False

    @property
    def unplayed(self) -> bool:
        """A forfeit, of one entrant or both: no game was played at the table."""
        return self.forfeit is not None or self.double_forfeit

    @property
    def points(self) -> Score:
        """Game points (home, away) over the match, the decider left out."""
        if self.score is not None:
            return self.score
        return (sum(d[0] for d in self.deals), sum(d[1] for d in self.deals))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.deals:
            out["deals"] = [list(d) for d in self.deals]
        if self.score is not None:
            out["score"] = list(self.score)
        if self.decider:
            out["decider"] = [list(d) for d in self.decider]
        if self.forfeit is not None:
            out["forfeit"] = self.forfeit
        if self.double_forfeit:
            out["double_forfeit"] = True
        return out

    @classmethod
    def from_dict(cls, data: Any) -> Result:
        """Read the JSON form; a wrong shape is a ``TournamentError``."""
        if not isinstance(data, dict):
            raise TournamentError(
                "a result is an object: deals, score, decider, forfeit, double_forfeit")
        unknown = set(data) - {"deals", "score", "decider", "forfeit", "double_forfeit"}
        if unknown:
            raise TournamentError(f"a result has no field {sorted(unknown)[0]!r}")
        forfeit = data.get("forfeit")
        if forfeit is not None and not isinstance(forfeit, str):
            raise TournamentError("forfeit names an entrant")
        double = data.get("double_forfeit", False)
        if not isinstance(double, bool):
            raise TournamentError("double_forfeit is true or false")
        score = data.get("score")
        return cls(
            deals=_scores(data.get("deals", []), "deals"),
            score=None if score is None else _score(score, "score"),
            decider=_scores(data.get("decider", []), "decider"),
            forfeit=forfeit, double_forfeit=double,
        )


def _score(value: Any, what: str) -> Score:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise TournamentError(f"{what}: points are a pair of whole numbers, got {value!r}")
    if min(value) < 0:
        raise TournamentError(f"{what}: points cannot be negative, got {list(value)}")
    return (value[0], value[1])


def _scores(value: Any, what: str) -> tuple[Score, ...]:
    if not isinstance(value, (list, tuple)):
        raise TournamentError(f"{what} is a list of [home, away] points")
    return tuple(_score(v, what) for v in value)


@dataclass(frozen=True)
class Outcome:
    """A checked result read as match points and game points per entrant."""

    winner: str | None
    #: game points scored, by entrant
    points: dict[str, int] = field(default_factory=dict)
    match_points: dict[str, int] = field(default_factory=dict)


def check_result(
    result: Result, home: str, away: str, *, deals: int | None, knockout: bool,
    better_seed: str,
) -> Outcome:
    """Check a result for a table (``deals``: deals a round, None for a match to a target)
    and read it; a ``TournamentError`` says what does not fit."""
    if result.double_forfeit:
        if knockout:
            raise TournamentError(
                "a knockout table needs a winner: a forfeit names the entrant who did not "
                "play (no double forfeit)")
        if result.forfeit is not None or result.deals or result.score is not None \
                or result.decider:
            raise TournamentError("a double forfeit has no points and names nobody")
        return Outcome(None, {home: 0, away: 0}, {home: LOSS, away: LOSS})
    if result.forfeit is not None:
        if result.forfeit not in (home, away):
            raise TournamentError(
                f"forfeit names {result.forfeit!r}, who is not at this table ({home} v {away})")
        if result.deals or result.score is not None or result.decider:
            raise TournamentError("a forfeit has no points")
        won = away if result.forfeit == home else home
        return Outcome(won, {won: BYE_POINTS, result.forfeit: 0},
                       {won: WIN, result.forfeit: LOSS})
    if deals is not None:
        if result.score is not None:
            raise TournamentError("this event plays fixed deals: enter each deal's points")
        if len(result.deals) != deals:
            raise TournamentError(
                f"this event plays {deals} deals a round; the result has {len(result.deals)}")
    else:
        if result.deals:
            raise TournamentError("this event plays matches to a target: enter the score")
        if result.score is None:
            raise TournamentError("enter the match's final score")
    h, a = result.points
    winner: str | None = home if h > a else away if a > h else None
    if result.decider and (winner is not None or not knockout):
        raise TournamentError("a decider is played only after a level knockout match")
    if winner is None and knockout:
        winner = _decider_winner(result.decider, home, away, better_seed)
    if winner is None:
        mp = {home: DRAW, away: DRAW}
    else:
        mp = {winner: WIN, (away if winner == home else home): LOSS}
    return Outcome(winner, {home: h, away: a}, mp)


def _decider_winner(decider: tuple[Score, ...], home: str, away: str, better: str) -> str:
    if not decider:
        raise TournamentError(
            "a knockout match ended level: enter the decider deals (one after the other "
            "until one is won)")
    if len(decider) > MAX_DECIDER_DEALS:
        raise TournamentError(f"a decider is at most {MAX_DECIDER_DEALS} deals")
    for i, (h, a) in enumerate(decider):
        if h != a:
            if i != len(decider) - 1:
                raise TournamentError("the decider stops at the first deal won")
            return home if h > a else away
    if len(decider) < MAX_DECIDER_DEALS:
        raise TournamentError("the decider goes on until a deal is won")
    return better
