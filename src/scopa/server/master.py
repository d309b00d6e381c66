"""The authoritative match master: the async shell around the table flow.

``submit`` has the flow check a move for the seat, the turn and the state id and that it is
legal, writes it to storage (committed), applies it through the flow and only then tells
every socket, each getting its own seat's view. Tables live in memory; storage holds the
events so that ``restore`` can rebuild every unfinished match after a restart.

This module keeps what waits: the table locks, the timers (the grace period, the pause
between hands), the bot tasks, the storage and broker calls. What to decide is asked of
``flow`` (pure, tested without an event loop), what to send is built by ``frames``, and the
table's record is ``table``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from ..game import Game, Move, move_fields
from ..rules import Rules
from ..shuffle import new_seed
from . import fairplay, flow, frames
from .clock import Clock
from .flow import Next, Played
from .models import MatchRow, SeatRow, TableRow
from .seats import AnalysisBusy, BotPool, external_bot
from .settings import Settings
from .store import Conflict, Store, StoredTable
from .table import Conn, MasterError, SeatState, Table
from .timing import PHASES

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("scopa.server")

#: writes of a resignation tried when another worker's step takes its place in the log
RESIGN_TRIES = 5


def new_id(n: int = 10) -> str:
    return secrets.token_urlsafe(n)[:n].replace("-", "x").replace("_", "y")


class Master:
    """Every live table, and the waiting, locking and storing around changing them."""

    def __init__(
        self, settings: Settings, store: Store, pool: BotPool, secret: str,
        clock: Clock | None = None,
    ) -> None:
        self.settings = settings
        #: wall time and waiting (the pause between hands, the grace): a fake in tests
        self.clock = clock or Clock()
        self.store = store
        self.pool = pool
        self.secret = secret.encode()
        self.tables: dict[str, Table] = {}
        self.by_invite: dict[str, Table] = {}
        self.rng = random.Random()
        self._tasks: set[asyncio.Task[Any]] = set()
        #: teach-me answers by (table, state id, seat): asking again costs nothing
        self._analyses: dict[tuple[str, int, int], dict[str, Any] | None] = {}
        #: seats (table, seat) with an analysis being computed
        self._teaching: set[tuple[str, int]] = set()
        #: the other workers (scaled deployment); None: this process is the only one
        self.cluster: Cluster | None = None
        #: awaited when a match ends, before the end is announced (``ratings.Ratings``
        #: keeps the seats' facts and moves ratings); a hook must not raise
        self.match_end_hooks: list[Callable[[Table], Awaitable[None]]] = []

    def _drives(self, table: Table) -> bool:
        """Whether this worker runs the table's bots and timers (always, when alone)."""
        return self.cluster is None or self.cluster.holds(table)

    def _announce(self, table: Table, kind: str, **data: Any) -> None:
        if self.cluster is not None:
            self.cluster.announce(table, kind, **data)

    async def find(self, table_id: str) -> Table | None:
        """A table by id: from memory, or (scaled) loaded from the log another worker
        wrote."""
        table = self.tables.get(table_id)
        if table is not None or self.cluster is None:
            return table
        return self._adopt(await self.store.load_table(table_id))

    async def find_invite(self, invite: str) -> Table | None:
        table = self.by_invite.get(invite)
        if table is not None or self.cluster is None:
            return table
        return self._adopt(await self.store.load_table(invite=invite))

    def _adopt(self, stored: StoredTable | None) -> Table | None:
        if stored is None:
            return None
        known = self.tables.get(stored.table.id)
        if known is not None:  # loaded meanwhile
            return known
        try:
            table = flow.rebuild(stored)
        except Exception:
            log.exception("could not load table %s", stored.table.id)
            return None
        self.tables[table.id] = table
        self.by_invite[table.invite] = table
        if self.cluster is not None:
            self.cluster.watch(table)
        return table

    # -- tokens -------------------------------------------------------------------------
    def token_hash(self, token: str) -> str:
        return hmac.new(self.secret, token.encode(), hashlib.sha256).hexdigest()

    def authenticate(self, table: Table, token: object) -> int | None:
        """The seat that ``token`` opens at ``table``, or None."""
        if not isinstance(token, str) or not 8 <= len(token) <= 128:
            return None
        h = self.token_hash(token)
        found = None
        for s in table.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                found = s.seat
        return found

    def may_watch(self, table: Table, invite: object) -> bool:
        """Anyone may watch a public table; a private one only with its invite code."""
        if table.public:
            return True
        return isinstance(invite, str) and hmac.compare_digest(
            invite.encode(), table.invite.encode())

    # -- tables -------------------------------------------------------------------------
    async def create_table(
        self,
        rules: Rules,
        seats: list[dict[str, Any]],
        public: bool,
        grace: float,
        creator: str | None,
        creator_seat: int | None,
        address: str | None = None,
        creator_user: int | None = None,
        rated: bool = False,
        teach: bool = True,
    ) -> tuple[Table, int | None, str | None]:
        """Create a table; the creator takes ``creator_seat`` (a human seat). Refused when
        the server holds ``max_live_tables`` live tables (``busy``) or ``address`` already
        has ``max_waiting_per_address`` tables waiting for players (``too_many``)."""
        await self.sweep()
        flow.check_room(self.tables.values(), address, self.settings.max_live_tables,
                        self.settings.max_waiting_per_address)
        table_id = new_id(10)
        invite = new_id(16)
        states = flow.new_seats(seats, creator, creator_seat, self.rng)
        token = None
        if creator_seat is not None:
            token = secrets.token_urlsafe(24)
            states[creator_seat].token_hash = self.token_hash(token)
            states[creator_seat].user_id = creator_user
        table = Table(
            id=table_id, invite=invite, public=public, rules=rules, grace=grace,
            created_at=datetime.now(UTC), seats=states, creator_address=address, rated=rated,
        )
        table.teach = fairplay.table_teach(teach, rated)
        await self.store.create_table(
            TableRow(
                id=table_id, invite=invite, public=public, rules=rules.to_dict(),
                grace_seconds=grace, created_at=table.created_at, status="waiting",
                rated=rated, teach=table.teach,
            ),
            [
                SeatRow(table_id=table_id, seat=s.seat, kind=s.kind, level=s.level, name=s.name,
                        token_hash=s.token_hash, user_id=s.user_id)
                for s in states
            ],
        )
        self.tables[table_id] = table
        self.by_invite[invite] = table
        if self.cluster is not None:
            await self.cluster.claim(table)
        await self._maybe_start(table)
        return table, creator_seat, token

    async def join(self, invite: str, name: str, seat: int | None,
                   user_id: int | None = None) -> tuple[Table, int, str]:
        table = await self.find_invite(invite)
        if table is not None and flow.expired(table, self.waiting_cutoff()):
            await self._expire(table)
            table = None
        if table is None:
            raise MasterError("not_found", "no table has this invite code")
        async with table.lock:
            if table.status == "expired":  # expired while this join waited for the lock
                raise MasterError("not_found", "no table has this invite code")
            if self.cluster is not None:  # a seat taken at another worker is not free
                self.cluster.mark(table, full=True)
                await self.cluster.sync_locked(table)
            target, name = flow.choose_seat(table, name, seat, user_id)
            token = secrets.token_urlsafe(24)
            h = self.token_hash(token)
            try:
                await self.store.take_seat(table.id, target.seat, name, h, user_id)
            except Conflict:  # another worker's join took it first
                raise MasterError("conflict", f"seat {target.seat} was just taken") from None
            target.name, target.token_hash, target.user_id = name, h, user_id
        self._announce(table, "seats")
        self._broadcast_state(table, {"kind": "seat", "seat": target.seat})
        await self._maybe_start(table)
        return table, target.seat, token

    async def _maybe_start(self, table: Table) -> None:
        async with table.lock:
            if flow.full(table):
                await self._start_match(table)

    async def _start_match(self, table: Table) -> None:
        """Deal a new match (called with the table lock held)."""
        seed = new_seed()
        game = Game(table.rules, hand_seed=seed)
        number = table.match_number + 1
        match_id = new_id(12)
        try:
            await self.store.start_match(
                MatchRow(
                    id=match_id, table_id=table.id, number=number,
                    rules=table.rules.to_dict(),
                    players=[s.name or f"seat {s.seat}" for s in table.seats], hands=0,
                ),
                {"number": 1, "seed": seed},
            )
        except Conflict:
            if self.cluster is None:
                raise
            self.cluster.mark(table, full=True)  # another worker started it: read it
            await self.cluster.sync_locked(table)
            return
        for s in flow.start_match(table, match_id, number, game):
            self._start_grace(table, s)
        self._announce(table, "match")
        self._broadcast_state(table, {"kind": "match_start", "match_number": number})
        self._drive(table)

    async def sweep(self) -> None:
        """Forget finished tables nobody has watched for a while (they stay in history),
        and close tables that waited for players longer than ``waiting_table_minutes``."""
        keep = self.settings.finished_keep_seconds
        now = time.monotonic()
        cutoff = self.waiting_cutoff()
        for table in list(self.tables.values()):
            if flow.forgettable(table, now, keep):
                self._forget(table)
            elif flow.expired(table, cutoff):
                await self._expire(table)

    def waiting_cutoff(self) -> datetime:
        """Tables made before this and still waiting for players have expired."""
        return datetime.now(UTC) - timedelta(minutes=self.settings.waiting_table_minutes)

    async def _expire(self, table: Table) -> None:
        """Close a table that waited too long: stored as ``expired`` (never reloaded), its
        invite stops working, and its sockets are told and closed. Under the table lock, so
        a join or a start in progress finishes first (and then the table is not expired)."""
        async with table.lock:
            if not flow.closable(table):
                return  # started, or full and about to start
            await self.store.set_status(table.id, "expired")  # committed first
            table.status = "expired"
        for conn in [*table.spectators, *(c for s in table.seats for c in s.conns)]:
            conn.send(frames.EXPIRED)
            conn.close_after_queue(4004, "table expired")
        self._forget(table)

    def _forget(self, table: Table) -> None:
        if self.cluster is not None:
            self.cluster.unwatch(table.id)
        self._close_externals(table)
        self.tables.pop(table.id, None)
        self.by_invite.pop(table.invite, None)

    async def housekeeping(self) -> None:
        """Sweep now and then, so expired tables go even when nobody creates one."""
        period = min(60.0, self.settings.waiting_table_minutes * 60 / 4)
        while True:
            await asyncio.sleep(period)
            try:
                await self.sweep()
            except Exception:  # a database hiccup must not end the housekeeping
                log.exception("sweeping tables failed")

    def start_housekeeping(self) -> None:
        self._spawn(self.housekeeping())

    # -- accounts -----------------------------------------------------------------------
    def seat_account(self, table_id: str, seat: int, user_id: int) -> None:
        """A guest's seat at a live table became an account's (already stored)."""
        table = self.tables.get(table_id)
        if table is not None and 0 <= seat < len(table.seats):
            table.seats[seat].user_id = user_id

    def forget_account(self, user_id: int, name: str) -> None:
        """An account was deleted: its live seats play on as guests' seats, shown under
        ``name`` (as the store now shows them) to everyone at the table."""
        for table in self.tables.values():
            for s in table.seats:
                if s.user_id == user_id:
                    s.user_id = None
                    s.name = name
                    self._broadcast_state(table, {"kind": "seat", "seat": s.seat})

    def online_accounts(self) -> set[int]:
        """Accounts with a seat connected now, at this worker or (scaled deployment) at
        any other: every worker follows every live table's presence announcements."""
        return {s.user_id for t in self.tables.values() for s in t.seats
                if s.user_id is not None and s.present}

    # -- restore after a restart --------------------------------------------------------
    async def restore(self) -> int:
        """Rebuild every waiting or playing table from storage; returns how many. Tables
        that waited too long are marked expired first and stay down."""
        count = 0
        await self.store.expire_waiting(self.waiting_cutoff())
        for st in await self.store.load_active():
            try:
                table = flow.rebuild(st)
            except Exception:  # one broken table must not stop the server
                log.exception("could not restore table %s", st.table.id)
                continue
            self.tables[table.id] = table
            self.by_invite[table.invite] = table
            count += 1
        return count

    def resume_all(self) -> None:
        """After ``restore``, inside the running loop: grace timers, bots, hand timers
        (scaled: for the tables whose lease this worker takes, see ``take_over``)."""
        if self.cluster is not None:
            return
        for table in self.tables.values():
            if table.game is None:
                continue
            for s in table.seats:
                if s.kind == "human" and not s.conns:
                    self._start_grace(table, s)
            if table.game.hand_over and not table.match_over:
                self._schedule_next_hand(table)
            self._drive(table)

    # -- connections --------------------------------------------------------------------
    async def attach(self, table: Table, conn: Conn) -> None:
        """Add a socket under the table's lock: a move between its commit (awaited) and its
        announcement lands first, so the socket's first state is the one after it, and a
        stand-in's move already being written is not decided for a player already back."""
        async with table.lock:
            if self.cluster is not None:  # another worker may have moved meanwhile
                self.cluster.mark(table)
                await self.cluster.sync_locked(table)
            self._attach_now(table, conn)
            if self.cluster is not None and conn.seat is not None:
                self.cluster.announce_presence(table, conn.seat)

    def _attach_now(self, table: Table, conn: Conn) -> None:
        seat = conn.seat
        if seat is None:
            table.spectators.add(conn)
            conn.send(frames.welcome(table, None, self.clock.now()))
            conn.send(json.dumps(frames.state(table, None, None)))
            self._catch_up(table, conn)
            return
        s = table.seats[seat]
        s.conns.add(conn)
        conn.send(frames.welcome(table, seat, self.clock.now()))
        if s.grace_task is not None:
            s.grace_task.cancel()
            s.grace_task = None
        was_standin = flow.seat_back(s)
        if len(s.conns) == 1 or was_standin:
            self._broadcast_state(table, {"kind": "seat", "seat": seat})
        else:
            conn.send(json.dumps(frames.state(table, seat, None)))
        self._catch_up(table, conn)
        if was_standin and flow.between_hands(table):
            self._broadcast(table, frames.waiting(table))  # back: waited for again

    def detach(self, table: Table, conn: Conn) -> None:
        if conn.seat is None:
            table.spectators.discard(conn)
            return
        s = table.seats[conn.seat]
        s.conns.discard(conn)
        if self.cluster is not None:
            self.cluster.announce_presence(table, s.seat)
        if not s.conns:
            if flow.grace_due(table, s):
                self._start_grace(table, s)
            self._broadcast_state(table, {"kind": "seat", "seat": s.seat})

    def _start_grace(self, table: Table, s: SeatState) -> None:
        if s.grace_task is not None:
            s.grace_task.cancel()
            s.grace_task = None
        if not self._drives(table):
            return

        async def stand_in() -> None:
            await self.clock.sleep(table.grace)
            if not flow.standin_due(s):
                return
            s.standin = True
            s.grace_task = None
            if flow.abandons(table, s.seat) and table.match_id is not None:
                try:
                    await self.store.mark_abandoned(table.id, s.seat, table.match_id)
                except Exception:  # the mark in memory still counts until a restart
                    log.exception("could not store the abandonment of seat %s at %s",
                                  s.seat, table.id)
                if not s.standin:  # the player came back while it was being written
                    return
            self._announce(table, "standin", seat=s.seat, on=True)
            self._broadcast_state(table, {"kind": "seat", "seat": s.seat})
            self._drive(table)
            # between hands a person gone for good is no longer waited for
            await self._continue_if_ready(table)

        s.grace_task = self._spawn(stand_in())

    # -- moves --------------------------------------------------------------------------
    async def submit(
        self, table: Table, seat: int, state_id: object, move_data: object, by: str = "human"
    ) -> None:
        """Apply one move, or raise ``MasterError`` having changed nothing."""
        async with table.lock:
            if self.cluster is not None:
                await self.cluster.sync_locked(table)  # only if it heard of a newer step
            move = flow.check_move(table, seat, state_id, move_data, by)
            await self._apply(table, seat, move, by)

    async def _apply(self, table: Table, seat: int, move: Move, by: str) -> None:
        """Persist, apply, broadcast (lock held, move known legal). Between workers the
        guard is the log's unique ``(match_id, seq)``: a second writer of the same step is
        refused by the database, re-reads the log and answers ``stale_state``. (A unique
        key rather than an advisory lock: it needs no extra round trip, holds across any
        pool or connection, and is checked in the very transaction that writes.)"""
        assert table.game is not None and table.match_id is not None
        finish = flow.match_finish(table.game, move)
        data = {"seat": seat, **move.to_dict(), "by": by}
        try:
            await self.store.append(table.match_id, table.seq, "move", data, finish)  # committed
        except Conflict:
            if self.cluster is None:
                raise
            self.cluster.mark(table)  # another worker wrote this step: read it
            await self.cluster.sync_locked(table)
            raise MasterError("stale_state", f"the state changed (now {table.state_id}): "
                              "look again", table.state_id) from None
        played = self._play_move(table, move, by)
        PHASES.count("moves.applied")  # written and applied here (metrics.py)
        if played.match_over:
            # awaited before anyone is told the match is over: whoever looks at a profile
            # after the match_end frame sees the rating it moved (hooks never raise). Only
            # the worker that wrote the last move runs them.
            for hook in self.match_end_hooks:
                await hook(table)
        self._tell_move(table, played)
        self._announce(table, "log", event={"seq": table.seq - 1, "kind": "move", "data": data})

    async def resign(self, table: Table, seat: int) -> None:
        """``seat``'s player gives up the match (``flow.check_resign`` says what that
        does): written to the log first, like a move, so a restart, a replay, another
        worker and the ratings see it; then every socket is told."""
        async with table.lock:
            if self.cluster is not None:
                await self.cluster.sync_locked(table)
            for attempt in range(RESIGN_TRIES):
                finish = flow.check_resign(table, seat)
                assert table.match_id is not None
                data = {"seat": seat, "ends": finish is not None}
                try:
                    await self.store.append(table.match_id, table.seq, "resign", data, finish)
                    break
                except Conflict:
                    # another worker's step (a bot's move) took this seq first: a
                    # resignation names no state, so read the log and decide again
                    if self.cluster is None or attempt == RESIGN_TRIES - 1:
                        raise MasterError("stale_state", "the table is busy: resign again",
                                          table.state_id) from None
                    self.cluster.mark(table)
                    await self.cluster.sync_locked(table)
            event = flow.resign(table, seat, finish, time.monotonic())
            if finish is not None:
                for hook in self.match_end_hooks:  # as for a last move: rated first
                    await hook(table)
            self._tell_resign(table, event)
            self._announce(table, "log", event={"seq": table.seq - 1, "kind": "resign",
                                                "data": data})

    def _advance_resign(self, table: Table, seat: int) -> None:
        """Apply a resignation another worker committed (read from the log, lock held)."""
        finish = flow.check_resign(table, seat)
        self._tell_resign(table, flow.resign(table, seat, finish, time.monotonic()))

    def _tell_resign(self, table: Table, event: dict[str, Any]) -> None:
        """Every socket hears who resigned, then the new state; at the match's end the
        result follows, else the stand-in takes the seat's turns."""
        seat = event["seat"]
        s = table.seats[seat]
        if s.grace_task is not None:
            s.grace_task.cancel()
            s.grace_task = None
        self._broadcast(table, frames.resigned(table, seat, event["ends"]))
        self._broadcast_state(table, event)
        if table.match_over:
            for task in (table.bot_task, table.timer):
                if task is not None and task is not asyncio.current_task():
                    task.cancel()
            table.bot_task = table.timer = None
            self._broadcast(table, frames.match_end(table))
            for other in table.seats:
                if other.grace_task is not None:
                    other.grace_task.cancel()
                    other.grace_task = None
            self._close_externals(table)
            return
        self._drive(table)
        if flow.between_hands(table):
            self._spawn(self._continue_if_ready(table))  # no longer waited for

    def _advance_move(self, table: Table, seat: int, move: Move, by: str) -> None:
        """Apply a committed move and tell every socket (here or read from the log)."""
        self._tell_move(table, self._play_move(table, move, by))

    def _play_move(self, table: Table, move: Move, by: str) -> Played:
        """Apply a committed move to the table's state (``flow.play_move``)."""
        return flow.play_move(table, move, by, self.clock.now(),
                              self.settings.hand_pause_seconds, time.monotonic())

    def _tell_move(self, table: Table, played: Played) -> None:
        """Every socket hears of the move (and of the hand's or the match's end)."""
        self._broadcast_state(table, played.event)
        if not played.hand_over:
            self._drive(table)
            return
        self._broadcast(table, frames.hand_end(table))
        if played.match_over:
            self._broadcast(table, frames.match_end(table))
            for s in table.seats:
                if s.grace_task is not None:
                    s.grace_task.cancel()
                    s.grace_task = None
            self._close_externals(table)
        else:
            self._schedule_next_hand(table)

    def _catch_up(self, table: Table, conn: Conn) -> None:
        """A socket that arrives between hands (a reload, a reconnect) gets the score sheet
        (and the match result) the others saw, so it is back in the same state."""
        game = table.game
        if game is None:
            return
        if game.hand_over:
            conn.send(frames.hand_end(table))
        if table.match_over:  # a resignation may end it mid-hand
            conn.send(frames.match_end(table))

    # -- the flow between hands ---------------------------------------------------------
    def _schedule_next_hand(self, table: Table) -> None:
        if table.next_hand_at is None:
            table.next_hand_at = self.clock.now() + flow.hand_pause(
                table, self.settings.hand_pause_seconds)
        if not self._drives(table):
            return
        sid = table.state_id

        async def later() -> None:
            # the deadline is read on each wake-up: the clock may be a test's fake one
            while table.next_hand_at is not None and table.next_hand_at > self.clock.now():
                await self.clock.sleep(table.next_hand_at - self.clock.now())
            await self._deal_next(table, sid)

        if table.timer is not None:
            table.timer.cancel()
        table.timer = self._spawn(later())

    async def next_vote(self, table: Table, seat: int) -> None:
        """A person pressed Continue: deal when nobody else is still reading the sheet."""
        if not flow.next_vote(table, seat):
            return  # harmless: nothing to wait for
        self._announce(table, "vote", what="next", seat=seat)
        await self._continue_if_ready(table)

    async def _continue_if_ready(self, table: Table) -> None:
        step = flow.after_vote(table)
        if step is Next.WAIT:
            self._broadcast(table, frames.waiting(table))
        elif step is Next.DEAL and self._drives(table):
            await self._deal_next(table, table.state_id)

    async def _deal_next(self, table: Table, sid: int) -> None:
        async with table.lock:
            if not flow.deal_due(table, sid):
                return
            game = table.game
            assert game is not None and table.match_id is not None
            seed = new_seed()
            try:
                await self.store.append(table.match_id, table.seq, "hand",
                                        {"number": game.hand_number + 1, "seed": seed})
            except Conflict:
                if self.cluster is None:
                    raise
                self.cluster.mark(table)
                await self.cluster.sync_locked(table)
                return
            self._advance_deal(table, seed)
            self._announce(table, "log", event={
                "seq": table.seq - 1, "kind": "hand",
                "data": {"number": game.hand_number, "seed": seed}})

    def _advance_deal(self, table: Table, seed: str) -> None:
        """Deal a committed hand and tell every socket (lock held)."""
        event = flow.deal(table, seed)
        if table.timer is not None and table.timer is not asyncio.current_task():
            table.timer.cancel()
        table.timer = None
        self._broadcast_state(table, event)
        self._drive(table)

    async def rematch(self, table: Table, seat: int) -> None:
        async with table.lock:
            if self.cluster is not None:
                await self.cluster.sync_locked(table)
            # checked under the lock: a second vote must not start a second match
            flow.check_rematch(table)
            self._announce(table, "vote", what="rematch", seat=seat)
            await self._rematch_vote(table, seat)

    async def _rematch_vote(self, table: Table, seat: int) -> None:
        vote = flow.rematch_vote(table, seat)
        self._broadcast(table, frames.rematch(vote.votes, vote.needed))
        if vote.start and self._drives(table):
            await self._start_match(table)

    # -- bots ---------------------------------------------------------------------------
    def _drive(self, table: Table) -> None:
        """If a bot (or a stand-in) is to move, let it think (lock held)."""
        seat = flow.bot_to_move(table)
        if seat is None or not self._drives(table):
            return
        if table.bot_task is not None and not table.bot_task.done():
            return
        table.bot_task = self._spawn(self._bot_move(table, seat, table.state_id))

    async def _bot_move(self, table: Table, seat: int, sid: int) -> None:
        started = time.monotonic()
        game = table.game
        if game is None or table.state_id != sid:
            return
        s = table.seats[seat]
        view = game.view(seat)
        by = "bot" if s.kind != "human" else "standin"
        try:
            if s.kind == "external":
                move = await self._external_move(table, s, view)
            else:
                level = s.level if s.kind == "bot" else self.settings.standin_level
                move = await self.pool.choose(
                    level or "random", view, self.settings.bot_seconds, self.rng.getrandbits(32)
                )
        except Exception:
            log.exception("bot at table %s seat %d failed; playing a random move", table.id, seat)
            move = self.rng.choice(view.legal_moves()).to_dict()
        wait = self.settings.bot_delay_seconds - (time.monotonic() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        table.bot_task = None
        try:
            await self.submit(table, seat, sid, move, by)
        except MasterError as e:
            if e.code in ("illegal_move", "bad_message"):
                # a broken bot must not stall the table: play a random legal move instead
                log.warning("bot move refused at %s: %s", table.id, e.message)
                fallback = self.rng.choice(view.legal_moves()).to_dict()
                with contextlib.suppress(MasterError):
                    await self.submit(table, seat, sid, fallback, by)
        async with table.lock:
            self._drive(table)  # e.g. the stand-in's player came back mid-thought

    async def _external_move(self, table: Table, s: SeatState, view: Any) -> dict[str, Any]:
        if s.external is None or not getattr(s.external, "alive", lambda: True)():
            command = self.settings.external_bots.get(s.level or "")
            if not command:
                raise RuntimeError(f"no external bot named {s.level!r} on this server")
            # starting the program waits for its greeting: not on the event loop
            bot = await asyncio.to_thread(external_bot, command, self.settings.external_timeout)
            if bot is None:
                raise RuntimeError("external bots are not available")
            s.external = bot
        move = await asyncio.to_thread(s.external.choose, view, None)
        return Move(move.card, move.capture).to_dict()

    async def teach(self, table: Table, seat: int, state_id: object) -> dict[str, Any]:
        refused = fairplay.teach_refusal(table.teach, table.rated)
        if refused is not None:
            raise MasterError("teach_off", refused)
        game = table.game
        if game is None:
            raise MasterError("not_started", "the match has not started")
        if state_id != table.state_id:
            raise MasterError("stale_state", f"the state changed (now {table.state_id})",
                              table.state_id)
        if game.hand_over or game.to_move != seat or table.match_over:
            raise MasterError("not_your_turn", "analysis is given on your turn",
                              table.state_id)
        key = (table.id, table.state_id, seat)
        analysis = self._analyses.get(key)
        if analysis is None:
            asker = (table.id, seat)
            if asker in self._teaching:  # fairness: one analysis in flight per seat
                raise MasterError("rate_limited", "one analysis at a time: wait for it",
                                  table.state_id)
            self._teaching.add(asker)
            try:
                analysis = await self.pool.analyse(game.view(seat), self.settings.bot_seconds)
            except AnalysisBusy:
                raise MasterError("busy", "the analysis is busy: try again in a moment",
                                  table.state_id) from None
            finally:
                self._teaching.discard(asker)
            if len(self._analyses) > 1000:
                self._analyses.clear()
            self._analyses[key] = analysis
        if analysis is None:
            raise MasterError("unavailable", "move analysis is not available on this server")
        return {"type": "analysis", "state_id": state_id, **analysis}

    # -- the scaled deployment: what other workers did (see cluster.py) ------------------
    def replay_event(self, table: Table, row: Any) -> None:
        """Apply one event another worker committed (an ``EventRow`` read from the log,
        lock held) and tell this worker's sockets, as if it had been made here."""
        if row.seq != table.seq:
            raise ValueError(f"event {row.seq} does not follow {table.seq}")
        if row.kind == "hand":
            self._advance_deal(table, row.data["seed"])
        elif row.kind == "move":
            self._advance_move(table, row.data["seat"], Move.from_dict(move_fields(row.data)),
                               row.data.get("by", "human"))
        elif row.kind == "resign":
            self._advance_resign(table, row.data["seat"])
        else:
            raise ValueError(f"unknown event kind {row.kind!r}")

    def refresh(self, table: Table, stored: StoredTable) -> None:
        """Make ``table`` what the log says, through the one replay (lock held): seats,
        status, match, game. Sockets get the new state if it changed."""
        if not flow.refresh(table, flow.rebuild(stored), time.monotonic()):
            return
        self._broadcast_state(table, None)
        if table.game is not None and table.game.hand_over:
            self._broadcast(table, frames.hand_end(table))
        if table.game is not None and table.match_over:
            self._broadcast(table, frames.match_end(table))
        self._resume(table)
        if flow.full(table) and self._drives(table):
            self._spawn(self._maybe_start(table))

    def _resume(self, table: Table) -> None:
        """Grace timers, the pause between hands and bots (if this worker drives)."""
        if table.game is None or table.match_over or not self._drives(table):
            return
        for s in table.seats:
            if s.kind == "human" and not s.present and s.grace_task is None and not s.standin:
                self._start_grace(table, s)
        if flow.between_hands(table) and table.timer is None:
            self._schedule_next_hand(table)
        self._drive(table)

    async def take_over(self, table: Table) -> None:
        """This worker now holds ``table``'s lease: read the log, then drive it."""
        async with table.lock:
            assert self.cluster is not None
            await self.cluster.sync_locked(table)
            self._resume(table)
            if flow.start_pending(table):
                await self._start_match(table)  # the last join or vote reached a dead worker

    def let_go(self, table: Table) -> None:
        """Another worker drives ``table`` now: stop its bots and timers here."""
        for task in (table.bot_task, table.timer):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        table.bot_task = table.timer = None
        for s in table.seats:
            if s.grace_task is not None:
                s.grace_task.cancel()
                s.grace_task = None

    def presence(self, table: Table, seat: int, worker: str, count: int) -> None:
        """Another worker has ``count`` sockets on ``seat`` now."""
        if not 0 <= seat < len(table.seats):
            return
        s = table.seats[seat]
        if not flow.remote_presence(s, worker, count):
            return
        if s.present:
            if s.grace_task is not None:
                s.grace_task.cancel()
                s.grace_task = None
        elif table.game is not None and not table.match_over:
            self._start_grace(table, s)
        self._broadcast_state(table, {"kind": "seat", "seat": seat})
        if s.present and flow.between_hands(table):
            self._broadcast(table, frames.waiting(table))

    def standin_changed(self, table: Table, seat: int, on: bool) -> None:
        """The driving worker let a stand-in play ``seat`` (or its player came back)."""
        if flow.set_standin(table, seat, on):
            self._broadcast_state(table, {"kind": "seat", "seat": seat})

    async def vote_from(self, table: Table, what: str, seat: int) -> None:
        """A Continue or rematch vote made at another worker."""
        if what == "next":
            if flow.next_vote(table, seat):
                await self._continue_if_ready(table)
        elif what == "rematch":
            async with table.lock:
                if table.match_over:
                    await self._rematch_vote(table, seat)

    # -- sending ------------------------------------------------------------------------
    def _broadcast_state(self, table: Table, event: dict[str, Any] | None) -> None:
        """Every socket gets its own ``state`` frame (``frames.states``)."""
        for conns, text in frames.states(table, event):
            for c in list(conns):
                c.send(text)

    def _broadcast(self, table: Table, text: str) -> None:
        for s in table.seats:
            for c in list(s.conns):
                c.send(text)
        for c in list(table.spectators):
            c.send(text)

    # -- housekeeping -------------------------------------------------------------------
    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed", exc_info=task.exception())

    def _close_externals(self, table: Table) -> None:
        for s in table.seats:
            if s.external is not None:
                with contextlib.suppress(Exception):
                    s.external.close()
                s.external = None

    async def shutdown(self) -> None:
        for table in self.tables.values():
            self._close_externals(table)
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._tasks, return_exceptions=True)

