"""Every live table of this worker: made, found (from memory or, from another worker, the
log), restored after a restart, closed when it waited too long for players, forgotten
when finished and unwatched. Nothing here plays: the match side (``match``) deals and
moves."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from datetime import UTC, datetime, timedelta

from ..common.settings import Settings
from ..store.database import Store, StoredTable
from ..store.models import SeatRow, TableRow
from . import fairplay, flow, frames
from .send import broadcast_state, close_externals
from .spec import TableSpec
from .table import Table
from .tasks import Tasks
from .tokens import Tokens, new_id, new_token
from .workers import Workers

log = logging.getLogger("scopa.server")


class Tables:
    """The registry: tables by id and by invite code."""

    def __init__(self, settings: Settings, store: Store, cluster: Workers, tokens: Tokens,
                 tasks: Tasks, rng: random.Random) -> None:
        self.settings = settings
        self.store = store
        self.cluster = cluster
        self.tokens = tokens
        self.tasks = tasks
        self.rng = rng
        self.by_id: dict[str, Table] = {}
        self.by_invite: dict[str, Table] = {}

    async def find(self, table_id: str) -> Table | None:
        """A table by id: from memory, or (scaled) loaded from the log another worker
        wrote."""
        table = self.by_id.get(table_id)
        if table is not None:
            return table
        return self._adopt(await self.cluster.stored(table_id=table_id))

    async def find_invite(self, invite: str) -> Table | None:
        table = self.by_invite.get(invite)
        if table is not None:
            return table
        return self._adopt(await self.cluster.stored(invite=invite))

    def _adopt(self, stored: StoredTable | None) -> Table | None:
        if stored is None:
            return None
        known = self.by_id.get(stored.table.id)
        if known is not None:  # loaded meanwhile
            return known
        try:
            table = flow.rebuild(stored)
        except Exception:
            log.exception("could not load table %s", stored.table.id)
            return None
        self._keep(table)
        self.cluster.watch(table)
        return table

    def _keep(self, table: Table) -> None:
        self.by_id[table.id] = table
        self.by_invite[table.invite] = table

    async def create(self, spec: TableSpec) -> tuple[Table, str | None]:
        """Make and store a table (not yet started); the creator's seat token, if any.
        Refused when the server holds ``max_live_tables`` live tables (``busy``) or the
        maker's address already has ``max_waiting_per_address`` tables waiting
        (``too_many``). An event's table is kept by the event's own row of it, not here."""
        await self.sweep()
        flow.check_room(self.by_id.values(), spec.address, self.settings.max_live_tables,
                        self.settings.max_waiting_per_address)
        table_id = new_id(10)
        invite = new_id(16)
        states = flow.new_seats(spec.seats, spec.creator, spec.creator_seat, self.rng)
        token = None
        if spec.creator_seat is not None:
            token = new_token()
            states[spec.creator_seat].token_hash = self.tokens.hash(token)
            states[spec.creator_seat].user_id = spec.creator_user
        table = Table(
            id=table_id, invite=invite, public=spec.public, rules=spec.rules,
            grace=spec.grace, created_at=datetime.now(UTC), seats=states,
            creator_address=spec.address, rated=spec.rated, seeds=list(spec.seeds),
            deals=spec.deals, event_id=spec.event_id, shared_deals=spec.shared_deals,
        )
        table.teach = fairplay.table_teach(spec.teach, spec.rated)
        await self.store.create_table(
            TableRow(
                id=table_id, invite=invite, public=spec.public, rules=spec.rules.to_dict(),
                grace_seconds=spec.grace, created_at=table.created_at, status="waiting",
                rated=spec.rated, teach=table.teach, seeds=table.seeds or None,
                deals=spec.deals,
            ),
            [
                SeatRow(table_id=table_id, seat=s.seat, kind=s.kind, level=s.level, name=s.name,
                        token_hash=s.token_hash, user_id=s.user_id,
                        bot_account=s.bot_account)
                for s in states
            ],
        )
        self._keep(table)
        await self.cluster.claim(table)
        return table, token

    # -- closing and forgetting ----------------------------------------------------------
    async def sweep(self) -> None:
        """Forget finished tables nobody has watched for a while (they stay in history),
        and close tables that waited for players longer than ``waiting_table_minutes``."""
        keep = self.settings.finished_keep_seconds
        now = time.monotonic()
        cutoff = self.waiting_cutoff()
        for table in list(self.by_id.values()):
            if flow.forgettable(table, now, keep):
                self.forget(table)
            elif flow.expired(table, cutoff):
                await self.expire(table)

    def waiting_cutoff(self) -> datetime:
        """Tables made before this and still waiting for players have expired."""
        return datetime.now(UTC) - timedelta(minutes=self.settings.waiting_table_minutes)

    async def expire(self, table: Table, told: str = frames.EXPIRED) -> None:
        """Close a table that waited too long (or whose challenged bot declined): stored
        as ``expired`` (never reloaded), its invite stops working, and its sockets are told
        (``told``) and closed. Under the table lock, so a join or a start in progress
        finishes first (and then the table is not expired)."""
        async with table.lock:
            if not flow.closable(table):
                return  # started, or full and about to start
            await self.store.set_status(table.id, "expired")  # committed first
            table.status = "expired"
        for conn in [*table.spectators, *(c for s in table.seats for c in s.conns)]:
            conn.send(told)
            conn.close_after_queue(4004, "table expired")
        self.forget(table)

    def forget(self, table: Table) -> None:
        self.cluster.unwatch(table.id)
        close_externals(table)
        self.by_id.pop(table.id, None)
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

    # -- after a restart -----------------------------------------------------------------
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
            self._keep(table)
            count += 1
        return count

    # -- accounts ------------------------------------------------------------------------
    def seat_account(self, table_id: str, seat: int, user_id: int) -> None:
        """A guest's seat at a live table became an account's (already stored)."""
        table = self.by_id.get(table_id)
        if table is not None and 0 <= seat < len(table.seats):
            table.seats[seat].user_id = user_id

    def forget_account(self, user_id: int, name: str) -> None:
        """An account was deleted: its live seats play on as guests' seats, shown under
        ``name`` (as the store now shows them) to everyone at the table."""
        for table in self.by_id.values():
            for s in table.seats:
                if s.user_id == user_id:
                    s.user_id = None
                    s.name = name
                    broadcast_state(table, {"kind": "seat", "seat": s.seat})

    def online_accounts(self) -> set[int]:
        """Accounts with a seat connected now, at this worker or (scaled deployment) at
        any other: every worker follows every live table's presence announcements."""
        return {s.user_id for t in self.by_id.values() for s in t.seats
                if s.user_id is not None and s.present}
