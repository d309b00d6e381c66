"""What an organiser publishes after the standings, from the results alone: each entrant's
round-by-round history, who met whom (the crosstable, as chess-results prints it), a
duplicate round's travellers (for each deal every table's score on the same cards and its
field score, as a bridge club posts them) and the standings as CSV.

Pure and read-only, like ``standings``: it reads the event's rounds and results through
the same ``Event`` protocol."""

from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass
from typing import Any

from .results import BYE_POINTS, WIN
from .standings import Event, Standing


@dataclass(frozen=True)
class Game:
    """One round of one entrant: whom it met (None: a bye), on which side, the points each
    took, the match points it earned, and how the table ended."""

    round: int
    opponent: str | None
    home: bool
    points_for: int
    points_against: int
    match_points: int
    #: ``played``, ``bye``, ``rest`` (sat out on request), ``forfeit`` (one entrant did not
    #: play), ``double_forfeit``
    how: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def histories(event: Event) -> dict[str, list[Game]]:
    """Each entrant's rounds with a result, in order (a round it was not paired in, as a
    withdrawn entrant, is left out)."""
    out: dict[str, list[Game]] = {name: [] for name in event.names}
    for rnd in event.played:
        for name in getattr(rnd, "resting", ()):
            out[name].append(Game(rnd.number, None, True, 0, 0, event.rest_points, "rest"))
        for table in rnd.tables:
            if table.away is None:
                out[table.home].append(Game(rnd.number, None, True, BYE_POINTS, 0, WIN, "bye"))
                continue
            if table.result is None:
                continue
            outcome = event.outcome(table)
            how = ("double_forfeit" if table.result.double_forfeit else
                   "forfeit" if table.result.forfeit is not None else "played")
            for me, other, home in ((table.home, table.away, True),
                                    (table.away, table.home, False)):
                out[me].append(Game(rnd.number, other, home, outcome.points[me],
                                    outcome.points[other], outcome.match_points[me], how))
    return out


def crosstable(event: Event, order: list[Standing]) -> list[dict[str, Any]]:
    """Entrants in standings order, each with its rank, its history, and per opponent
    met the match points it took from them (the crosstable's row)."""
    games = histories(event)
    rows = []
    for line in order:
        met: dict[str, int] = {}
        for g in games[line.entrant]:
            if g.opponent is not None:
                met[g.opponent] = met.get(g.opponent, 0) + g.match_points
        rows.append({"rank": line.rank, "entrant": line.entrant,
                     "match_points": line.match_points,
                     "games": [g.to_dict() for g in games[line.entrant]], "met": met})
    return rows


def travellers(event: Event, round_number: int) -> list[dict[str, Any]]:
    """A duplicate round's deals (0-based ``deal``), each with every table that played it:
    home and away, their points on it, and home's field score on it (its margin less the
    mean margin of the other homes; away's is the same with the sign turned, by symmetry
    of the deal: every table's home held the same cards). Tables without deal results (a
    forfeit) are left out."""
    rnd = event.played[round_number - 1]
    played = [(t.home, t.away, list(t.result.deals)) for t in rnd.tables
              if t.away is not None and t.result is not None and t.result.deals]
    count = max((len(d) for _, _, d in played), default=0)
    out = []
    for deal in range(count):
        rows = [(home, away, d[deal]) for home, away, d in played if deal < len(d)]
        margins = [h - a for _, _, (h, a) in rows]
        total = sum(margins)
        tables = []
        for (home, away, (h, a)), margin in zip(rows, margins, strict=True):
            field = 0.0 if len(rows) < 2 else margin - (total - margin) / (len(rows) - 1)
            tables.append({"home": home, "away": away, "home_points": h, "away_points": a,
                           "field": round(field, 2)})
        out.append({"deal": deal, "tables": tables})
    return out


#: the standings CSV's columns, in order (``Standing`` fields and the points difference)
CSV_COLUMNS = ("rank", "entrant", "match_points", "played", "won", "drawn", "lost", "byes",
               "points_for", "points_against", "difference", "buchholz", "head_to_head",
               "field", "withdrawn")


def standings_csv(order: list[Standing]) -> str:
    """The standings as CSV (RFC 4180, a header row), for a spreadsheet or a club's site.
    A cell that a spreadsheet would read as a formula (``=``, ``+``, ``-``, ``@`` first) is
    quoted with a leading apostrophe: entrants' names are typed by strangers."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for line in order:
        row = line.to_dict()
        writer.writerow([_cell(row[c]) for c in CSV_COLUMNS])
    return buf.getvalue()


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    text = str(value)
    if isinstance(value, str) and text[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + text
    return text
