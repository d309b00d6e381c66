"""Tournaments: an event's formats (Swiss, round robin, knockout), pairings, results,
standings with their tie-breaks, and duplicate deals scored against the field
(docs/tournaments.md).

This package owns the event model and its rules, as plain data with no I/O and no
asyncio: the server stores an ``Event`` as JSON and calls its methods, the command line
plays one among bots (``scopa tournament``, through ``run.run_event`` with the arena's
match playing handed in). It imports only the rules core (rules, seeds and their
commitments), so both the server and the command line can import it.
"""

from .crosstable import crosstable, histories, standings_csv, travellers
from .event import FORMATS, AuditEntry, Entrant, Event, Round, Settings, Table
from .results import MAX_DECIDER_DEALS, Result, TournamentError
from .run import TableJob, play_job, run_event, table_jobs
from .standings import Standing, standings

__all__ = [
    "FORMATS",
    "MAX_DECIDER_DEALS",
    "AuditEntry",
    "Entrant",
    "Event",
    "Result",
    "Round",
    "Settings",
    "Standing",
    "Table",
    "TableJob",
    "TournamentError",
    "crosstable",
    "histories",
    "play_job",
    "run_event",
    "standings",
    "standings_csv",
    "table_jobs",
    "travellers",
]
