"""The puzzles' rows on SQLite and PostgreSQL (``puzzles.store``): loading twice keeps one
of each, the day's puzzle is chosen once a day and comes round again when every puzzle had
its day, the next puzzle skips what was answered or seen, and a first answer moves both
ratings once."""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Any

from scopa.bots.puzzles import make
from scopa.server.puzzles.store import PuzzleStore
from scopa.server.store.account_models import UserRow
from scopa.server.store.database import Store


@cache
def puzzles() -> tuple[dict[str, Any], ...]:
    return tuple(make(3, "store"))


async def _with(url: str, work: Any) -> Any:
    store = Store(url)
    try:
        await store.migrate()
        return await work(store, PuzzleStore(store))
    finally:
        await store.close()


async def _user(store: Store, name: str) -> int:
    async with store.session.begin() as s:
        user = UserRow(name=name, name_key=name, password_hash="x")
        s.add(user)
        await s.flush()
        return int(user.id)


def test_loading_twice_keeps_one_of_each(url: str) -> None:
    async def work(store: Store, rows: PuzzleStore) -> None:
        assert await rows.add(list(puzzles())) == 3
        assert await rows.add(list(puzzles())) == 0
        assert await rows.count() == 3
        row = await rows.get(puzzles()[0]["id"])
        assert row is not None and row.body == puzzles()[0]
        assert row.rating == puzzles()[0]["rating"]
    asyncio.run(_with(url, work))


def test_each_day_has_one_puzzle_and_they_come_round_again(url: str) -> None:
    async def work(store: Store, rows: PuzzleStore) -> None:
        assert await rows.daily("2026-12-07") is None  # no puzzles yet: no day is taken
        await rows.add(list(puzzles()))
        days = [f"2026-12-{d:02d}" for d in range(7, 11)]
        chosen = [await rows.daily(day) for day in days]
        assert all(c is not None for c in chosen)
        ids = [c.id for c in chosen if c is not None]
        assert len(set(ids[:3])) == 3  # three puzzles: three days before one comes again
        again = await rows.daily(days[0])
        assert again is not None and again.id == ids[0]
    asyncio.run(_with(url, work))


def test_the_next_puzzle_skips_the_answered_and_the_seen(url: str) -> None:
    async def work(store: Store, rows: PuzzleStore) -> None:
        await rows.add(list(puzzles()))
        user = await _user(store, "solver")
        first = await rows.next_for(user, 1500, [])
        assert first is not None
        done = await rows.answer(user, first.id, True, {"card": "7d", "capture": []})
        assert done.first and done.before == 1500 and done.after is not None
        assert done.after > 1500 and done.puzzle < first.rating
        again = await rows.answer(user, first.id, False, {"card": "7d", "capture": []})
        assert not again.first and again.before is None and again.puzzle == done.puzzle
        second = await rows.next_for(user, 1500, [])
        assert second is not None and second.id != first.id
        guest = await rows.next_for(None, 1500, [first.id, second.id])
        assert guest is not None and guest.id not in (first.id, second.id)
        assert await rows.next_for(None, 1500, [p["id"] for p in puzzles()]) is None
        mine = await rows.player(user)
        assert mine is not None and (mine.attempts, mine.solved) == (1, 1)
    asyncio.run(_with(url, work))


def test_the_next_puzzle_is_the_nearest_in_rating(url: str) -> None:
    async def work(store: Store, rows: PuzzleStore) -> None:
        await rows.add(list(puzzles()))
        for near in (900, 1350, 1500, 1650, 2300, 5000):
            want = min(puzzles(), key=lambda p: (abs(p["rating"] - near), p["id"]))
            got = await rows.next_for(None, near, [])
            assert got is not None and got.id == want["id"], near
    asyncio.run(_with(url, work))
