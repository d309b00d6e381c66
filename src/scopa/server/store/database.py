"""Event-sourced storage behind one small interface, on SQLAlchemy's asyncio engine so no
database call blocks the event loop (aiosqlite for SQLite, asyncpg for PostgreSQL). Every
write commits before it returns, so whatever the server announced survives a crash
(``kill -9``)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import event, func, select, text, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from ..common.settings import BUSY_SECONDS
from ..common.timing import PHASES
from . import migrate
from .models import EventRow, MatchRow, Meta, SeatRow, TableRow, utcnow
from .tournament_models import RoundTableRow, TournamentRow


@dataclass
class StoredTable:
    """A table as loaded at start: its rows and its current match's events."""

    table: TableRow
    seats: list[SeatRow]
    match: MatchRow | None
    events: list[EventRow] = field(default_factory=list)
    #: an event's table: the event's row of it (``tournament_tables``) says so, the one
    #: record of which tables are an event's (``play.table.Table.event_id``)
    event_id: str | None = None
    #: its deals are a duplicate round's, every table's (``play.table.Table.shared_deals``)
    shared_deals: bool = False


#: events committed together at most (one INSERT statement of many rows)
GROUP_MAX = 500


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    """Tell a waiting append how its write went (unless it stopped waiting)."""
    if done.done():
        return
    if error is None:
        done.set_result(None)
    else:
        done.set_exception(error)


class Conflict(Exception):
    """Another writer got there first: the event's ``(match_id, seq)`` is taken (the unique
    constraint refused this one) or the table left the status a change expected."""

#: the asyncio driver of each database named without one (``postgresql://...``)
ASYNC_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "postgresql": "postgresql+asyncpg",
    "postgres": "postgresql+asyncpg",
}


def async_url(url: str | URL) -> URL:
    """``url`` with its database's asyncio driver: ``sqlite:///x`` and ``postgresql://``
    are accepted as well as ``sqlite+aiosqlite:///x`` and ``postgresql+asyncpg://``."""
    parsed = make_url(url)
    if "+" not in parsed.drivername and parsed.drivername in ASYNC_DRIVERS:
        parsed = parsed.set(drivername=ASYNC_DRIVERS[parsed.drivername])
    return parsed


def count_round_trips(engine: AsyncEngine, autocommit: bool = False) -> None:
    """Count the database's round trips (``timing.PHASES``): statements, BEGINs, COMMITs
    and connection check-outs (each check-out pings a PostgreSQL connection first); an
    ``autocommit`` engine sends no BEGIN."""
    sync = engine.sync_engine

    @event.listens_for(sync, "before_cursor_execute")
    def _statement(*_: Any) -> None:
        PHASES.count("db.statements")

    if not autocommit:
        @event.listens_for(sync, "begin")
        def _begin(*_: Any) -> None:
            PHASES.count("db.begins")

    @event.listens_for(sync, "commit")
    def _commit(*_: Any) -> None:
        PHASES.count("db.commits")

    @event.listens_for(sync.pool, "checkout")
    def _checkout(*_: Any) -> None:
        PHASES.count("db.checkouts")


#: longest wait for the writes in flight when the server stops
CLOSE_SECONDS = 10.0


def make_engine(url: str | URL, busy_seconds: float = BUSY_SECONDS,
                **options: Any) -> AsyncEngine:
    """The asyncio engine of ``url`` (``options`` go to SQLAlchemy, e.g. the pool's size)."""
    parsed = async_url(url)
    if parsed.get_backend_name() == "sqlite":
        engine = create_async_engine(parsed, **options)
        count_round_trips(engine, options.get("isolation_level") == "AUTOCOMMIT")

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_conn: Any, _record: Any) -> None:
            cur = dbapi_conn.cursor()
            # WAL + NORMAL: a committed transaction survives the process being killed
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            # a writer finding the database locked waits this long (not the driver's 5 s)
            cur.execute(f"PRAGMA busy_timeout={int(busy_seconds * 1000)}")
            cur.close()

        return engine
    engine = create_async_engine(parsed, pool_pre_ping=True, **options)
    count_round_trips(engine, options.get("isolation_level") == "AUTOCOMMIT")
    return engine


