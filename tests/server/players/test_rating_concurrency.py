"""Rated matches of one account ending at once, recorded by two workers (two stores, as
two server processes have) on one database: every match counts exactly once, and each
update starts from the rating the previous one left (none is lost), on SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from rating_helpers import make_matches, one_on_one
from sqlalchemy import func, select

from scopa.rules import Rules
from scopa.server.players.account_store import AccountStore
from scopa.server.players.ratings import START, Ratings, new_ratings, pool_of
from scopa.server.store.account_models import MatchPlayerRow, RatingHistoryRow, RatingRow
from scopa.server.store.database import Store

MATCHES = 8



def test_matches_ending_at_once_on_two_workers_each_count_once(url: str) -> None:
    async def run() -> None:
        workers = [Store(url), Store(url)]
        try:
            await workers[0].migrate()
            user = await AccountStore(workers[0]).create_user("p", "p", "x")
            assert user is not None
            ids = [f"m{i}" for i in range(MATCHES)]
            await make_matches(workers[0], ids)
            outcomes = [one_on_one(m, user.id, None) for m in ids]
            raters = [Ratings(w) for w in workers]
            # every match ends at once, half on each worker; the first is also recorded a
            # second time by the other worker (a takeover racing the original)
            done = await asyncio.gather(
                *(raters[i % 2].record_surely(o) for i, o in enumerate(outcomes)),
                raters[1].record_surely(outcomes[0]))
            assert sorted(done) == [False] + [True] * MATCHES
            expected = START
            for o in outcomes:  # the same result each time: the order does not matter
                expected = new_ratings(o, {user.id: expected})[user.id]
            async with workers[1].session() as s:
                row = await s.get(RatingRow, (user.id, pool_of(Rules())))
                assert row is not None
                assert (row.games, row.wins) == (MATCHES, MATCHES)
                assert row.mu == pytest.approx(expected[0])
                assert row.sigma == pytest.approx(expected[1])
                assert await s.scalar(select(func.count()).select_from(
                    RatingHistoryRow)) == MATCHES
                assert await s.scalar(select(func.count()).select_from(
                    MatchPlayerRow)) == 2 * MATCHES
                # a chain: each match started from the rating the one before left
                befores = sorted(r.rating_before for r in await s.scalars(
                    select(MatchPlayerRow).where(MatchPlayerRow.user_id == user.id)))
                assert len(set(befores)) == MATCHES
        finally:
            for w in workers:
                await w.close()

    asyncio.run(run())


def test_a_match_end_finding_sqlite_locked_is_recorded_once_the_lock_is_gone(
        tmp_path: Path) -> None:
    """Another writer holds SQLite's lock past the busy timeout: the first try fails and
    writes nothing; the next, once the lock is gone, records the match (it is not lost)."""
    db = tmp_path / "busy.sqlite"

    async def run() -> None:
        store = Store(f"sqlite:///{db}", busy_seconds=0.05)
        other = sqlite3.connect(db, isolation_level=None)
        pauses: list[int] = []

        async def release(attempt: int) -> None:  # instead of waiting for time
            pauses.append(attempt)
            other.execute("ROLLBACK")

        try:
            await store.migrate()
            user = await AccountStore(store).create_user("p", "p", "x")
            assert user is not None
            await make_matches(store, ["m0"])
            other.execute("BEGIN IMMEDIATE")
            assert await Ratings(store, pause=release).record_surely(
                one_on_one("m0", user.id, None))
            assert pauses == [0]
            async with store.session() as s:
                row = await s.get(RatingRow, (user.id, pool_of(Rules())))
                assert row is not None and row.games == 1
        finally:
            other.close()
            await store.close()

    asyncio.run(run())


def test_two_accounts_meeting_in_many_matches_at_once_lock_in_one_order(url: str) -> None:
    """Matches of the same two accounts, seated either way round, ending at once on two
    workers: every lock is taken in account order, so none waits for another in a circle
    (a deadlock would fail a recording), and each match counts once for both."""
    async def run() -> None:
        workers = [Store(url), Store(url)]
        try:
            await workers[0].migrate()
            a = await AccountStore(workers[0]).create_user("a", "a", "x")
            b = await AccountStore(workers[0]).create_user("b", "b", "x")
            assert a is not None and b is not None
            ids = [f"x{i}" for i in range(MATCHES)]
            await make_matches(workers[0], ids)
            outcomes = [one_on_one(m, a.id, b.id) if i % 2 else one_on_one(m, b.id, a.id)
                        for i, m in enumerate(ids)]
            raters = [Ratings(w) for w in workers]
            done = await asyncio.gather(*(raters[i % 2].record_surely(o)
                                          for i, o in enumerate(outcomes)))
            assert done == [True] * MATCHES
            async with workers[1].session() as s:
                for user in (a, b):
                    row = await s.get(RatingRow, (user.id, pool_of(Rules())))
                    assert row is not None
                    assert (row.games, row.wins) == (MATCHES, MATCHES // 2)
        finally:
            for w in workers:
                await w.close()

    asyncio.run(run())
