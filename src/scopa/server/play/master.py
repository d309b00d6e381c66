"""The authoritative match master: one object that puts the play side's rooms together
and is what the hub, the lobby, the chat and the cluster talk to.

Each room has one job: ``registry.Tables`` (the live tables: made, found, restored,
expired), ``seating.Seating`` (joins, sockets, grace, presence), ``match.Matches`` (deals,
moves, resignations, votes; every step committed to the log before anyone is told),
``botseats.BotSeats`` (bots and stand-ins thinking in the pool), ``teach.Teacher`` (the
move analysis), ``tokens.Tokens`` (who may sit and watch). What to decide is asked of
``flow`` (pure, tested without an event loop), what to send is built by ``frames``.

One worker or many is the cluster's business (``workers.Workers``: ``LocalCluster`` alone,
``cluster.Cluster`` among several); nothing here asks which.
"""

from __future__ import annotations

import random
from typing import Any

from ..common.clock import Clock
from ..common.settings import Settings
from ..store.database import Store, StoredTable
from . import flow, frames
from .botpool import BotPool
from .botseats import BotSeats
from .match import MatchEndHook, Matches
from .registry import Tables
from .seating import Seating
from .send import close_externals
from .spec import TableSpec
from .table import Conn, Table
from .tasks import Tasks
from .teach import Teacher
from .tokens import Tokens
from .workers import LocalCluster, Workers


class Master:
    """Every live table of this worker, and the waiting, locking and storing around
    changing them (a ``workers.Host`` for the cluster)."""

    def __init__(
        self, settings: Settings, store: Store, pool: BotPool, secret: str,
        clock: Clock | None = None, cluster: Workers | None = None,
    ) -> None:
        self.settings = settings
        #: wall time and waiting (the pause between hands, the grace): a fake in tests
        self.clock = clock or Clock()
        self.store = store
        self.pool = pool
        self.cluster: Workers = cluster or LocalCluster()
        self.rng = random.Random()
        self.tasks = Tasks()
        self.tokens = Tokens(secret)
        self.registry = Tables(settings, store, self.cluster, self.tokens, self.tasks, self.rng)
        self.matches = Matches(settings, store, self.cluster, self.clock, self.tasks,
                               drive=lambda table: self.bots.drive(table),
                               start_grace=lambda table, s: self.seating.start_grace(table, s))
        self.seating = Seating(self.registry, store, self.cluster, self.tokens, self.clock,
                               self.tasks, self.matches.maybe_start, self.matches.stood_in)
        self.bots = BotSeats(settings, pool, self.cluster, self.tasks, self.rng,
                             self.matches.submit)
        self.teacher = Teacher(settings, pool)
        self.cluster.serve(self)

    # -- the registry --------------------------------------------------------------------
    @property
    def tables(self) -> dict[str, Table]:
        return self.registry.by_id

    @property
    def by_invite(self) -> dict[str, Table]:
        return self.registry.by_invite

    @property
    def match_end_hooks(self) -> list[MatchEndHook]:
        return self.matches.match_end_hooks

    async def find(self, table_id: str) -> Table | None:
        return await self.registry.find(table_id)

    async def find_invite(self, invite: str) -> Table | None:
        return await self.registry.find_invite(invite)

    async def create_table(self, spec: TableSpec) -> tuple[Table, int | None, str | None]:
        """Create a table (``Tables.create``) and start it if it is full already; the
        creator's seat and its token, if any."""
        table, token = await self.registry.create(spec)
        await self.matches.maybe_start(table)
        return table, spec.creator_seat, token

    async def sweep(self) -> None:
        await self.registry.sweep()

    async def restore(self) -> int:
        return await self.registry.restore()

    def start_housekeeping(self) -> None:
        self.tasks.spawn(self.registry.housekeeping())

    # -- accounts (players.live.LiveTables) ----------------------------------------------
    def token_hash(self, token: str) -> str:
        return self.tokens.hash(token)

    def seat_account(self, table_id: str, seat: int, user_id: int) -> None:
        self.registry.seat_account(table_id, seat, user_id)

    def forget_account(self, user_id: int, name: str) -> None:
        self.registry.forget_account(user_id, name)

    def online_accounts(self) -> set[int]:
        return self.registry.online_accounts()

    # -- people and sockets --------------------------------------------------------------
    def authenticate(self, table: Table, token: object) -> int | None:
        return self.tokens.authenticate(table, token)

    def may_watch(self, table: Table, invite: object) -> bool:
        return self.tokens.may_watch(table, invite)

    async def join(self, invite: str, name: str, seat: int | None,
                   user_id: int | None = None,
                   token: str | None = None, bot: bool = False) -> tuple[Table, int, str]:
        return await self.seating.join(invite, name, seat, user_id, token, bot)

    async def attach(self, table: Table, conn: Conn) -> None:
        await self.seating.attach(table, conn)

    def detach(self, table: Table, conn: Conn) -> None:
        self.seating.detach(table, conn)

    def stand_in_now(self, table: Table, seat: int) -> None:
        """An online bot let its time for a move run out: a stand-in plays its seat from
        now (as for a person away past the grace; its connection was detached first)."""
        s = table.seats[seat]
        if not s.present and flow.grace_due(table, s):
            self.seating.start_grace(table, s, grace=0.0)

    async def decline(self, table: Table, message: str) -> None:
        """The bot challenged at this waiting table declined: the table closes, its
        people told why."""
        await self.registry.expire(table, frames.declined(message))

    # -- play ----------------------------------------------------------------------------
    async def submit(self, table: Table, seat: int, state_id: object, move_data: object,
                     by: str = "human") -> None:
        await self.matches.submit(table, seat, state_id, move_data, by)

    async def resign(self, table: Table, seat: int) -> None:
        await self.matches.resign(table, seat)

    async def next_vote(self, table: Table, seat: int) -> None:
        await self.matches.next_vote(table, seat)

    async def rematch(self, table: Table, seat: int) -> None:
        await self.matches.rematch(table, seat)

    async def teach(self, table: Table, seat: int, state_id: object) -> dict[str, Any]:
        return await self.teacher.teach(table, seat, state_id)

    # -- the other workers' news (workers.Host) ------------------------------------------
    def resume(self, table: Table) -> None:
        self.matches.resume(table)

    async def take_over(self, table: Table) -> None:
        await self.matches.take_over(table)

    def let_go(self, table: Table) -> None:
        self.matches.let_go(table)

    def replay_event(self, table: Table, row: Any) -> None:
        self.matches.replay_event(table, row)

    def refresh(self, table: Table, stored: StoredTable) -> None:
        self.matches.refresh(table, stored)

    def presence(self, table: Table, seat: int, worker: str, count: int) -> None:
        self.seating.presence(table, seat, worker, count)

    def standin_changed(self, table: Table, seat: int, on: bool) -> None:
        self.seating.standin_changed(table, seat, on)

    async def vote_from(self, table: Table, what: str, seat: int) -> None:
        await self.matches.vote_from(table, what, seat)

    # -- life ----------------------------------------------------------------------------
    async def shutdown(self) -> None:
        for table in self.tables.values():
            close_externals(table)
        await self.tasks.cancel_all()
