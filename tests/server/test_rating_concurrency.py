"""Rated matches of one account ending at once, recorded by two workers (two stores, as
two server processes have) on one database: every match counts exactly once, and each
update starts from the rating the previous one left (none is lost), on SQLite and
PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from services import STORES, fresh_database
from sqlalchemy import func, select

from scopa.rules import Rules
from scopa.server.account_models import MatchPlayerRow, RatingHistoryRow, RatingRow
from scopa.server.account_store import AccountStore
from scopa.server.models import MatchRow, TableRow
from scopa.server.ratings import START, Outcome, Ratings, SeatOutcome, new_ratings, pool_of
from scopa.server.store import Store

MATCHES = 8


@pytest.fixture(params=STORES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'r.sqlite'}"
        return
    with fresh_database() as u:
        yield u


def won_against_a_bot(match_id: str, user_id: int) -> Outcome:
    rules = Rules()
    return Outcome(match_id, rules, True, 0, [11, 5],
                   [SeatOutcome(0, 0, user_id, None, False),
                    SeatOutcome(1, 1, None, "intermediate", False)],
                   [dict(hands=3, points=11, sweeps=1, settebello=1, primiera=1, coins=1),
                    dict(hands=3, points=5, sweeps=0, settebello=0, primiera=0, coins=0)])


async def matches(store: Store, ids: list[str]) -> None:
    """The tables and matches the outcomes belong to (as the master made them)."""
    async with store.session.begin() as s:
        for i, m in enumerate(ids):
            s.add(TableRow(id=f"t{i}", invite=f"i{i}", public=False, rules=Rules().to_dict(),
                           grace_seconds=1.0, status="playing", rated=True))
            await s.flush()
            s.add(MatchRow(id=m, table_id=f"t{i}", number=1, rules=Rules().to_dict(),
                           players=["p", "Giulia"]))


def test_matches_ending_at_once_on_two_workers_each_count_once(url: str) -> None:
    async def run() -> None:
        workers = [Store(url), Store(url)]
        try:
            await workers[0].migrate()
            user = await AccountStore(workers[0]).create_user("p", "p", "x")
            assert user is not None
            ids = [f"m{i}" for i in range(MATCHES)]
            await matches(workers[0], ids)
            outcomes = [won_against_a_bot(m, user.id) for m in ids]
            raters = [Ratings(w) for w in workers]
            # every match ends at once, half on each worker; the first is also recorded a
            # second time by the other worker (a takeover racing the original)
            done = await asyncio.gather(
                *(raters[i % 2].record(o) for i, o in enumerate(outcomes)),
                raters[1].record(outcomes[0]))
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
