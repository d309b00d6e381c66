"""What the event routes answer, as types (see ``common.answers``). An event's own record
(``tournament.Event.to_dict``: rounds, tables, results, the round seeds once public), its
standings and its crosstable travel as the tournament package writes them
(``docs/events.md``)."""

from __future__ import annotations

from typing import Any

from typing_extensions import TypedDict

from ..common.answers import Number, strict


@strict
class TournamentSettings(TypedDict):
    """An event's settings, as its list line and its page begin."""
    id: str
    name: str
    mode: str
    status: str
    format: str | None
    variant: str | None
    players: int | None
    rounds: int | None
    deals_per_round: int | None
    target: int | None
    duplicate: bool
    rated: bool
    teach: bool
    auto_next: bool
    starts_at: str | None
    capacity: int
    grace_seconds: Number | None
    round_minutes: Number | None
    confirm_results: bool
    #: the viewer organises it
    organiser: bool


@strict
class TournamentLine(TournamentSettings):
    """An event's settings, and how many have entered (the lobby's list)."""
    entered_count: int
    #: the viewer has entered
    entered: bool


@strict
class TournamentList(TypedDict):
    events: list[TournamentLine]
    total: int


@strict
class MyTable(TypedDict):
    round: int
    table: int
    table_id: str


@strict
class TableOfRound(TypedDict):
    round: int
    number: int
    table_id: str


@strict
class TournamentSummary(TournamentLine):
    """An event's settings and entrants (the top of its page)."""
    entrants: list[str]


@strict
class TournamentPage(TournamentSummary):
    """The event page: its settings and entrants, then (once started) the event's record,
    the standings and crosstable as the viewer may see them, and the viewer's table."""
    event: dict[str, Any] | None
    standings: list[dict[str, Any]]
    crosstable: list[dict[str, Any]]
    my_table: MyTable | None
    #: once started (empty before): who withdrew, whom the organiser may reinstate, and
    #: the online tables of every round
    withdrawn: list[str]
    reinstatable: list[str]
    tables: list[TableOfRound]


@strict
class TournamentSeat(TypedDict):
    """The viewer's seat at its table of the current round."""
    table_id: str
    seat: int
    token: str
    invite: str
    round: int
    table: int
    ws_url: str


@strict
class PrintedTable(TypedDict):
    number: int
    home: str
    away: str | None
    #: each deal's cards (a duplicate round, once it may be shown)
    deals: list[dict[str, Any]] | None


@strict
class PrintedRound(TypedDict):
    event: str
    round: int
    rounds: int | None
    commitment: str | None
    seed: str | None
    duplicate: bool
    tables: list[PrintedTable]


@strict
class Crosstable(TypedDict):
    entrants: list[dict[str, Any]]


@strict
class Travellers(TypedDict):
    round: int
    deals: list[dict[str, Any]]