class Store:
    """All database access of the server."""

    def __init__(self, url: str | URL, busy_seconds: float = BUSY_SECONDS) -> None:
        self.engine = make_engine(url, busy_seconds)
        #: the group commits' own connection, never queued behind reads for a pooled one;
        #: each group is one INSERT statement, atomic by itself, so no BEGIN and COMMIT
        #: round trips around it (the statement commits as it ends)
        self._writes = make_engine(url, busy_seconds, pool_size=1, max_overflow=0,
                                   isolation_level="AUTOCOMMIT")
        self.session = async_sessionmaker(self.engine, expire_on_commit=False)
        #: events waiting for the next group commit, each with its waiting append
        self._pending: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        self._writer: asyncio.Task[None] | None = None
        #: INSERT with ON CONFLICT of this database (PostgreSQL's and SQLite's are alike)
        self.insert = (postgresql.insert if self.engine.dialect.name == "postgresql"
                       else sqlite.insert)

    @property
    def is_sqlite(self) -> bool:
        return self.engine.dialect.name == "sqlite"

    @contextlib.asynccontextmanager
    async def exclusive(self) -> AsyncIterator[AsyncSession]:
        """A transaction that writes what it has read, so no other writer may change it in
        between. SQLite: it takes the database's write lock first (``BEGIN IMMEDIATE``,
        waiting up to the busy timeout), where the driver would only lock at the first
        write and let two such transactions read the same value. PostgreSQL: the caller
        locks the rows it reads (``SELECT ... FOR UPDATE``)."""
        async with self.session.begin() as s:
            if self.is_sqlite:
                await s.execute(text("BEGIN IMMEDIATE"))
            yield s

    async def migrate(self) -> None:
        await migrate.upgrade(self.engine)

    async def close(self) -> None:
        """Finish the writes in flight (the group writer commits what is queued, even for
        a waiter the shutdown cancelled: at most ``CLOSE_SECONDS``), then let go."""
        writer = self._writer
        if writer is not None and not writer.done():
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(writer), CLOSE_SECONDS)
        await self.engine.dispose()
        await self._writes.dispose()

    # -- installation -------------------------------------------------------------------
    async def secret(self) -> str:
        """The installation's secret, generated once and kept in the database (the first
        of several workers starting at once to insert it wins; the others read it)."""
        async with self.session() as s:
            row = await s.get(Meta, "secret")
            if row is not None:
                return row.value
        try:
            async with self.session.begin() as s:
                s.add(Meta(key="secret", value=secrets.token_hex(32)))
        except IntegrityError:
            pass
        async with self.session() as s:
            row = await s.get(Meta, "secret")
            assert row is not None
            return row.value

    # -- tables and seats ---------------------------------------------------------------
    async def create_table(self, table: TableRow, seats: list[SeatRow]) -> None:
        async with self.session.begin() as s:
            s.add(table)
            await s.flush()
            s.add_all(seats)

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                        user_id: int | None = None) -> None:
        """Give a free seat its player; ``Conflict`` if it is no longer free (another
        worker's join took it first)."""
        async with self.session.begin() as s:
            done = await s.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat,
                       SeatRow.token_hash.is_(None))
                .values(name=name, token_hash=token_hash, user_id=user_id)
            )
            if not getattr(done, "rowcount", 1):
                raise Conflict(f"seat {seat} of {table_id} is taken")

    async def mark_abandoned(self, table_id: str, seat: int, match_id: str) -> None:
        """A stand-in took the seat past the grace period of the rated match ``match_id``:
        kept with the seat, so a restart during the match still counts the abandonment."""
        async with self.session.begin() as s:
            await s.execute(
                update(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(abandoned_match=match_id)
            )

    async def set_status(self, table_id: str, status: str) -> None:
        async with self.session.begin() as s:
            await s.execute(
                update(TableRow).where(TableRow.id == table_id).values(status=status)
            )

    async def expire_waiting(self, before: datetime) -> int:
        """Mark every table made before ``before`` and still waiting for players as
        ``expired`` (so it is never loaded again); returns how many."""
        async with self.session.begin() as s:
            done = await s.execute(
                update(TableRow)
                .where(TableRow.status == "waiting", TableRow.created_at < before)
                .values(status="expired")
            )
            return int(getattr(done, "rowcount", 0) or 0)

    # -- matches and events -------------------------------------------------------------
    async def start_match(self, match: MatchRow, first_hand: dict[str, Any]) -> None:
        """A new match and its first deal, in one transaction. The table must be waiting
        or finished: ``Conflict`` if another worker started a match on it first (the
        status check and the change are one guarded UPDATE, so two starts cannot both
        pass it)."""
        async with self.session.begin() as s:
            done = await s.execute(
                update(TableRow)
                .where(TableRow.id == match.table_id,
                       TableRow.status.in_(("waiting", "finished")))
                .values(status="playing")
            )
            if not getattr(done, "rowcount", 1):
                raise Conflict(f"table {match.table_id} already has a match going")
            s.add(match)
            await s.flush()
            s.add(EventRow(match_id=match.id, seq=0, kind="hand", data=first_hand))

    async def append(
        self,
        match_id: str,
        seq: int,
        kind: str,
        data: dict[str, Any],
        finish: tuple[int, list[int], int] | None = None,
    ) -> None:
        """Append one event; with ``finish`` = (winner, scores, hands) also close the match
        (and its table) in the same transaction. ``Conflict`` (nothing written) when the
        match already has an event ``seq``: the unique ``(match_id, seq)`` is the per-table
        guard between workers, so two writers can never both append the same step.

        Returns once the event is committed. Events of every table are group-committed: the
        appends that arrive while a transaction is on its way go together in the next one
        (a connection of their own, one INSERT of many rows), so under load a move costs a
        fraction of a round trip and never waits for a pooled connection."""
        start = time.perf_counter()
        try:
            if finish is None:
                await self._group_append({"match_id": match_id, "seq": seq, "kind": kind,
                                          "data": data, "created_at": utcnow()})
            else:
                await self._finish(match_id, seq, kind, data, finish)
            PHASES.record("db.append", time.perf_counter() - start)
        except IntegrityError as e:
            raise Conflict(f"event {seq} of match {match_id} is already written") from e

    async def _group_append(self, row: dict[str, Any]) -> None:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((row, done))
        if self._writer is None or self._writer.done() or self._writer.get_loop() is not loop:
            self._writer = loop.create_task(self._write_pending())
        await done

    async def _write_pending(self) -> None:
        """Commit the queued events, as many at a time as are waiting, until none is; on one
        connection kept while more keep coming (no check-out, ping and reset per group)."""
        while self._pending:
            batch = self._next_group()
            if not batch:
                continue
            start = time.perf_counter()
            try:
                conn = await self._writes.connect()
                PHASES.record("db.checkout", time.perf_counter() - start)
            except Exception as e:  # the database is away: this group's appends fail
                for _, done in batch:
                    _settle(done, e)
                continue
            try:
                ok = await self._write_group(conn, batch)
                while ok and self._pending:
                    batch = self._next_group()
                    if batch:
                        ok = await self._write_group(conn, batch)
            finally:
                with contextlib.suppress(Exception):
                    await conn.close()

    def _next_group(self) -> list[tuple[dict[str, Any], asyncio.Future[None]]]:
        """The next appends to write together (taken off the queue)."""
        batch: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        later: list[tuple[dict[str, Any], asyncio.Future[None]]] = []
        keys: set[tuple[str, int]] = set()
        for row, done in self._pending[:GROUP_MAX]:
            key = (row["match_id"], row["seq"])
            if done.cancelled():  # given up on before it was written: not written
                continue
            # a step twice in one INSERT: which one the database keeps is not said, so the
            # second waits for the next group (and gets its Conflict)
            (later if key in keys else batch).append((row, done))
            keys.add(key)
        self._pending[:GROUP_MAX] = later
        PHASES.count("db.events", len(batch))
        return batch

    async def _write_group(self, conn: AsyncConnection,
                           batch: list[tuple[dict[str, Any], asyncio.Future[None]]]) -> bool:
        """One INSERT for ``batch``. A step already taken (another worker wrote it) is
        skipped by the INSERT itself (``ON CONFLICT DO NOTHING``) and its append alone gets
        ``Conflict``; any other refusal splits the batch in halves, so only the refused
        appends fail. False when the connection failed (the batch's appends fail too)."""
        try:
            written = await self._insert(conn, [row for row, _ in batch])
        except IntegrityError as e:
            if len(batch) == 1:
                _settle(batch[0][1], e)
                return True
            half = len(batch) // 2
            return (await self._write_group(conn, batch[:half])
                    and await self._write_group(conn, batch[half:]))
        except Exception as e:  # the database is away: every append of the batch fails
            for _, done in batch:
                _settle(done, e)
            return False
        for row, done in batch:
            if (row["match_id"], row["seq"]) in written:
                _settle(done, None)
            else:
                PHASES.count("db.conflicts")
                _settle(done, IntegrityError("INSERT", None, ValueError(
                    f"event {row['seq']} of match {row['match_id']} is already written")))
        return True

    async def _insert(self, conn: AsyncConnection,
                      rows: list[dict[str, Any]]) -> set[tuple[str, int]]:
        """Insert the rows that do not take a step already written, in one statement
        (committed when it returns); the ``(match_id, seq)`` of those written."""
        start = time.perf_counter()
        stmt = (self.insert(EventRow).values(rows)
                .on_conflict_do_nothing(index_elements=["match_id", "seq"])
                .returning(EventRow.match_id, EventRow.seq))
        result = await conn.execute(stmt)
        written = {(m, q) for m, q in result.all()}
        PHASES.record("db.commit", time.perf_counter() - start)
        PHASES.count("db.groups")
        return written

    async def _finish(
        self, match_id: str, seq: int, kind: str, data: dict[str, Any],
        finish: tuple[int, list[int], int],
    ) -> None:
        async with self.session.begin() as s:
            s.add(EventRow(match_id=match_id, seq=seq, kind=kind, data=data))
            winner, scores, hands = finish
            m = await s.get(MatchRow, match_id)
            assert m is not None
            m.finished_at = utcnow()
            m.winner = winner
            m.scores = scores
            m.hands = hands
            await s.execute(
                update(TableRow).where(TableRow.id == m.table_id).values(status="finished")
            )

    async def load_active(self) -> list[StoredTable]:
        """Every table still waiting or playing, with its current match's events."""
        out = []
        async with self.session() as s:
            tables = (await s.scalars(
                select(TableRow).where(TableRow.status.in_(("waiting", "playing")))
            )).all()
            for t in tables:
                out.append(await self._stored(s, t))
        return out

    async def load_table(
        self, table_id: str | None = None, invite: str | None = None
    ) -> StoredTable | None:
        """One table (by id or by invite) with its latest match's events, as another
        worker wrote them; None if there is none or it expired."""
        where = TableRow.id == table_id if invite is None else TableRow.invite == invite
        async with self.session() as s:
            t = (await s.scalars(select(TableRow).where(where))).first()
            if t is None or t.status == "expired":
                return None
            return await self._stored(s, t)

    async def live_table_ids(self) -> list[str]:
        """The ids of every table waiting or playing (a worker adopts those it lacks)."""
        async with self.session() as s:
            return list(await s.scalars(
                select(TableRow.id).where(TableRow.status.in_(("waiting", "playing")))
            ))

    async def _stored(self, s: AsyncSession, t: TableRow) -> StoredTable:
        seats = list(await s.scalars(
            select(SeatRow).where(SeatRow.table_id == t.id).order_by(SeatRow.seat)
        ))
        match = (await s.scalars(
            select(MatchRow)
            .where(MatchRow.table_id == t.id)
            .order_by(MatchRow.number.desc())
            .limit(1)
        )).first()
        events = await self._events(s, match.id) if match is not None else []
        of_event = (await s.execute(
            select(RoundTableRow.event_id, TournamentRow.settings)
            .join(TournamentRow, TournamentRow.id == RoundTableRow.event_id)
            .where(RoundTableRow.table_id == t.id))).first()
        shared = of_event is not None and bool(of_event.settings.get("duplicate")) \
            and bool(t.seeds)
        return StoredTable(t, seats, match, events,
                           event_id=None if of_event is None else of_event.event_id,
                           shared_deals=shared)

    async def events(self, match_id: str, since: int = 0) -> list[EventRow]:
        """A match's events from ``since`` on, in order (a worker catching up)."""
        async with self.session() as s:
            return await self._events(s, match_id, since)

    @staticmethod
    async def _events(s: AsyncSession, match_id: str, since: int = 0) -> list[EventRow]:
        return list(await s.scalars(
            select(EventRow).where(EventRow.match_id == match_id, EventRow.seq >= since)
            .order_by(EventRow.seq)
        ))

    # -- history ------------------------------------------------------------------------
    async def finished_matches(self, limit: int, offset: int) -> tuple[list[MatchRow], int]:
        """Finished matches of public tables, newest first, and how many there are."""
        async with self.session() as s:
            listed = (MatchRow.finished_at.is_not(None), TableRow.public.is_(True))
            public = select(MatchRow).join(TableRow, TableRow.id == MatchRow.table_id)
            total = await s.scalar(
                select(func.count()).select_from(MatchRow)
                .join(TableRow, TableRow.id == MatchRow.table_id).where(*listed)
            ) or 0
            rows = (await s.scalars(
                public
                .where(*listed)
                .order_by(MatchRow.finished_at.desc())
                .limit(limit)
                .offset(offset)
            )).all()
            return list(rows), int(total)

    async def match(self, match_id: str) -> MatchRow | None:
        async with self.session() as s:
            return await s.get(MatchRow, match_id)
