"""The events' storage: reading an event with its entrants, and every change written as
one compare-and-set on the event's version, so that of two workers changing one event at
once (both starting round 2, say) one wins and the other is told (``Stale``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from ..common.refusal import Refusal
from ..store.account_models import UserRow
from ..store.base import aware, utcnow
from ..store.database import Store
from ..store.tournament_models import EntrantRow, RoundTableRow, TournamentRow


class Stale(Exception):
    """The event changed since it was read (another request or worker wrote first)."""


T = TypeVar("T")

#: read-check-write attempts of one change before the event is called busy
TRIES = 5


async def retried(attempt: Callable[[], Awaitable[T]]) -> T:
    """The one read-check-write loop: ``attempt`` reads the event, checks (raising to
    refuse) and writes with the version it read; a write that lost to another writer
    (``Stale``) reads again, up to ``TRIES`` times, then the event is busy (409)."""
    for _ in range(TRIES):
        try:
            return await attempt()
        except Stale:
            continue
    raise Refusal("conflict", "the event is busy: try again")


@dataclass
class Listed:
    """An event's line in the public list: its row, how many have entered, whether the
    viewer has."""

    row: TournamentRow
    entered: int
    viewer_entered: bool


@dataclass
class StoredTournament:
    row: TournamentRow
    #: in entry order (the seeding)
    entrants: list[EntrantRow]


async def _advance(s: AsyncSession, event_id: str, version: int, only_if_open: bool = False,
                   **values: Any) -> None:
    """The one compare-and-set of an event: move it from ``version`` to the next (with
    ``values``), in the caller's transaction; ``Stale`` when another writer got there first
    (or, ``only_if_open``, the event is no longer open), and the caller's transaction then
    changes nothing."""
    guard = [TournamentRow.id == event_id, TournamentRow.version == version]
    if only_if_open:
        guard.append(TournamentRow.status == "open")
    done = await s.execute(update(TournamentRow).where(*guard)
                           .values(version=version + 1, updated_at=utcnow(), **values))
    if not getattr(done, "rowcount", 1):
        raise Stale(f"event {event_id} changed meanwhile")


class TournamentStore:
    """Events on the server's one store."""

    def __init__(self, store: Store) -> None:
        self.session = store.session
        self.exclusive = store.exclusive
        self.is_sqlite = store.is_sqlite

    async def create(self, row: TournamentRow, open_max: int, day_max: int) -> None:
        """Store a new event unless its organiser already holds ``open_max`` open or running
        events or made ``day_max`` in the last day (a ``too_many`` ``Refusal``). The count
        and the insert are one transaction that no other creation by the organiser can
        interleave with: SQLite's write lock taken first, PostgreSQL's row of the
        organiser's account locked, so 30 requests at once make no more than the limit."""
        async with self.exclusive() as s:
            if not self.is_sqlite:
                await s.execute(select(UserRow.id).where(UserRow.id == row.organiser_id)
                                .with_for_update())
            mine = TournamentRow.organiser_id == row.organiser_id
            held = await s.scalar(select(func.count()).select_from(TournamentRow).where(
                mine, TournamentRow.status.in_(("open", "running"))))
            if (held or 0) >= open_max:
                raise Refusal("too_many", f"you already run {held} events (at most {open_max} "
                              "at once): finish or wait for one first")
            day = await s.scalar(select(func.count()).select_from(TournamentRow).where(
                mine, TournamentRow.created_at > row.created_at - timedelta(days=1)))
            if (day or 0) >= day_max:
                raise Refusal("too_many", f"you made {day} events today (at most {day_max} a day)")
            s.add(row)

    async def get(self, event_id: str) -> StoredTournament | None:
        async with self.session() as s:
            row = await s.get(TournamentRow, event_id)
            if row is None:
                return None
            entrants = list(await s.scalars(
                select(EntrantRow).where(EntrantRow.event_id == event_id)
                .order_by(EntrantRow.position)))
            return StoredTournament(row, entrants)

    async def listed(self, statuses: tuple[str, ...], limit: int) -> list[StoredTournament]:
        """Events in these statuses, soonest start first (then newest), with entrants (a
        server's own work, as a restart's: the public list is ``page``)."""
        async with self.session() as s:
            rows = list(await s.scalars(
                select(TournamentRow).where(TournamentRow.status.in_(statuses))
                .order_by(TournamentRow.starts_at, TournamentRow.created_at.desc())
                .limit(limit)))
            out = []
            for row in rows:
                entrants = list(await s.scalars(
                    select(EntrantRow).where(EntrantRow.event_id == row.id)
                    .order_by(EntrantRow.position)))
                out.append(StoredTournament(row, entrants))
            return out

    async def page(self, statuses: tuple[str, ...], limit: int, offset: int,
                   viewer_id: int | None) -> tuple[list[Listed], int]:
        """One page of the public list and how many events it has in all: three queries
        whatever the events hold (the rows; their entrants counted; the viewer's
        entries), so strangers' events cannot make it dearer."""
        async with self.session() as s:
            where = TournamentRow.status.in_(statuses)
            total = await s.scalar(select(func.count()).select_from(TournamentRow).where(where))
            rows = list(await s.scalars(
                select(TournamentRow).where(where)
                .order_by(TournamentRow.starts_at, TournamentRow.created_at.desc(),
                          TournamentRow.id)
                .limit(limit).offset(offset)))
            ids = [r.id for r in rows]
            counts: dict[str, int] = {eid: n for eid, n in (await s.execute(
                select(EntrantRow.event_id, func.count()).where(EntrantRow.event_id.in_(ids))
                .group_by(EntrantRow.event_id))).all()} if ids else {}
            mine = set(await s.scalars(select(EntrantRow.event_id).where(
                EntrantRow.event_id.in_(ids), EntrantRow.user_id == viewer_id))
            ) if ids and viewer_id is not None else set()
            return [Listed(r, counts.get(r.id, 0), r.id in mine) for r in rows], total or 0

    async def write(self, event_id: str, version: int, **values: Any) -> int:
        """Change the event if it is still at ``version``; the new version. ``Stale`` when
        another writer got there first (nothing is changed)."""
        async with self.session.begin() as s:
            await _advance(s, event_id, version, **values)
        return version + 1

    async def join(self, event_id: str, version: int, user_id: int | None, name: str,
                   capacity: int, bot: str | None = None) -> None:
        """Add an entrant while the event is open and not full; the version moves, so a
        start in between makes one of the two fail (``user_id`` None: a bot of level
        ``bot``). ``Stale``: try again; ``LookupError``: already in (the account, or
        the name); ``OverflowError``: full."""
        try:
            async with self.session.begin() as s:
                count = await s.scalar(select(func.count()).select_from(EntrantRow)
                                       .where(EntrantRow.event_id == event_id))
                if (count or 0) >= capacity:
                    raise OverflowError("the event is full")
                last = await s.scalar(select(func.max(EntrantRow.position))
                                      .where(EntrantRow.event_id == event_id))
                await _advance(s, event_id, version, only_if_open=True)
                s.add(EntrantRow(event_id=event_id, user_id=user_id, bot=bot, name=name,
                                 position=(last or 0) + 1, created_at=utcnow()))
        except IntegrityError:
            raise LookupError("you are already entered") from None

    async def leave(self, event_id: str, version: int, user_id: int) -> bool:
        """Remove an entrant while the event is open; whether it was entered."""
        async with self.session.begin() as s:
            row = (await s.scalars(select(EntrantRow).where(
                EntrantRow.event_id == event_id, EntrantRow.user_id == user_id))).first()
            if row is None:
                return False
            await _advance(s, event_id, version, only_if_open=True)
            await s.delete(row)
            return True

    # -- the server tables of online rounds -------------------------------------------
    async def add_tables(self, rows: list[RoundTableRow]) -> None:
        """A round's tables; ``IntegrityError`` if another worker made them first."""
        async with self.session.begin() as s:
            s.add_all(rows)

    async def tables(self, event_id: str) -> list[RoundTableRow]:
        async with self.session() as s:
            return list(await s.scalars(
                select(RoundTableRow).where(RoundTableRow.event_id == event_id)
                .order_by(RoundTableRow.round, RoundTableRow.number)))

    async def table_of(self, table_id: str) -> RoundTableRow | None:
        async with self.session() as s:
            return await s.get(RoundTableRow, table_id)

    async def mark_entered(self, table_id: str, entered: bool = True) -> None:
        async with self.session.begin() as s:
            await s.execute(update(RoundTableRow).where(RoundTableRow.table_id == table_id)
                            .values(entered=entered))

    async def pending(self) -> list[RoundTableRow]:
        """Tables whose result has not been entered (looked at again after a restart)."""
        async with self.session() as s:
            return list(await s.scalars(
                select(RoundTableRow).where(RoundTableRow.entered.is_(False))))


def aware_or_none(moment: datetime | None) -> datetime | None:
    """``store.base.aware`` of a time that may be missing."""
    return None if moment is None else aware(moment)
