"""The standings: match points first, then tie-breaks, one documented order per format.

- Match points: 2 a win, 1 a draw, 0 a loss (a bye or a forfeit: a win, no game points;
  a double forfeit: a loss for both).
- Then the points difference: game points for minus against, over every match. A club
  counts it anyway, and it rewards winning by more, which a match point does not see.
- Then, in a Swiss event, Buchholz: the sum of the match points of the opponents met. Two
  entrants level on points may have had very different draws, and Buchholz credits the
  one who met the stronger field (the usual Swiss tie-break, as in chess).
- In a round robin, head-to-head instead: the match points won in the matches between the
  entrants still level. Everyone met everyone, so Buchholz would tell nothing (it is the
  same total less one's own results); the direct meetings do.
- Knockout: how far an entrant went (the champion first), then match points and points
  difference, which only order those out in the same round.
- In a duplicate event the field score (``duplicate.field_scores``: how each entrant did
  with its cards against the others who held them) comes before everything: it is the
  measure of play with the luck of the deal taken out, which is what duplicate is for.
- Last, the seed (entry order), so every rank is distinct and the order never depends on
  chance.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from .duplicate import TableDeals, field_scores
from .results import BYE_POINTS, DRAW, LOSS, WIN, Outcome


class Event(Protocol):
    """What the standings read of an event (``event.Event``; a protocol, so that the event,
    which ranks entrants for Swiss pairings, and the standings do not import each other)."""

    @property
    def names(self) -> Sequence[str]: ...
    @property
    def format(self) -> str: ...
    @property
    def rounds(self) -> int | None: ...
    @property
    def duplicate(self) -> bool: ...
    @property
    def played(self) -> Sequence[Any]: ...
    @property
    def withdrawn(self) -> Sequence[str]: ...
    @property
    def rest_points(self) -> int: ...

    def outcome(self, table: Any) -> Outcome: ...

@dataclass
class Standing:
    """One entrant's line."""

    rank: int
    entrant: str
    seed: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    byes: int = 0
    #: rounds sat out on request (Swiss), ``rest_points`` each
    rests: int = 0
    match_points: int = 0
    points_for: int = 0
    points_against: int = 0
    #: Swiss only
    buchholz: int | None = None
    #: round robin only: match points against the entrants level with this one
    head_to_head: int | None = None
    #: duplicate events only
    field: float | None = None
    #: knockout only: the round an entrant went out in (the rounds + 1: still in, or won)
    reached: int | None = None
    withdrawn: bool = False

    @property
    def difference(self) -> int:
        return self.points_for - self.points_against

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["difference"] = self.difference
        return out


def standings(event: Event) -> list[Standing]:
    """Every entrant's line, best first, from the results entered so far."""
    lines = {name: Standing(0, name, i + 1, withdrawn=name in event.withdrawn)
             for i, name in enumerate(event.names)}
    opponents: dict[str, list[str]] = {name: [] for name in lines}
    #: per pair met (a, b): match points a took from b
    took: dict[tuple[str, str], int] = {}
    lost_in: dict[str, int] = {}
    for rnd in event.played:
        for name in getattr(rnd, "resting", ()):
            line = lines[name]
            line.rests += 1
            line.match_points += event.rest_points
        for table in rnd.tables:
            if table.away is None:
                line = lines[table.home]
                line.byes += 1
                line.match_points += WIN
                line.points_for += BYE_POINTS
                continue
            if table.result is None:
                continue
            outcome = event.outcome(table)
            for me, other in ((table.home, table.away), (table.away, table.home)):
                line = lines[me]
                mp = outcome.match_points[me]
                line.played += 1
                line.won += mp == WIN
                line.drawn += mp == DRAW
                line.lost += mp == LOSS
                line.match_points += mp
                line.points_for += outcome.points[me]
                line.points_against += outcome.points[other]
                opponents[me].append(other)
                took[(me, other)] = took.get((me, other), 0) + mp
                if mp == LOSS:
                    lost_in.setdefault(me, rnd.number)
    if event.duplicate:
        for line in lines.values():
            line.field = 0.0
        for rnd in event.played:
            scores = field_scores(_played_deals(event, rnd.tables))
            for name, score in scores.items():
                lines[name].field = (lines[name].field or 0.0) + score
    if event.format == "swiss":
        for name, line in lines.items():
            line.buchholz = sum(lines[o].match_points for o in opponents[name])
    if event.format == "knockout":
        for name, line in lines.items():
            line.reached = lost_in.get(name, (event.rounds or 0) + 1)
    ordered = sorted(lines.values(), key=_key)
    if event.format == "round-robin":
        ordered = _head_to_head(ordered, took)
    for rank, line in enumerate(ordered, 1):
        line.rank = rank
    return ordered


def _played_deals(event: Event, tables: list[Any]) -> list[TableDeals]:
    """A round's tables that played their deals (no byes, no forfeits, results in)."""
    out: list[TableDeals] = []
    for t in tables:
        if t.away is not None and t.result is not None and not t.result.unplayed:
            out.append((t.home, t.away, list(t.result.deals)))
    return out


def _level(line: Standing) -> tuple[Any, ...]:
    """What must be equal for two entrants to go to the format's own tie-break."""
    field = -round(line.field, 6) if line.field is not None else 0.0
    return (-(line.reached or 0), field, -line.match_points, -line.difference)


def _key(line: Standing) -> tuple[Any, ...]:
    return (*_level(line), -(line.buchholz or 0), line.seed)


def _head_to_head(ordered: list[Standing], took: dict[tuple[str, str], int]) -> list[Standing]:
    """Within each group level on everything before it, order by the match points won
    against the others of the group, then by seed."""
    out: list[Standing] = []
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and _level(ordered[j]) == _level(ordered[i]):
            j += 1
        group = ordered[i:j]
        names = {g.entrant for g in group}
        for line in group:
            line.head_to_head = sum(took.get((line.entrant, o), 0) for o in names - {line.entrant})
        out += sorted(group, key=lambda g: (-(g.head_to_head or 0), g.seed))
        i = j
    return out
