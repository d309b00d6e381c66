"""People at a table: joining a seat, sockets coming and going, the grace period after
the last socket of a seat closes (then a stand-in bot plays the seat), and other workers'
sockets on the table's seats (presence)."""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

from ..common.clock import Clock
from ..common.refusal import Refusal
from ..store.database import Conflict, Store
from . import flow, frames
from .registry import Tables
from .send import broadcast, broadcast_state, cancel_grace, catch_up
from .table import Conn, SeatState, Table
from .tasks import Tasks
from .tokens import Tokens, new_token
from .workers import Workers

log = logging.getLogger("scopa.server")


class Seating:
    def __init__(self, tables: Tables, store: Store, cluster: Workers, tokens: Tokens,
                 clock: Clock, tasks: Tasks,
                 maybe_start: Callable[[Table], Awaitable[None]],
                 stood_in: Callable[[Table], Awaitable[None]]) -> None:
        self.tables = tables
        self.store = store
        self.cluster = cluster
        self.tokens = tokens
        self.clock = clock
        self.tasks = tasks
        #: the match side: start a full table; a stand-in took a seat (drive, deal)
        self._maybe_start = maybe_start
        self._stood_in = stood_in

    async def join(self, invite: str, name: str, seat: int | None,
                   user_id: int | None = None,
                   token: str | None = None, bot: bool = False) -> tuple[Table, int, str]:
        """Take a free seat; its token (``token``: one the caller derived, a tournament
        table's seat, else a new one). ``bot``: a bot account takes a seat kept for it."""
        table = await self.tables.find_invite(invite)
        if table is not None and flow.expired(table, self.tables.waiting_cutoff()):
            await self.tables.expire(table)
            table = None
        if table is None:
            raise Refusal("not_found", "no table has this invite code")
        async with table.lock:
            if table.status == "expired":  # expired while this join waited for the lock
                raise Refusal("not_found", "no table has this invite code")
            # a seat taken at another worker is not free
            self.cluster.mark(table, full=True)
            await self.cluster.sync_locked(table)
            target, name = flow.choose_seat(table, name, seat, user_id, bot)
            token = token or new_token()
            h = self.tokens.hash(token)
            try:
                await self.store.take_seat(table.id, target.seat, name, h, user_id)
            except Conflict:  # another worker's join took it first
                raise Refusal("conflict", f"seat {target.seat} was just taken") from None
            target.name, target.token_hash, target.user_id = name, h, user_id
        self.cluster.announce(table, "seats")
        broadcast_state(table, {"kind": "seat", "seat": target.seat})
        await self._maybe_start(table)
        return table, target.seat, token

    # -- sockets -------------------------------------------------------------------------
    async def attach(self, table: Table, conn: Conn) -> None:
        """Add a socket under the table's lock: a move between its commit (awaited) and its
        announcement lands first, so the socket's first state is the one after it, and a
        stand-in's move already being written is not decided for a player already back."""
        async with table.lock:
            self.cluster.mark(table)  # another worker may have moved meanwhile
            await self.cluster.sync_locked(table)
            self._attach_now(table, conn)
            if conn.seat is not None:
                self.cluster.announce_presence(table, conn.seat)

    def _attach_now(self, table: Table, conn: Conn) -> None:
        seat = conn.seat
        if seat is None:
            table.spectators.add(conn)
            conn.send(frames.welcome(table, None, self.clock.now()))
            conn.send(json.dumps(frames.state(table, None, None)))
            catch_up(table, conn)
            return
        s = table.seats[seat]
        s.conns.add(conn)
        conn.send(frames.welcome(table, seat, self.clock.now()))
        cancel_grace(s)
        was_standin = flow.seat_back(s)
        if len(s.conns) == 1 or was_standin:
            broadcast_state(table, {"kind": "seat", "seat": seat})
        else:
            conn.send(json.dumps(frames.state(table, seat, None)))
        catch_up(table, conn)
        if was_standin and flow.between_hands(table):
            broadcast(table, frames.waiting(table))  # back: waited for again

    def detach(self, table: Table, conn: Conn) -> None:
        if conn.seat is None:
            table.spectators.discard(conn)
            return
        s = table.seats[conn.seat]
        s.conns.discard(conn)
        self.cluster.announce_presence(table, s.seat)
        if not s.conns:
            if flow.grace_due(table, s):
                self.start_grace(table, s)
            broadcast_state(table, {"kind": "seat", "seat": s.seat})

    def start_grace(self, table: Table, s: SeatState, grace: float | None = None) -> None:
        """The seat's player is away: after the table's grace (or ``grace``: 0 for an
        online bot that let its time run out) a stand-in plays the seat (only the worker
        that drives the table keeps the time)."""
        cancel_grace(s)
        if not self.cluster.holds(table):
            return
        wait = table.grace if grace is None else grace

        async def stand_in() -> None:
            await self.clock.sleep(wait)
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
            self.cluster.announce(table, "standin", seat=s.seat, on=True)
            broadcast_state(table, {"kind": "seat", "seat": s.seat})
            await self._stood_in(table)

        s.grace_task = self.tasks.spawn(stand_in())

    # -- other workers' sockets ----------------------------------------------------------
    def presence(self, table: Table, seat: int, worker: str, count: int) -> None:
        """Another worker has ``count`` sockets on ``seat`` now."""
        if not 0 <= seat < len(table.seats):
            return
        s = table.seats[seat]
        if not flow.remote_presence(s, worker, count):
            return
        if s.present:
            cancel_grace(s)
        elif table.game is not None and not table.match_over:
            self.start_grace(table, s)
        broadcast_state(table, {"kind": "seat", "seat": seat})
        if s.present and flow.between_hands(table):
            broadcast(table, frames.waiting(table))

    def standin_changed(self, table: Table, seat: int, on: bool) -> None:
        """The driving worker let a stand-in play ``seat`` (or its player came back)."""
        if flow.set_standin(table, seat, on):
            broadcast_state(table, {"kind": "seat", "seat": seat})
