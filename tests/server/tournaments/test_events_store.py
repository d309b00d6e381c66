"""The events' writes on both databases: a change names the version it read, so of two
workers changing one event at once (both pairing round 2, say) exactly one wins and the
other is told; an entrant is in once, and not past the event's capacity."""

from __future__ import annotations

import asyncio

import pytest

from scopa.server.common.refusal import Refusal
from scopa.server.store.account_models import UserRow
from scopa.server.store.base import utcnow
from scopa.server.store.database import Store
from scopa.server.store.tournament_models import TournamentRow
from scopa.server.tournaments.store import Stale, TournamentStore


def row(event_id: str = "e1") -> TournamentRow:
    now = utcnow()
    return TournamentRow(id=event_id, organiser_id=1, name="Night", settings={}, event=None,
                         status="open", starts_at=None, capacity=2, mode="online",
                         auto_next=False, version=0, created_at=now, updated_at=now)


def test_two_writers_of_one_version_one_wins(url: str) -> None:
    async def run() -> None:
        store = Store(url)
        try:
            await store.migrate()
            events = TournamentStore(store)
            await events.create(row(), 5, 20)
            results = await asyncio.gather(
                events.write("e1", 0, event={"by": "a"}, status="running"),
                events.write("e1", 0, event={"by": "b"}, status="running"),
                return_exceptions=True)
            assert sorted(type(r).__name__ for r in results) == ["Stale", "int"]
            stored = await events.get("e1")
            assert stored is not None and stored.row.version == 1
            winner = next(r for r in results if isinstance(r, int))
            assert winner == 1 and stored.row.event in ({"by": "a"}, {"by": "b"})
            with pytest.raises(Stale):
                await events.write("e1", 0, status="finished")
        finally:
            await store.close()

    asyncio.run(run())


def test_entries_are_once_and_within_capacity(url: str) -> None:
    async def run() -> None:
        store = Store(url)
        try:
            await store.migrate()
            events = TournamentStore(store)
            await events.create(row(), 5, 20)
            await events.join("e1", 0, 7, "Anna", 2)
            with pytest.raises(LookupError):
                await events.join("e1", 1, 7, "Anna", 2)
            with pytest.raises(Stale):  # read before Anna's entry: another version now
                await events.join("e1", 0, 8, "Bruno", 2)
            await events.join("e1", 1, 8, "Bruno", 2)
            with pytest.raises(OverflowError):
                await events.join("e1", 2, 9, "Carla", 2)
            stored = await events.get("e1")
            assert stored is not None
            assert [e.name for e in stored.entrants] == ["Anna", "Bruno"]
        finally:
            await store.close()

    asyncio.run(run())


def test_thirty_creations_at_once_make_no_more_than_the_limit(url: str) -> None:
    # the count and the insert are one transaction no other creation interleaves with
    async def run() -> None:
        store = Store(url)
        try:
            await store.migrate()
            events = TournamentStore(store)
            async with store.session.begin() as s:
                s.add(UserRow(id=1, name="Org", name_key="org", password_hash="x",
                              created_at=utcnow()))
            results = await asyncio.gather(
                *(events.create(row(f"e{i}"), 5, 20) for i in range(30)),
                return_exceptions=True)
            made = [r for r in results if r is None]
            refused = [r for r in results if isinstance(r, Refusal) and r.code == "too_many"]
            assert len(made) == 5 and len(refused) == 25, results
            listed, total = await events.page(("open",), 50, 0, None)
            assert total == 5 and len(listed) == 5
            # a finished one frees its place; the day's count still holds
            await events.write(listed[0].row.id, 0, status="finished")
            await events.create(row("late"), 5, 6)
            with pytest.raises(Refusal, match="at most"):
                await events.create(row("later"), 9, 6)
        finally:
            await store.close()

    asyncio.run(run())
