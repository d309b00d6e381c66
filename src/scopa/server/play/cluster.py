"""One worker among several on one database and one broker (the scaled deployment).

The event log in the database is the truth; this module keeps a worker's in-memory copy of
each table close to it and decides which worker drives a table:

- **Fan-out.** After a worker commits an event it announces ``{kind, m, seq, origin}`` on
  the broker. Every other worker subscribed to the table marks its copy stale and, if it
  has sockets there (or drives the table), applies the announced event if it is the next
  step of its copy (it was committed before it was announced), else re-reads the log from
  its own ``seq``, and sends each socket its seat's view. Missed announcements cost
  nothing but a later re-read: attaching a socket, submitting a move and taking a lease
  all catch up from the log first, and a broker that reconnects tells every subscription
  to re-read it (``RESYNC``).
- **Leases.** One worker holds each table's lease (renewed by heartbeat at a third of its
  time to live); only it runs the table's bots, grace timers and the pause between hands.
  When it dies the lease runs out and another worker takes it, re-reads the log and resumes.
- **Presence.** Which seats have a socket somewhere: each worker announces its own count
  per seat, again after its broker reconnects; a new lease holder asks for a roll call (a
  dead worker does not answer), so a stand-in never takes a seat whose player is here.

The per-table write guard itself is the database's unique ``(match_id, seq)``
(``store.Conflict``); see ``match.Matches.commit``. The cluster knows the worker's tables
only as a ``workers.Host`` (it never imports the master), and offers the master the same
interface as the cluster of one (``workers.LocalCluster``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from types import SimpleNamespace
from typing import Any

from ..common.timing import PHASES
from ..store.broker import Broker, Event
from ..store.database import Store, StoredTable
from .table import Table
from .workers import Handler, Host

log = logging.getLogger("scopa.server")

#: tables taken over at once after a heartbeat (each reads its log)
LEASE_BATCH = 64

#: announcements published in one round trip at most
PUBLISH_MAX = 500


class Cluster:
    """This worker's part in a deployment of several."""

    def __init__(self, broker: Broker, store: Store, worker: str, lease_seconds: float) -> None:
        self._host: Host | None = None
        self.broker = broker
        self.store = store
        self.worker = worker
        self.ttl = lease_seconds
        #: table id -> monotonic time our lease runs out (counted from before the request)
        self._held: dict[str, float] = {}
        self._listeners: dict[str, asyncio.Task[None]] = {}
        #: tables whose copy may be behind the log; those needing a full reload
        self._stale: set[str] = set()
        self._full: set[str] = set()
        #: (table id, event, perf_counter time queued)
        self._out: asyncio.Queue[tuple[str, Event, float]] = asyncio.Queue()
        self._tasks: set[asyncio.Task[Any]] = set()
        #: kind -> handlers of announcements other modules make (chat); they hear every
        #: worker's, this one's too, and ``resync``
        self._handlers: dict[str, list[Handler]] = {}

    def serve(self, host: Host) -> None:
        self._host = host

    @property
    def host(self) -> Host:
        assert self._host is not None, "serve() first"
        return self._host

    def on(self, kind: str, handler: Handler) -> None:
        """Hand ``kind`` announcements of every worker (this one too: the broker's order is
        the one order all workers see) and ``resync`` to ``handler``."""
        self._handlers.setdefault(kind, []).append(handler)

    # -- leases -------------------------------------------------------------------------
    def holds(self, table: Table) -> bool:
        """Whether this worker drives ``table`` now."""
        deadline = self._held.get(table.id)
        return deadline is not None and deadline > time.monotonic()

    async def claim(self, table: Table) -> None:
        """Try to take the lease of a table this worker just made (so it drives it)."""
        self.watch(table)
        with contextlib.suppress(Exception):
            await self._lease(table)

    async def _heartbeat(self) -> None:
        while True:
            try:
                await self.keep_leases()
            except Exception as e:  # the broker is away: held leases run out meanwhile
                log.warning("lease heartbeat: %s", e)
            await asyncio.sleep(self.ttl / 3)

    async def keep_leases(self) -> None:
        """One heartbeat: renew every lease held and try to take every other table's, in
        one broker call (``Broker.keep``); then take over the tables gained."""
        now = time.monotonic()
        renew: list[Table] = []
        acquire: list[Table] = []
        for table in list(self.host.tables.values()):
            if table.id in self._held and not self.holds(table):
                self._lose(table)  # ran out (e.g. the broker was away): stop driving
            if table.status != "expired":
                (renew if table.id in self._held else acquire).append(table)
        with PHASES.timed("broker.keep"):  # one round trip for every lease
            renewed, acquired = await self.broker.keep(
                self.worker, self.ttl, [t.id for t in renew], [t.id for t in acquire])
        for table in renew:
            if table.id in renewed:
                if table.id in self._held:  # not let go meanwhile
                    self._held[table.id] = now + self.ttl
            elif table.id in self._held:
                self._lose(table)
        gained = [t for t in acquire if t.id in acquired and t.id not in self._held
                  and self.host.tables.get(t.id) is t]
        for table in gained:
            self._held[table.id] = now + self.ttl
        for i in range(0, len(gained), LEASE_BATCH):
            done = await asyncio.gather(*(self._gain(t) for t in gained[i:i + LEASE_BATCH]),
                                        return_exceptions=True)
            for d in done:
                if isinstance(d, Exception):
                    log.warning("taking over a table: %s", d)

    async def _lease(self, table: Table) -> None:
        if table.id in self._held and not self.holds(table):
            self._lose(table)  # ran out (e.g. the broker was away): stop driving
        if table.status == "expired":
            return
        now = time.monotonic()
        if table.id in self._held:
            if await self.broker.renew(table.id, self.worker, self.ttl):
                self._held[table.id] = now + self.ttl
            else:
                self._lose(table)
            return
        if await self.broker.acquire(table.id, self.worker, self.ttl):
            self._held[table.id] = now + self.ttl
            await self._gain(table)

    async def _gain(self, table: Table) -> None:
        log.info("worker %s drives table %s", self.worker, table.id)
        PHASES.count("lease.gained")
        self.mark(table, full=True)
        for s in table.seats:
            s.remote.clear()  # asked again below: a dead worker's sockets do not answer
        self.announce(table, "roll_call")
        await self.host.take_over(table)

    def _lose(self, table: Table) -> None:
        self._held.pop(table.id, None)
        log.info("worker %s no longer drives table %s", self.worker, table.id)
        PHASES.count("lease.lost")
        self.host.let_go(table)

    # -- announcements ------------------------------------------------------------------
    def announce(self, table: Table, kind: str, **data: Any) -> None:
        """Tell the other workers (in order, without waiting for the broker)."""
        # "t": wall time announced, so a listener can time the hop (same machine)
        event = {"kind": kind, "origin": self.worker, "m": table.match_number,
                 "seq": table.seq, "t": time.time(), **data}
        self._out.put_nowait((table.id, event, time.perf_counter()))

    def announce_presence(self, table: Table, seat: int) -> None:
        self.announce(table, "presence", seat=seat, n=len(table.seats[seat].conns))

    async def tell(self, table: Table, kind: str, **data: Any) -> None:
        """Publish at once and wait for the broker (raises when it is away)."""
        await self.broker.publish(table.id, {"kind": kind, "origin": self.worker, **data})

    async def count(self, table: Table, name: str) -> int:
        return await self.broker.count(f"{name}:{table.id}")

    async def stored(self, table_id: str | None = None,
                     invite: str | None = None) -> StoredTable | None:
        """A table another worker made, as the log has it."""
        if invite is not None:
            return await self.store.load_table(invite=invite)
        return await self.store.load_table(table_id)

    async def _publisher(self) -> None:
        """Publish the announcements in order: all those queued meanwhile in one round trip
        (one per announcement fell behind a busy worker's moves by seconds)."""
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < PUBLISH_MAX:
                batch.append(self._out.get_nowait())
            start = time.perf_counter()
            for _, _, queued in batch:
                PHASES.record("broker.out_queue", start - queued)
            try:
                await self.broker.publish_many([(t, e) for t, e, _ in batch])
                PHASES.record("broker.publish", time.perf_counter() - start)
            except Exception as e:  # the others re-read the log once the broker is back
                log.warning("publishing %d announcements failed: %s", len(batch), e)

    # -- listening ----------------------------------------------------------------------
    def watch(self, table: Table) -> None:
        """Follow ``table``'s announcements (once per table)."""
        if table.id not in self._listeners:
            self._listeners[table.id] = self._spawn(self._listen(table))

    def unwatch(self, table_id: str) -> None:
        task = self._listeners.pop(table_id, None)
        if task is not None:
            task.cancel()
        self._held.pop(table_id, None)
        self._stale.discard(table_id)
        self._full.discard(table_id)

    async def _listen(self, table: Table) -> None:
        while True:
            try:
                async with self.broker.subscribe(table.id) as sub:
                    # whatever happened before the subscription: read from the log
                    await self._on_event(table, {"kind": "resync"})
                    while True:
                        await self._on_event(table, await sub.get())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("following table %s failed; again", table.id)
                await asyncio.sleep(0.5)

    async def _on_event(self, table: Table, event: Event) -> None:
        kind = event.get("kind")
        for handler in self._handlers.get(str(kind), ()):
            try:
                await handler(table, event)
            except Exception:
                log.exception("handling %s of table %s failed", kind, table.id)
        if event.get("origin") == self.worker:
            return
        host = self.host
        start = time.perf_counter()
        if kind == "log" and isinstance(event.get("t"), float):
            PHASES.record("cluster.hop", time.time() - event["t"])  # announced -> here
        if kind in ("log", "resync", "seats", "match"):
            if kind == "log" and event["m"] == table.match_number and event["seq"] <= table.seq:
                return  # already read
            if kind == "log" and await self._next_step(table, event):
                PHASES.record("cluster.apply", time.perf_counter() - start)
                return
            if kind == "resync":  # announcements may have been lost: ours too
                self._roll_call(table)
            self.mark(table, full=kind != "log" or event["m"] != table.match_number)
            if self.holds(table) or table.spectators or any(s.conns for s in table.seats):
                await self.sync(table)
        elif kind == "presence":
            host.presence(table, int(event["seat"]), str(event["origin"]), int(event["n"]))
        elif kind == "standin":
            host.standin_changed(table, int(event["seat"]), bool(event["on"]))
        elif kind == "vote":
            await host.vote_from(table, str(event["what"]), int(event["seat"]))
        elif kind == "roll_call":
            self._roll_call(table)

    def _roll_call(self, table: Table) -> None:
        """Say again which seats have sockets here (the driver may not know)."""
        for s in table.seats:
            if s.conns:
                self.announce_presence(table, s.seat)

    # -- catching up --------------------------------------------------------------------
    async def _next_step(self, table: Table, event: Event) -> bool:
        """Apply an announced event that is exactly the next step of an up-to-date copy
        (committed before it was announced: no need to read it back); False when the copy
        must be caught up from the log instead."""
        step = event.get("event")
        if not isinstance(step, dict):
            return False
        async with table.lock:
            if (table.id in self._stale or event["m"] != table.match_number
                    or step.get("seq") != table.seq):
                return False
            try:
                self.host.replay_event(table, SimpleNamespace(**step))
            except Exception:
                log.exception("announced event of table %s does not apply", table.id)
                self.mark(table, full=True)
                return False
        return True

    def mark(self, table: Table, full: bool = False) -> None:
        """``table``'s copy may be behind the log (``full``: a new match or new seats)."""
        self._stale.add(table.id)
        if full:
            self._full.add(table.id)

    async def reread(self, table: Table, full: bool, error: Exception) -> None:
        """Another worker wrote the step this one tried (``error``): read the log."""
        self.mark(table, full=full)
        await self.sync_locked(table)

    async def sync(self, table: Table) -> None:
        async with table.lock:
            await self.sync_locked(table)

    async def sync_locked(self, table: Table) -> None:
        """Bring a stale copy up to the log (table lock held): the new events one by one
        (each socket sees each step), or the whole table through the one replay."""
        if table.id not in self._stale:
            return
        self._stale.discard(table.id)
        full = table.id in self._full or table.match_id is None
        self._full.discard(table.id)
        store = self.store
        if not full and table.match_id is not None:
            try:
                for row in await store.events(table.match_id, table.seq):
                    self.host.replay_event(table, row)
            except Exception:
                log.exception("catching up table %s failed: reloading it", table.id)
                full = True
        if full:
            stored = await store.load_table(table.id)
            if stored is not None:
                self.host.refresh(table, stored)

    async def _adopt(self) -> None:
        """Load live tables another worker made, so that someone takes them over when
        their worker dies even if nobody here has a socket on them."""
        while True:
            await asyncio.sleep(self.ttl)
            try:
                for table_id in await self.store.live_table_ids():
                    if table_id not in self.host.tables:
                        await self.host.find(table_id)
            except Exception as e:
                log.warning("looking for new tables failed: %s", e)

    # -- life ---------------------------------------------------------------------------
    def start(self) -> None:
        for table in list(self.host.tables.values()):
            self.watch(table)
        self._spawn(self._publisher())
        self._spawn(self._heartbeat())
        self._spawn(self._adopt())

    async def stop(self) -> None:
        """Give the leases back (another worker takes over at once) and stop."""
        for table_id in list(self._held):
            with contextlib.suppress(Exception):
                await self.broker.release(table_id, self.worker)
        self._held.clear()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self._tasks, return_exceptions=True)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task
