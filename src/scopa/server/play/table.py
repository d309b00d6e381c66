"""A live table as the server holds it in memory: its seats, its match, its votes, and the
handles the async shell keeps on it (the lock, the timer and bot tasks, the sockets).

The decisions about a table live in ``flow`` (pure), the frames its sockets get in
``frames``, and the waiting, locking and storing in ``master``; this module is only the
record they share, and the refusal they raise.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from ...match import Match
from ...rules import Rules
from .answers import SeatKind, TableStatus

#: state ids: match_number * STATE_STRIDE + events in the match
STATE_STRIDE = 1_000_000

#: table statuses that count as live (held for players); also "finished" and "expired"
LIVE = ("waiting", "playing")


class Conn(Protocol):
    """A connection as the master sees it (the hub implements it)."""

    seat: int | None

    def send(self, text: str) -> None: ...

    def close_after_queue(self, code: int, reason: str) -> None: ...


@dataclass
class SeatState:
    seat: int
    kind: SeatKind
    level: str | None
    name: str | None
    token_hash: str | None
    conns: set[Any] = field(default_factory=set)
    standin: bool = False
    grace_task: asyncio.Task[None] | None = None
    external: Any = None
    #: sockets on this seat at other workers (worker id -> count; scaled deployment)
    remote: dict[str, int] = field(default_factory=dict)

    @property
    def present(self) -> bool:
        """Someone has a socket on this seat, here or at another worker."""
        return bool(self.conns) or any(self.remote.values())
    #: the account sitting here (None: a guest, a bot)
    user_id: int | None = None
    #: its player resigned the current match: a stand-in plays it to the end, even if
    #: the player stays or comes back (``flow.resign``)
    resigned: bool = False
    #: an online bot's seat (``server.bots``): a person's seat in every way (it is away,
    #: stood in for, rated like one) but taken only by a bot account (``user_id`` while
    #: free: the bot challenged; none: any online bot), and shown as a bot's
    bot_account: bool = False

    @property
    def taken(self) -> bool:
        return self.kind != "human" or self.token_hash is not None

    @property
    def bot_played(self) -> bool:
        return self.kind != "human" or self.standin or self.resigned


@dataclass
class Table:
    id: str
    invite: str
    public: bool
    rules: Rules
    grace: float
    created_at: datetime
    seats: list[SeatState]
    status: TableStatus = "waiting"
    spectators: set[Any] = field(default_factory=set)
    match_id: str | None = None
    match_number: int = 0
    game: Match | None = None
    seq: int = 0
    winner: int | None = None
    final_scores: list[int] | None = None
    next_hand_at: float | None = None
    next_votes: set[int] = field(default_factory=set)
    rematch_votes: set[int] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None
    #: monotonic time the last match ended (for dropping idle finished tables)
    finished_at: float | None = None
    #: the client address that made the table (None after a restart): its waiting
    #: tables are capped
    creator_address: str | None = None
    #: matches here move ratings (``server.ratings``); every seat is an account or a bot
    rated: bool = False
    #: seats of the current rated match left to a stand-in past the grace period: each
    #: counts as a loss for its player, whatever the score
    abandoned: set[int] = field(default_factory=set)
    #: teach me for every seat (a table setting all see; ``fairplay``)
    teach: bool = True
    #: a match of fixed deals (a tournament's table): the hand seeds it deals first, in
    #: order (every table of a duplicate round the same), then its own ...
    seeds: list[str] = field(default_factory=list)
    #: ... and the number of deals after which the match ends, as soon as a side leads
    #: (level then: one more hand at a time). None: the rules' target ends it
    deals: int | None = None
    #: the event whose table this is (``events.online``): the event pairs the next game,
    #: so no rematch is voted here (``flow.may_rematch``)
    event_id: str | None = None
    #: its hand seeds are also every other table's of a duplicate round still being played:
    #: never shown here (the score sheet gives the commitment only) and nobody watches;
    #: the event shows them once its round is over
    shared_deals: bool = False

    @property
    def event_table(self) -> bool:
        """An event's table (``event_id``)."""
        return self.event_id is not None

    @property
    def state_id(self) -> int:
        return self.match_number * STATE_STRIDE + self.seq

    @property
    def match_over(self) -> bool:
        return self.winner is not None
