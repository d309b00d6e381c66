"""The rating policy against farming (farming.py), through the path a finished rated
match takes (Ratings.record), on SQLite and PostgreSQL: accounts used from one address
do not rate each other; a ring of fresh accounts cannot lift anyone; established players
are rated as usual."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from rating_helpers import make_matches, one_on_one
from sqlalchemy import select

from scopa.rules import Rules
from scopa.server.players.account_store import AccountStore
from scopa.server.players.ratings import START, Ratings, pool_of
from scopa.server.store.account_models import MatchPlayerRow, RatingRow
from scopa.server.store.database import Store

POOL = pool_of(Rules())



async def accounts(store: Store, names: list[str], addresses: list[str]) -> list[int]:
    a = AccountStore(store)
    now = datetime.now(UTC)
    ids = []
    for name, address in zip(names, addresses, strict=True):
        user = await a.create_user(name, name, "x", name)
        assert user is not None
        await a.note_address(user.id, address, now, now - timedelta(days=30))
        ids.append(user.id)
    return ids


async def rating(store: Store, user: int) -> tuple[float, float, int] | None:
    async with store.session() as s:
        row = await s.get(RatingRow, (user, POOL))
        return None if row is None else (row.mu, row.sigma, row.games)


def run(url: str, scenario: object) -> None:
    async def go() -> None:
        store = Store(url)
        try:
            await store.migrate()
            await scenario(store)  # type: ignore[operator]
        finally:
            await store.close()
    asyncio.run(go())


def test_accounts_used_from_one_address_do_not_rate_each_other(url: str) -> None:
    async def scenario(store: Store) -> None:
        target, *throwers = await accounts(store, ["t", "f1", "f2", "f3"], ["10.0.0.7"] * 4)
        ids = [f"m{i}" for i in range(3)]
        await make_matches(store, ids)
        for m, f in zip(ids, throwers, strict=True):
            assert await Ratings(store).record(one_on_one(m, target, f))
        assert await rating(store, target) is None  # nothing rated, no rated game
        async with store.session() as s:
            kept = list(await s.scalars(select(MatchPlayerRow)))
        assert len(kept) == 6 and all(mp.rating_after is None for mp in kept)

    run(url, scenario)


def test_fresh_accounts_cannot_lift_anyone_and_established_ones_are_rated(url: str) -> None:
    async def scenario(store: Store) -> None:
        names = ["t", "f1", "f2", "f3"]
        target, f1, f2, f3 = await accounts(store, names,
                                            [f"10.0.1.{i}" for i in range(4)])
        ids = [f"m{i}" for i in range(6)]
        await make_matches(store, ids)
        ratings = Ratings(store)
        # three fresh accounts throw a match each to a fresh fourth
        for m, f in zip(ids[:3], (f1, f2, f3), strict=True):
            assert await ratings.record(one_on_one(m, target, f))
        mu, sigma, games = await rating(store, target) or (0, 0, 0)
        assert (mu, sigma, games) == (*START, 3)  # counted, worth nothing
        assert await rating(store, f1) == (*START, 1)  # its opponent was provisional too
        # f1 meets f2 and f3 too: now f1 has met three accounts, as has the target
        assert await ratings.record(one_on_one("m3", f1, f2))
        assert await ratings.record(one_on_one("m4", f1, f3))
        before = await rating(store, target)
        assert await ratings.record(one_on_one("m5", target, f1))
        after = await rating(store, target)
        assert before is not None and after is not None
        assert after[0] > before[0] and after[2] == 4  # both established: rated

    run(url, scenario)
