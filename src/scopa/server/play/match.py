"""A table's match, as the master plays it: deal, moves, resignations, the pause and the
votes between hands, a rematch; and the same steps when another worker made them (read
from the log or announced). What each step does to the table is ``flow``'s (pure); here
is the order: check, write to the log (committed), apply, tell.

Every step goes into the log through ``commit``: the database's unique ``(match_id,
seq)`` refuses a second writer of the same step; the loser re-reads the log (``Workers.
reread``) and decides again. (A unique key rather than an advisory lock: it needs no
extra round trip, holds across any pool or connection, and is checked in the very
transaction that writes.)"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from ...match import Match
from ...moves import Move, move_fields
from ...shuffle import new_seed
from ..common.clock import Clock
from ..common.refusal import Refusal
from ..common.settings import Settings
from ..common.timing import PHASES
from ..store.database import Conflict, Store, StoredTable
from ..store.models import MatchRow
from . import flow, frames
from .flow import Next, Played
from .send import (
    broadcast,
    broadcast_state,
    cancel_grace,
    cancel_graces,
    close_externals,
    stop_driving,
)
from .table import SeatState, Table
from .tasks import Tasks
from .tokens import new_id
from .workers import Workers

log = logging.getLogger("scopa.server")

#: writes of a resignation tried when another worker's step takes its place in the log
RESIGN_TRIES = 5

#: awaited when a match ends, before the end is announced; must not raise
MatchEndHook = Callable[[Table], Awaitable[None]]


class Matches:
    def __init__(self, settings: Settings, store: Store, cluster: Workers, clock: Clock,
                 tasks: Tasks, drive: Callable[[Table], None],
                 start_grace: Callable[[Table, SeatState], None]) -> None:
        self.settings = settings
        self.store = store
        self.cluster = cluster
        self.clock = clock
        self.tasks = tasks
        #: the bot seats (a bot or a stand-in is to move) and the seating (a grace period)
        self._drive = drive
        self._start_grace = start_grace
        #: awaited when a match ends, before the end is announced (``outcome.rating_hook``
        #: keeps the seats' facts and moves ratings); a hook must not raise
        self.match_end_hooks: list[MatchEndHook] = []

    async def commit(self, table: Table, write: Awaitable[None], full: bool = False) -> bool:
        """Write one step of ``table``'s log (lock held): False when another worker wrote
        that step first, the table then re-read from the log (``full``: reloaded whole)."""
        try:
            await write
        except Conflict as e:
            await self.cluster.reread(table, full, e)
            return False
        return True

    # -- starting ------------------------------------------------------------------------
    async def maybe_start(self, table: Table) -> None:
        async with table.lock:
            if flow.full(table):
                await self.start(table)

    async def start(self, table: Table) -> None:
        """Deal a new match (called with the table lock held)."""
        seed = flow.given_seed(table, 1) or new_seed()
        game = Match(table.rules, hand_seed=seed)
        number = table.match_number + 1
        match_id = new_id(12)
        row = MatchRow(
            id=match_id, table_id=table.id, number=number, rules=table.rules.to_dict(),
            players=[s.name or f"seat {s.seat}" for s in table.seats], hands=0,
        )
        if not await self.commit(table, self.store.start_match(row, {"number": 1, "seed": seed}),
                                 full=True):
            return  # another worker started it: read
        for s in flow.start_match(table, match_id, number, game):
            self._start_grace(table, s)
        self.cluster.announce(table, "match")
        broadcast_state(table, {"kind": "match_start", "match_number": number})
        self._drive(table)

    # -- moves ---------------------------------------------------------------------------
    async def submit(self, table: Table, seat: int, state_id: object, move_data: object,
                     by: str = "human") -> None:
        """Apply one move, or raise ``Refusal`` having changed nothing."""
        async with table.lock:
            await self.cluster.sync_locked(table)  # only if it heard of a newer step
            move = flow.check_move(table, seat, state_id, move_data, by)
            await self._apply(table, seat, move, by)

    async def _apply(self, table: Table, seat: int, move: Move, by: str) -> None:
        """Persist, apply, broadcast (lock held, move known legal)."""
        assert table.game is not None and table.match_id is not None
        finish = flow.match_finish(table, move)
        data = {"seat": seat, **move.to_dict(), "by": by}
        if not await self.commit(table, self.store.append(table.match_id, table.seq, "move",
                                                          data, finish)):
            raise Refusal("stale_state", f"the state changed (now {table.state_id}): "
                              "look again", table.state_id)
        played = self._play_move(table, move, by)
        PHASES.count("moves.applied")  # written and applied here (metrics.py)
        if played.match_over:
            # awaited before anyone is told the match is over: whoever looks at a profile
            # after the match_end frame sees the rating it moved (hooks never raise). Only
            # the worker that wrote the last move runs them.
            for hook in self.match_end_hooks:
                await hook(table)
        self._tell_move(table, played)
        self.cluster.announce(table, "log", event={"seq": table.seq - 1, "kind": "move",
                                                   "data": data})

    def _play_move(self, table: Table, move: Move, by: str) -> Played:
        """Apply a committed move to the table's state (``flow.play_move``)."""
        return flow.play_move(table, move, by, self.clock.now(),
                              self.settings.hand_pause_seconds, time.monotonic())

    def _tell_move(self, table: Table, played: Played) -> None:
        """Every socket hears of the move (and of the hand's or the match's end)."""
        broadcast_state(table, played.event)
        if not played.hand_over:
            self._drive(table)
            return
        broadcast(table, frames.hand_end(table))
        if played.match_over:
            broadcast(table, frames.match_end(table))
            cancel_graces(table)
            close_externals(table)
        else:
            self.schedule_next_hand(table)

    # -- resigning -----------------------------------------------------------------------
    async def resign(self, table: Table, seat: int) -> None:
        """``seat``'s player gives up the match (``flow.check_resign`` says what that
        does): written to the log first, like a move, so a restart, a replay, another
        worker and the ratings see it; then every socket is told."""
        async with table.lock:
            await self.cluster.sync_locked(table)
            for _ in range(RESIGN_TRIES):
                finish = flow.check_resign(table, seat)
                assert table.match_id is not None
                data = {"seat": seat, "ends": finish is not None}
                # another worker's step (a bot's move) may take this seq first: a
                # resignation names no state, so read the log and decide again
                if await self.commit(table, self.store.append(table.match_id, table.seq,
                                                              "resign", data, finish)):
                    break
            else:
                raise Refusal("stale_state", "the table is busy: resign again",
                                  table.state_id)
            event = flow.resign(table, seat, finish, time.monotonic())
            if finish is not None:
                for hook in self.match_end_hooks:  # as for a last move: rated first
                    await hook(table)
            self._tell_resign(table, event)
            self.cluster.announce(table, "log", event={"seq": table.seq - 1, "kind": "resign",
                                                       "data": data})

    def _tell_resign(self, table: Table, event: dict[str, Any]) -> None:
        """Every socket hears who resigned, then the new state; at the match's end the
        result follows, else the stand-in takes the seat's turns."""
        seat = event["seat"]
        cancel_grace(table.seats[seat])
        broadcast(table, frames.resigned(table, seat, event["ends"]))
        broadcast_state(table, event)
        if table.match_over:
            stop_driving(table)
            broadcast(table, frames.match_end(table))
            close_externals(table)
            return
        self._drive(table)
        if flow.between_hands(table):
            self.tasks.spawn(self.continue_if_ready(table))  # no longer waited for

    # -- between hands -------------------------------------------------------------------
    def schedule_next_hand(self, table: Table) -> None:
        if table.next_hand_at is None:
            table.next_hand_at = self.clock.now() + flow.hand_pause(
                table, self.settings.hand_pause_seconds)
        if not self.cluster.holds(table):
            return
        sid = table.state_id

        async def later() -> None:
            # the deadline is read on each wake-up: the clock may be a test's fake one
            while table.next_hand_at is not None and table.next_hand_at > self.clock.now():
                await self.clock.sleep(table.next_hand_at - self.clock.now())
            await self._deal_next(table, sid)

        if table.timer is not None:
            table.timer.cancel()
        table.timer = self.tasks.spawn(later())

    async def next_vote(self, table: Table, seat: int) -> None:
        """A person pressed Continue: deal when nobody else is still reading the sheet."""
        if not flow.next_vote(table, seat):
            return  # harmless: nothing to wait for
        self.cluster.announce(table, "vote", what="next", seat=seat)
        await self.continue_if_ready(table)

    async def continue_if_ready(self, table: Table) -> None:
        step = flow.after_vote(table)
        if step is Next.WAIT:
            broadcast(table, frames.waiting(table))
        elif step is Next.DEAL and self.cluster.holds(table):
            await self._deal_next(table, table.state_id)

    async def stood_in(self, table: Table) -> None:
        """A stand-in took a seat: it plays the seat's turns, and between hands the person
        gone for good is no longer waited for."""
        self._drive(table)
        await self.continue_if_ready(table)

    async def _deal_next(self, table: Table, sid: int) -> None:
        async with table.lock:
            if not flow.deal_due(table, sid):
                return
            game = table.game
            assert game is not None and table.match_id is not None
            seed = flow.given_seed(table, game.hand_number + 1) or new_seed()
            if not await self.commit(table, self.store.append(
                    table.match_id, table.seq, "hand",
                    {"number": game.hand_number + 1, "seed": seed})):
                return
            self._advance_deal(table, seed)
            self.cluster.announce(table, "log", event={
                "seq": table.seq - 1, "kind": "hand",
                "data": {"number": game.hand_number, "seed": seed}})

    def _advance_deal(self, table: Table, seed: str) -> None:
        """Deal a committed hand and tell every socket (lock held)."""
        event = flow.deal(table, seed)
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None
        broadcast_state(table, event)
        self._drive(table)

    async def rematch(self, table: Table, seat: int) -> None:
        async with table.lock:
            await self.cluster.sync_locked(table)
            # checked under the lock: a second vote must not start a second match
            flow.check_rematch(table)
            self.cluster.announce(table, "vote", what="rematch", seat=seat)
            await self._rematch_vote(table, seat)

    async def _rematch_vote(self, table: Table, seat: int) -> None:
        vote = flow.rematch_vote(table, seat)
        broadcast(table, frames.rematch(vote.votes, vote.needed))
        if vote.start and self.cluster.holds(table):
            await self.start(table)

    # -- what other workers did (see cluster.py) -----------------------------------------
    def replay_event(self, table: Table, row: Any) -> None:
        """Apply one event another worker committed (an ``EventRow`` read from the log,
        lock held) and tell this worker's sockets, as if it had been made here."""
        if row.seq != table.seq:
            raise ValueError(f"event {row.seq} does not follow {table.seq}")
        if row.kind == "hand":
            self._advance_deal(table, row.data["seed"])
        elif row.kind == "move":
            move = Move.from_dict(move_fields(row.data))
            self._tell_move(table, self._play_move(table, move, row.data.get("by", "human")))
        elif row.kind == "resign":
            seat = row.data["seat"]
            finish = flow.check_resign(table, seat)
            self._tell_resign(table, flow.resign(table, seat, finish, time.monotonic()))
        else:
            raise ValueError(f"unknown event kind {row.kind!r}")

    def refresh(self, table: Table, stored: StoredTable) -> None:
        """Make ``table`` what the log says, through the one replay (lock held): seats,
        status, match, game. Sockets get the new state if it changed."""
        if not flow.refresh(table, flow.rebuild(stored), time.monotonic()):
            return
        broadcast_state(table, None)
        if table.game is not None and table.game.hand.hand_over:
            broadcast(table, frames.hand_end(table))
        if table.game is not None and table.match_over:
            broadcast(table, frames.match_end(table))
        self.resume(table)
        if flow.full(table) and self.cluster.holds(table):
            self.tasks.spawn(self.maybe_start(table))

    def resume(self, table: Table) -> None:
        """Grace timers, the pause between hands and bots (if this worker drives)."""
        if table.game is None or table.match_over or not self.cluster.holds(table):
            return
        for s in table.seats:
            if s.kind == "human" and not s.present and s.grace_task is None and not s.standin:
                self._start_grace(table, s)
        if flow.between_hands(table) and table.timer is None:
            self.schedule_next_hand(table)
        self._drive(table)

    async def take_over(self, table: Table) -> None:
        """This worker now holds ``table``'s lease: read the log, then drive it."""
        async with table.lock:
            await self.cluster.sync_locked(table)
            self.resume(table)
            if flow.start_pending(table):
                await self.start(table)  # the last join or vote reached a dead worker

    @staticmethod
    def let_go(table: Table) -> None:
        """Another worker drives ``table`` now: stop its bots and timers here."""
        stop_driving(table)

    async def vote_from(self, table: Table, what: str, seat: int) -> None:
        """A Continue or rematch vote made at another worker."""
        if what == "next":
            if flow.next_vote(table, seat):
                await self.continue_if_ready(table)
        elif what == "rematch":
            async with table.lock:
                if table.match_over:
                    await self._rematch_vote(table, seat)
