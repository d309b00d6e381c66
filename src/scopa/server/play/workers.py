"""One worker or many, behind one interface: what the master asks of "the other workers"
(``Workers``), what the other workers' news asks of the master (``Host``), and the cluster
of one (``LocalCluster``) that the embedded server runs, as ``LocalBroker`` is the broker
of one. The master never asks which it has: with one worker every table is held here, no
announcement has a listener but this process, the log has no writer but this one (a
conflict on it is a bug and raises), and there is nothing to re-read.

``cluster.Cluster`` is the many-workers side; both depend on ``Host``, never on the
master's class, so neither imports the other."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Protocol

from ..store.broker import Event
from ..store.database import StoredTable
from .table import Table

#: another module's part of a table's announcements (e.g. chat)
Handler = Callable[[Table, Event], Awaitable[None]]


class Host(Protocol):
    """The worker's tables, as the other workers' news changes them (``Master``)."""

    @property
    def tables(self) -> Mapping[str, Table]: ...

    async def find(self, table_id: str) -> Table | None:
        """A table by id, loaded from the log if this worker does not have it yet."""
        ...

    def resume(self, table: Table) -> None:
        """Restart what waits at a table this worker drives: grace timers, the pause
        between hands, bots (lock held, or before serving)."""
        ...

    async def take_over(self, table: Table) -> None:
        """This worker now drives ``table``: read the log, then drive it."""
        ...

    def let_go(self, table: Table) -> None:
        """Another worker drives ``table`` now: stop its bots and timers here."""
        ...

    def replay_event(self, table: Table, row: Any) -> None:
        """Apply one event another worker committed (lock held)."""
        ...

    def refresh(self, table: Table, stored: StoredTable) -> None:
        """Make ``table`` what the log says (lock held)."""
        ...

    def presence(self, table: Table, seat: int, worker: str, count: int) -> None:
        """Another worker has ``count`` sockets on ``seat`` now."""
        ...

    def standin_changed(self, table: Table, seat: int, on: bool) -> None:
        """The driving worker let a stand-in play ``seat`` (or its player came back)."""
        ...

    async def vote_from(self, table: Table, what: str, seat: int) -> None:
        """A Continue or rematch vote made at another worker."""
        ...


class Workers(Protocol):
    """The other workers, as the master and the chat see them (``Cluster`` or
    ``LocalCluster``)."""

    def serve(self, host: Host) -> None:
        """Bind the worker's tables (the master calls it once, constructing itself)."""
        ...

    def holds(self, table: Table) -> bool:
        """Whether this worker drives ``table`` (its bots, timers and grace)."""
        ...

    async def claim(self, table: Table) -> None:
        """A table made here: follow it and try to drive it."""
        ...

    async def stored(self, table_id: str | None = None,
                     invite: str | None = None) -> StoredTable | None:
        """A table this worker does not hold, as the log has it (another worker made it)."""
        ...

    def watch(self, table: Table) -> None: ...

    def unwatch(self, table_id: str) -> None: ...

    def announce(self, table: Table, kind: str, **data: Any) -> None:
        """Tell the other workers, in order, without waiting."""
        ...

    def announce_presence(self, table: Table, seat: int) -> None: ...

    async def tell(self, table: Table, kind: str, **data: Any) -> None:
        """Tell every worker (this one too, through ``on``'s handlers) and wait."""
        ...

    def on(self, kind: str, handler: Handler) -> None:
        """Hand every worker's ``kind`` announcements (and ``resync``) to ``handler``."""
        ...

    async def count(self, table: Table, name: str) -> int:
        """The next number (1, 2, ...) of ``table``'s counter ``name``, shared by every
        worker (forgotten with the table)."""
        ...

    def mark(self, table: Table, full: bool = False) -> None:
        """``table``'s copy may be behind the log."""
        ...

    async def sync_locked(self, table: Table) -> None:
        """Bring a copy marked stale up to the log (table lock held)."""
        ...

    async def reread(self, table: Table, full: bool, error: Exception) -> None:
        """Another writer took the step this worker tried to write (``error``, a
        ``store.Conflict``): read the log (lock held)."""
        ...

    def start(self) -> None:
        """Start driving: after the tables were restored, before serving."""
        ...

    async def stop(self) -> None: ...


class LocalCluster:
    """The cluster of one: the embedded server, or any worker on the ``memory://`` broker."""

    def __init__(self) -> None:
        self._host: Host | None = None
        self._handlers: dict[str, list[Handler]] = {}
        #: table id -> counter name -> last number given
        self._counters: dict[str, dict[str, int]] = {}

    def serve(self, host: Host) -> None:
        self._host = host

    def holds(self, table: Table) -> bool:
        return True

    async def claim(self, table: Table) -> None:
        return None

    async def stored(self, table_id: str | None = None,
                     invite: str | None = None) -> StoredTable | None:
        return None  # nobody else writes the log: what is live is in memory

    def watch(self, table: Table) -> None:
        return None

    def unwatch(self, table_id: str) -> None:
        self._counters.pop(table_id, None)  # the table is forgotten here

    def announce(self, table: Table, kind: str, **data: Any) -> None:
        return None

    def announce_presence(self, table: Table, seat: int) -> None:
        return None

    async def tell(self, table: Table, kind: str, **data: Any) -> None:
        event: Event = {"kind": kind, "origin": "local", **data}
        for handler in self._handlers.get(kind, ()):
            await handler(table, event)

    def on(self, kind: str, handler: Handler) -> None:
        self._handlers.setdefault(kind, []).append(handler)

    async def count(self, table: Table, name: str) -> int:
        counters = self._counters.setdefault(table.id, {})
        counters[name] = counters.get(name, 0) + 1
        return counters[name]

    def mark(self, table: Table, full: bool = False) -> None:
        return None

    async def sync_locked(self, table: Table) -> None:
        return None

    async def reread(self, table: Table, full: bool, error: Exception) -> None:
        raise error  # only this worker writes the log: a conflict is a bug

    def start(self) -> None:
        assert self._host is not None, "serve() first"
        for table in list(self._host.tables.values()):
            self._host.resume(table)

    async def stop(self) -> None:
        return None
